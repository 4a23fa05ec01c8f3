#!/usr/bin/env bash
# Builds the libFuzzer targets (native/fuzz, clang, build-fuzz/) and runs each one for a while.
#   npm run fuzz -- --minutes N    each target N minutes (the long run)
#   bash scripts/fuzz.sh --seconds N    each target N seconds (CI: scripts/run.sh's fuzz stage)
#   ... --only <target>            just that target
#   ... --jobs N                   N targets at a time (default: one per core; each fuzzer is one process on one core)
# A target's committed seeds (native/fuzz/corpus/<target>/) are read, never written: what libFuzzer learns goes to
# build-fuzz/corpus/<target>/ and survives between runs. A crash stops the run with the input saved under
# build-fuzz/crashes/<target>/; replay it with `build-fuzz/native/fuzz/<target> <file>`, fix the bug, and commit the
# input into the target's corpus folder: ctest (fuzz.<target>.corpus) replays it from then on.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=60 only="" jobs=$(nproc)
while [ $# -gt 0 ]; do
  case "$1" in
    --minutes) seconds=$(($2 * 60)); shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    *) echo "usage: scripts/fuzz.sh [--minutes N | --seconds N] [--only <target>] [--jobs N]" >&2; exit 2 ;;
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
count=$(echo "$targets" | wc -w)
[ "$jobs" -ge 1 ] || jobs=1
printf 'fuzz: %d targets, %d s each, %d at a time (~%d min in all)\n' "$count" "$seconds" "$jobs" \
  $(((count + jobs - 1) / jobs * seconds / 60 + 1))

# Fuzzes one target; prints its report (what it found, or its inputs, coverage and CPU time) and ends with a line
# "RESULT <summary>" for the summary below.
fuzz_target() {
  local target=$1 work=build-fuzz/corpus/$1 crashes=build-fuzz/crashes/$1 log=build-fuzz/$1.log status=0
  mkdir -p "$work" "$crashes"
  # -rss_limit_mb catches a parser that allocates what a header claims; -timeout one input that hangs (a liveness
  # guard, not a timing assertion). The CPU time (user + system) is what the target got: on a loaded machine less
  # than the wall time.
  local TIMEFORMAT='%U %S'
  { time "build-fuzz/native/fuzz/$target" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=20 \
    -print_final_stats=1 -artifact_prefix="$crashes/" "$work" "native/fuzz/corpus/$target" >"$log" 2>&1 || status=$?; } 2>"$log.cpu"
  local runs cov cpu
  runs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+).*/\1/p' "$log" | tail -1)
  cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -1 || true)
  cpu=$(tail -1 "$log.cpu" | awk '{ printf "%.0f CPU-s = %.1f", $1 + $2, ($1 + $2) / 60 }')
  if [ "$status" -ne 0 ]; then
    echo "    FOUND A PROBLEM (exit $status): input in $crashes/, log in $log:"
    grep -E 'ERROR|SUMMARY|Test unit written' "$log" | head -5 | sed 's/^/    /' || true
    echo "RESULT $target: FAILED after ${cpu} min"
  else
    echo "    ${runs:-?} inputs, ${cov:-cov ?}, ${cpu} CPU-min, no crash"
    echo "RESULT $target: ${runs:-?} inputs, ${cpu} CPU-min, clean"
  fi
}

# The targets run `jobs` at a time, each into a report of its own; the reports print in the targets' order.
reports=$(mktemp -d)
trap 'rm -rf "$reports"' EXIT
i=0
for target in $targets; do
  i=$((i + 1))
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
  printf '==> [%d/%d] %s for %d s\n' "$i" "$count" "$target" "$seconds"
  fuzz_target "$target" >"$reports/$i" 2>&1 &
done
wait
summary=()
i=0
for target in $targets; do
  i=$((i + 1))
  printf '%s:\n' "$target"
  grep -v '^RESULT ' "$reports/$i" || true
  line=$(sed -n 's/^RESULT //p' "$reports/$i")
  summary+=("${line:-$target: FAILED (no report)}")
done
echo "fuzz: summary"
printf '    %s\n' "${summary[@]}"
for s in "${summary[@]}"; do [[ $s != *FAILED* ]] || exit 1; done
