#!/usr/bin/env bash
# The README's two commands:
#   bash scripts/run.sh demo [--verbose]   set up and build what the demo needs, run the SDK against the platform
#   bash scripts/run.sh test   set up, build everything, run every check and test (formatting and lint, native,
#                              clang-tidy, ASan/UBSan, TSan, fuzz corpora and a short fuzz run, SDK, platform,
#                              bench smoke)
# Set-up is idempotent: Debian packages, npm packages and the native build are only redone when needed. Every step
# announces itself with its share of a first run on a 2-core machine, so a newcomer knows what the wait is for.
set -euo pipefail
cd "$(dirname "$0")/.."
mode="${1:-}"
logs=$(mktemp -d)
steps=0 current=0 step_started=$SECONDS
# A step's heading says what it does, which step of how many it is, and how long the previous one took.
step() {
  [ "$current" -eq 0 ] || printf '    (step %d took %s)\n' "$current" "$(duration $((SECONDS - step_started)))"
  current=$((current + 1)) step_started=$SECONDS
  printf '\n==> [%d/%d] %s\n' "$current" "$steps" "$*"
}
duration() { if [ "$1" -ge 60 ]; then printf '%d min %02d s' $(($1 / 60)) $(($1 % 60)); else printf '%d s' "$1"; fi; }
finish() { step_done=1; [ "$current" -eq 0 ] || printf '    (step %d took %s; all %d steps: %s)\n' "$current" "$(duration $((SECONDS - step_started)))" "$steps" "$(duration "$SECONDS")"; }

# A ticker for a stage that can run for minutes without printing (a vitest file that compiles): every 60 s it says
# the stage is still at work. heartbeat_stop ends it.
heartbeat_start() { ( t=0; while sleep 1; do t=$((t + 1)); [ $((t % 60)) -ne 0 ] || printf '    ... %s: still running (%s)\n' "$1" "$(duration "$t")"; done ) & ticker=$!; }
heartbeat_stop() { kill "$ticker" 2>/dev/null; wait "$ticker" 2>/dev/null || true; }

# Ninja prints one "[n/N] ..." line per build step: hundreds on a first build. Instead: one line per 5 % with the
# elapsed time, a line every 30 s while one long step compiles, and every other line as it comes (warnings, errors,
# CMake's messages). Reads stdin; the build's exit status is the pipeline's (pipefail).
build_progress() {
  local start=$SECONDS last=-1 line="" partial="" pct n total done_n=0 all_n=0
  while :; do
    if IFS= read -r -t 30 line; then
      line="$partial$line" partial=""
      if [[ $line =~ ^\[([0-9]+)/([0-9]+)\]\  ]]; then
        n=${BASH_REMATCH[1]} total=${BASH_REMATCH[2]} done_n=$n all_n=$total
        pct=$((n * 100 / total / 5 * 5))
        if [ "$pct" -gt "$last" ]; then
          last=$pct
          printf '    %3d%%  %d/%d build steps, %s\n' "$pct" "$n" "$total" "$(duration $((SECONDS - start)))"
        fi
      else
        printf '%s\n' "$line"
      fi
    elif [ $? -gt 128 ]; then
      partial+="$line"   # a timeout keeps what it read of an unfinished line
      printf '    ...   %d/%d build steps, %s (a long compile)\n' "$done_n" "$all_n" "$(duration $((SECONDS - start)))"
    else
      [ -z "$partial$line" ] || printf '%s\n' "$partial$line"
      break
    fi
  done
}

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
  step "Debian packages: compilers, CMake, Boost, OpenSSL, Opus headers (first run: a minute or two)"
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

# cmake-js configures only when build/ has no CMake cache, then builds; build_progress turns ninja's [n/N] lines
# into percentages. CMAKE_MESSAGE_LOG_LEVEL=NOTICE keeps the first configure to warnings and svcpp's own notices.
# The demo builds only the addon and what it links (libsvcpp.so, the core, Opus); the tests build the rest into the
# same tree, so neither recompiles the other's objects.
native_build() {
  node tools/cmake-tree.mjs build   # a build/ copied with a moved or copied checkout is the original's: start afresh
  npx cmake-js compile --log-level warn --parallel 2 --out build --CDCMAKE_MESSAGE_LOG_LEVEL=NOTICE "$@" 2>&1 | build_progress
}

