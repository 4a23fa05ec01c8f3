#!/usr/bin/env bash
# Builds and tests one cross target end to end on this machine, printing each phase's wall time (for .ci):
#   build     the test tree build-<target>/ (scripts/build-target.sh: dependencies, the library, every test program)
#   ctest     every native suite under the target's emulator (Wine for win32-x64, qemu-user for linux-arm64)
#   prebuild  prebuilds/<target>/ from the same tree (Release with the shipped link options: the test programs are
#             only more targets of it), stripped and size-checked, smoke-loaded (tools/make-cross-prebuild.mjs)
# Usage: test-target.sh <win32-x64|linux-arm64>      Environment: SVCPP_BUILD_JOBS (default 2), as scripts/build-target.sh.
set -euo pipefail
target="${1:?usage: test-target.sh <win32-x64|linux-arm64>}"
root=$(cd "$(dirname "$0")/.." && pwd)
jobs="${SVCPP_BUILD_JOBS:-2}"
case "$target" in
  win32-x64|linux-arm64) ;;
  *) echo "test-target: unknown target '$target' (win32-x64, linux-arm64)" >&2; exit 2 ;;
esac

phase() {   # phase <name> <command...>: runs it and prints its wall time, whatever its result
  local name="$1" start=$SECONDS status=0
  shift
  echo "test-target: $target $name ..."
  "$@" || status=$?
  echo "test-target: $target $name $((SECONDS - start)) s$([ "$status" = 0 ] || echo " FAILED ($status)")"
  return "$status"
}

phase build bash "$root/scripts/build-target.sh" "$target"
phase ctest nice -n 10 ctest --test-dir "$root/build-$target" -j"$jobs" --output-on-failure --timeout 600
phase prebuild node "$root/tools/make-cross-prebuild.mjs" --target "$target" --no-build
