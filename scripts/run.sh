#!/usr/bin/env bash
# The README's two commands:
#   bash scripts/run.sh demo   set up, build, run the SDK against the embedded platform
#   bash scripts/run.sh test   set up, build, run every test (native, sanitizers, SDK, platform, bench smoke)
# Set-up is idempotent: Debian packages, npm packages and the native build are only redone when needed.
set -euo pipefail
cd "$(dirname "$0")/.."
mode="${1:-}"
logs=$(mktemp -d)
step() { printf '\n==> %s\n' "$*"; }

setup() {
  step "Debian packages"
  bash scripts/install-deps.sh
  step "npm packages"
  if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    npm ci --no-audit --no-fund
  fi
  step "generated layers are up to date"
  node tools/gen/index.mjs --check
  step "native build (core, libsvcpp.so, Node addon, native tests)"
  npx cmake-js compile --parallel 2 --out build
  step "TypeScript build (SDK face and platform)"
  npx tsc -p tsconfig.json
  npx tsc -p platform/tsconfig.json
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
    setup
    step "demo"
    node --import tsx demo/quickstart.ts
    ;;
  test)
    setup
    stage ctest ctest --test-dir build --output-on-failure
    step "native build with AddressSanitizer + UndefinedBehaviorSanitizer"
    cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DSVCPP_SANITIZE=ON >/dev/null
    cmake --build build-asan -j2
    stage ctest-asan env ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --test-dir build-asan --output-on-failure
    stage vitest-sdk npx vitest run
    stage vitest-platform npx vitest run --root platform
    stage bench-smoke bash -c 'node --import tsx bench/sync-call.ts --smoke && node --import tsx bench/gateway.ts --smoke && node --import tsx bench/lobby-fanout.ts --smoke && node --import tsx platform/bench/gateway.ts --smoke'
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