# Runs a test stage, keeps its output for the summary, fails the run when the stage fails. A stage that hangs (a
# deadlocked process: no test timeout can fire) is killed after SVCPP_STAGE_TIMEOUT seconds (every stage takes a
# few minutes at most) so the run fails in minutes, naming the stage, instead of running into CI's limit.
stage() {
  local name="$1"; shift
  local limit="${SVCPP_STAGE_TIMEOUT:-900}" status=0
  step "$name"
  heartbeat_start "$name"
  timeout --kill-after=10 "$limit" "$@" 2>&1 | tee "$logs/$name.log" || status=$?
  heartbeat_stop
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
    finish
    ;;
  test)
    steps=24
    debian_packages
    npm_packages
    step "generated layers are up to date (a second)"
    node tools/gen/index.mjs --check
    # Every check runs and reports before the run fails, so one run lists every finding.
    step "formatting and lint: clang-format over the C and C++, prettier --check and ESLint over the TypeScript and JavaScript (~1 min)"
    style=0
    bash tools/format/clang-format.sh --check || style=1
    npm run --silent format:check || style=1
    npm run --silent lint || style=1
    [ "$style" -eq 0 ] || { echo "svcpp: fix the findings above (bash tools/format/clang-format.sh and npm run format rewrite the layout)" >&2; exit 1; }
    step "native build: core, libsvcpp.so, Node addon, native tests (first run ~7 min on 2 cores, OpenSSL and Opus included; ~3 after the demo)"
    native_build
    # After the build: clang-tidy reads the compile commands it wrote (build/compile_commands.json). The C ABI and
    # the addon only: the core's ~150 units take ~9 min of two cores (tools/format/clang-tidy.sh says more).
    step "C++ lint: clang-tidy's cheap checks over the C ABI and the Node addon (~1 min)"
    bash tools/format/clang-tidy.sh native/capi bindings/napi/src
    step "TypeScript type check: SDK face and platform (~15 s)"
    npx tsc -p tsconfig.json
    npx tsc -p platform/tsconfig.json
    stage ctest ctest --test-dir build --parallel "$(nproc)" --output-on-failure
    step "native build with AddressSanitizer + UndefinedBehaviorSanitizer (first run ~7 min on 2 cores)"
    node tools/cmake-tree.mjs build-asan
    cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DSVCPP_SANITIZE=ON >/dev/null
    cmake --build build-asan -j2 2>&1 | build_progress
    stage ctest-asan env ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --test-dir build-asan --parallel "$(nproc)" --output-on-failure
    step "native build with ThreadSanitizer: every native suite — core I/O thread, gateway, C ABI, svcpp.hpp, voice (first run ~6 min on 2 idle cores: the whole core under -fsanitize=thread; ccache makes later runs short)"
    node tools/cmake-tree.mjs build-tsan
    cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSVCPP_TSAN=ON >/dev/null
    cmake --build build-tsan -j2 2>&1 | build_progress
    stage ctest-tsan env TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 ctest --test-dir build-tsan --parallel "$(nproc)" --output-on-failure
    step "libFuzzer targets with clang + ASan/UBSan (build-fuzz; first run ~10 min on 2 busy cores: clang compiles the parsers and their libraries)"
    node tools/cmake-tree.mjs build-fuzz
    [ -f build-fuzz/CMakeCache.txt ] || CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSVCPP_FUZZ=ON >/dev/null
    cmake --build build-fuzz -j2 2>&1 | build_progress
    # ctest replays every committed seed and past crash input once (fuzz.<target>.corpus); then each target fuzzes
    # for a short while (npm run fuzz -- --minutes N is the long run).
    stage ctest-fuzz ctest --test-dir build-fuzz --parallel "$(nproc)" --output-on-failure
    stage fuzz-short bash scripts/fuzz.sh --seconds "${SVCPP_FUZZ_SECONDS:-20}"
    # The cross targets (docs/platforms.md): each one's dependencies into the per-machine cache ~/.cache/svcpp/<target>
    # (OpenSSL cross-built from Debian's source package; Debian's arm64 packages unpacked), then libsvcpp, the addon and
    # the native tests into build-<target>/; their tests run under Wine and qemu-user, as the SDK scenario below does.
    step "cross targets: Windows x64 (MinGW-w64) and Linux arm64 — libsvcpp, the Node addon, the native tests (first run ~26 min on 2 cores for both, OpenSSL included; ccache makes later runs a few minutes)"
    bash scripts/build-target.sh win32-x64 2>&1 | build_progress
    bash scripts/build-target.sh linux-arm64 2>&1 | build_progress
    stage ctest-win32-x64 ctest --test-dir build-win32-x64 --parallel "$(nproc)" --output-on-failure
    stage ctest-linux-arm64 ctest --test-dir build-linux-arm64 --parallel "$(nproc)" --output-on-failure
    stage vitest-sdk npx vitest run --exclude test/pack-from-source.test.ts --exclude 'test/targets/**'
    # The SDK as Windows and arm64 users have it: the packed package run by node.exe under Wine and arm64 Node under
    # qemu-user, against the platform here; one file at a time, as the emulated voice calls keep real time.
    stage vitest-targets npx vitest run test/targets --no-file-parallelism
    # The from-source fallback test compiles the whole core once more (binding.gyp): a stage of its own, so its
    # minutes show up under their own name (its heartbeat says it is still at work), with a longer limit: ~30 min
    # were measured on a heavily loaded 2-core machine, where ccache had no objects for it yet.
    SVCPP_STAGE_TIMEOUT="${SVCPP_STAGE_TIMEOUT:-1800}" stage vitest-from-source npx vitest run test/pack-from-source.test.ts
    stage vitest-platform npx vitest run --root platform
    # The same platform suite on PostgreSQL: a temporary cluster from Debian's postgresql (initdb + pg_ctl on a private
    # socket directory), one database per test platform (platform/test/support/postgres-cluster.ts).
    stage vitest-platform-pg env SVCPP_TEST_DB=postgres npx vitest run --root platform
    stage bench-smoke bash scripts/bench-smoke.sh
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
    finish
    echo
    echo "svcpp: $passed passed, $failed failed"
    [ "$failed" -eq 0 ]
    ;;
  *)
    echo "usage: bash scripts/run.sh demo|test" >&2
    exit 2
    ;;
esac
