#!/usr/bin/env bash
# Every benchmark in its short smoke mode, so CI proves each one still runs (figures are printed, never asserted).
set -euo pipefail
cd "$(dirname "$0")/.."
node --import tsx bench/sync-call.ts --smoke
node --import tsx bench/client-create.ts --smoke
node --import tsx bench/gateway.ts --smoke
node --import tsx bench/lobby-fanout.ts --smoke
node --import tsx platform/bench/gateway.ts --smoke
node --import tsx platform/bench/voice-relay.ts --smoke
node --import tsx platform/bench/bot-messages.ts --smoke
node --import tsx platform/bench/voice-dave.ts --smoke
node --import tsx platform/bench/store-queries.ts --smoke   # starts a temporary PostgreSQL cluster (Debian postgresql)
node --import tsx platform/bench/broker-fanout.ts --smoke   # starts a private redis-server (Debian redis-server)
build/Release/svcpp_bench_voice_media --smoke
build/Release/svcpp_bench_dave --smoke
build/Release/svcpp_bench_gateway_parse --smoke
node --import tsx bench/voice-latency.ts --smoke
node --import tsx bench/soak-faults.ts --smoke   # 3 kill -9 (the full soak, npm run soak, does 20)
node --import tsx bench/soak-sessions.ts --smoke   # 1,000 sessions (the full soak, npm run soak, holds 10,000)
node --import tsx bench/soak-sdk.ts --smoke   # 500 messages, 5 drops, 1 restart (the full soak: 10,000, 100, 5)
node --import tsx bench/soak-429.ts --smoke   # 2 clients × 26 calls into tight limits (the full soak: 2 × 360)
