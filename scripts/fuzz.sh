#!/usr/bin/env bash
# Builds the libFuzzer targets (native/fuzz, clang, build-fuzz/) and runs each one for a while.
#   npm run fuzz -- --minutes N    each target N minutes (the long run)
#   bash scripts/fuzz.sh --seconds N    each target N seconds (CI: scripts/run.sh's fuzz stage)
#   ... --only <target>            just that target
# A target's committed seeds (native/fuzz/corpus/<target>/) are read, never written: what libFuzzer learns goes to
# build-fuzz/corpus/<target>/ and survives between runs. A crash stops the run with the input saved under
# build-fuzz/crashes/<target>/; replay it with `build-fuzz/native/fuzz/<target> <file>`, fix the bug, and commit the
# input into the target's corpus folder: ctest (fuzz.<target>.corpus) replays it from then on.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=60 only=""
while [ $# -gt 0 ]; do
  case "$1" in
    --minutes) seconds=$(($2 * 60)); shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    *) echo "usage: scripts/fuzz.sh [--minutes N | --seconds N] [--only <target>]" >&2; exit 2 ;;
  esac
done

if ! command -v clang++ >/dev/null; then
  echo "fuzz: clang++ is missing (bash scripts/install-deps.sh installs it)" >&2; exit 1
fi
if [ ! -f build-fuzz/CMakeCache.txt ]; then
  CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSVCPP_FUZZ=ON >/dev/null
fi
echo "fuzz: building the targets (build-fuzz/)"
if ! cmake --build build-fuzz -j2 >build-fuzz/build.log 2>&1; then
  tail -30 build-fuzz/build.log >&2; echo "fuzz: build failed (build-fuzz/build.log)" >&2; exit 1
fi

targets=$(cd native/fuzz && ls fuzz_*.cpp | sed 's/\.cpp$//')
[ -z "$only" ] || targets=$only
count=$(echo "$targets" | wc -w) i=0
printf 'fuzz: %d targets, %d s each (~%d min in all)\n' "$count" "$seconds" $(((count * seconds + 59) / 60))
summary=()
for target in $targets; do
  i=$((i + 1))
  work=build-fuzz/corpus/$target crashes=build-fuzz/crashes/$target
  mkdir -p "$work" "$crashes"
  printf '==> [%d/%d] %s for %d s\n' "$i" "$count" "$target" "$seconds"
  log=build-fuzz/$target.log
  # -rss_limit_mb catches a parser that allocates what a header claims; -timeout one input that hangs (a liveness
  # guard, not a timing assertion). The CPU time (user + system) is what the target got: on a loaded machine less
  # than the wall time.
  status=0
  TIMEFORMAT='%U %S'
  { time "build-fuzz/native/fuzz/$target" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=20 \
    -print_final_stats=1 -artifact_prefix="$crashes/" "$work" "native/fuzz/corpus/$target" >"$log" 2>&1 || status=$?; } 2>"$log.cpu"
  cputimes=$(tail -1 "$log.cpu")
  runs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+).*/\1/p' "$log" | tail -1)
  cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -1 || true)
  cpu=$(echo "$cputimes" | awk '{ printf "%.0f CPU-s = %.1f", $1 + $2, ($1 + $2) / 60 }')
  if [ "$status" -ne 0 ]; then
    echo "    FOUND A PROBLEM (exit $status): input in $crashes/, log in $log:"
    grep -E 'ERROR|SUMMARY|Test unit written' "$log" | head -5 | sed 's/^/    /'
    summary+=("$target: FAILED after ${cpu} min")
  else
    echo "    ${runs:-?} inputs, ${cov:-cov ?}, ${cpu} CPU-min, no crash"
    summary+=("$target: ${runs:-?} inputs, ${cpu} CPU-min, clean")
  fi
done
echo "fuzz: summary"
printf '    %s\n' "${summary[@]}"
for s in "${summary[@]}"; do [[ $s != *FAILED* ]] || exit 1; done
