#!/usr/bin/env bash
# The README's two commands:
#   bash scripts/run.sh demo [--verbose]   set up and build what the demo needs, run the SDK against the platform
#   bash scripts/run.sh test   set up, build everything, run every test (native, ASan/UBSan, TSan for voice, SDK,
#                              platform, bench smoke)
# Set-up is idempotent: Debian packages, npm packages and the native build are only redone when needed. Every step
# announces itself with its share of a first run on a 2-core machine, so a newcomer knows what the wait is for.
set -euo pipefail
cd "$(dirname "$0")/.."
mode="${1:-}"
logs=$(mktemp -d)
steps=0 current=0
step() { current=$((current + 1)); printf '\n==> [%d/%d] %s\n' "$current" "$steps" "$*"; }

# Runs a command that can stay silent for minutes (npm compiling better-sqlite3 from source) and prints the
# elapsed time every 30 s meanwhile, so a first run never looks hung.
with_heartbeat() {
  local start=$SECONDS status=0 pid ticker
  "$@" &
  pid=$!
  ( t=0; while sleep 1; do t=$((t + 1)); [ $((t % 30)) -ne 0 ] || printf '    ... %d s\n' "$t"; done ) &
  ticker=$!
  wait "$pid" || status=$?
  kill "$ticker" 2>/dev/null; wait "$ticker" 2>/dev/null || true
  [ "$status" -ne 0 ] || printf '    done in %d s\n' $((SECONDS - start))
  return "$status"
}

debian_packages() {
  step "Debian packages: compilers, CMake, Boost, OpenSSL, libsodium, Opus headers (first run: a minute or two)"
  bash scripts/install-deps.sh
}

npm_packages() {
  step "npm packages (first run ~1.5 min: better-sqlite3 compiles SQLite when no prebuilt binary downloads)"
  if [ -f node_modules/.package-lock.json ] && [ ! package-lock.json -nt node_modules/.package-lock.json ]; then
    echo "    up to date"
  else
    with_heartbeat npm ci --no-audit --no-fund
  fi
}

# cmake-js configures only when build/ has no CMake cache, then builds; ninja's [n/N] lines show how far along
# it is. CMAKE_MESSAGE_LOG_LEVEL=NOTICE keeps the first configure to warnings and svcpp's own notices. The demo
# builds only the addon and what it links (libsvcpp.so, the core, Opus); the tests build the rest into the same
# tree, so neither recompiles the other's objects.
native_build() {
  npx cmake-js compile --log-level warn --parallel 2 --out build --CDCMAKE_MESSAGE_LOG_LEVEL=NOTICE "$@"
}

# Runs a test stage, keeps its output for the summary, fails the run when the stage fails. A stage that hangs (a
# deadlocked process: no test timeout can fire) is killed after SVCPP_STAGE_TIMEOUT seconds (every stage takes a
# few minutes at most) so the run fails in minutes, naming the stage, instead of running into CI's limit.
stage() {
  local name="$1"; shift
  local limit="${SVCPP_STAGE_TIMEOUT:-900}" status=0
  step "$name"
  timeout --kill-after=10 "$limit" "$@" 2>&1 | tee "$logs/$name.log" || status=$?
  if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
    echo "svcpp: stage $name did not finish within ${limit}s; killed" >&2
  fi
  return "$status"
}

case "$mode" in
  demo)
    steps=4
    debian_packages
    npm_packages
    step "native build: Opus, the C++ core, libsvcpp.so and the Node addon (first run ~5 min on 2 cores)"
    native_build --target svcpp_node
    step "demo (a few seconds)"
    node --import tsx demo/quickstart.ts "${@:2}"   # npm run demo -- --verbose: with the SDK's log lines
    ;;
  test)
    steps=13
    debian_packages
    npm_packages
    step "generated layers are up to date (a second)"
    node tools/gen/index.mjs --check
    step "native build: core, libsvcpp.so, Node addon, native tests (first run ~8 min on 2 cores; ~3 after the demo)"
    native_build
    step "TypeScript build: SDK face and platform (~15 s)"
    npx tsc -p tsconfig.json
    npx tsc -p platform/tsconfig.json
    stage ctest ctest --test-dir build --output-on-failure
    step "native build with AddressSanitizer + UndefinedBehaviorSanitizer (first run ~13 min on 2 cores)"
    cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DSVCPP_SANITIZE=ON >/dev/null
    cmake --build build-asan -j2
    stage ctest-asan env ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --test-dir build-asan --output-on-failure
    step "native build with ThreadSanitizer: the voice media library and its tests only (first run ~3 min on 2 cores)"
    cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSVCPP_TSAN=ON >/dev/null
    cmake --build build-tsan -j2
    stage ctest-tsan env TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 ctest --test-dir build-tsan --output-on-failure
    stage vitest-sdk npx vitest run
    stage vitest-platform npx vitest run --root platform
    stage bench-smoke bash -c 'node --import tsx bench/sync-call.ts --smoke && node --import tsx bench/gateway.ts --smoke && node --import tsx bench/lobby-fanout.ts --smoke && node --import tsx platform/bench/gateway.ts --smoke && node --import tsx platform/bench/voice-relay.ts --smoke && build/Release/svcpp_bench_voice_media --smoke && node --import tsx bench/voice-latency.ts --smoke'
    # One closing line over every runner (ctest: "N tests failed out of M"; vitest: "Tests  N passed (M)").
    passed=0; failed=0
    for f in "$logs"/ctest*.log; do
      read -r total bad < <(sed -nE 's/.*tests passed, ([0-9]+) tests failed out of ([0-9]+).*/\2 \1/p' "$f" | tail -1)
      passed=$((passed + total - bad)); failed=$((failed + bad))
    done
    for f in "$logs"/vitest*.log; do
      plain=$(sed -E 's/\x1b\[[0-9;]*m//g' "$f")   # vitest colours its output even into a pipe
      p=$(sed -nE 's/^ *Tests +([0-9]+) passed.*/\1/p; s/^ *Tests +[0-9]+ failed \| ([0-9]+) passed.*/\1/p' <<<"$plain" | tail -1)
      q=$(sed -nE 's/^ *Tests +([0-9]+) failed.*/\1/p' <<<"$plain" | tail -1)
      passed=$((passed + ${p:-0})); failed=$((failed + ${q:-0}))
    done
    echo
    echo "svcpp: $passed passed, $failed failed"
    [ "$failed" -eq 0 ]
    ;;
  *)
    echo "usage: bash scripts/run.sh demo|test" >&2
    exit 2
    ;;
esac
