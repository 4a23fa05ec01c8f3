#!/usr/bin/env bash
# Builds and tests one cross target end to end on this machine, printing each phase's wall time (for .ci):
#   build     the test tree build-<target>/ (scripts/build-target.sh: dependencies, the library, every test program)
#   ctest     every native suite under the target's emulator (Wine for win32-x64)
#   release   the shipped build in build-<target>-release/ (Release, the shipped LTO, no tests)
#   prebuild  prebuilds/<target>/ from it, stripped and size-checked, smoke-loaded (tools/make-cross-prebuild.mjs)
# Usage: test-target.sh <win32-x64>      Environment: SVCPP_BUILD_JOBS (default 2), as scripts/build-target.sh.
set -euo pipefail
target="${1:?usage: test-target.sh <win32-x64>}"
root=$(cd "$(dirname "$0")/.." && pwd)
jobs="${SVCPP_BUILD_JOBS:-2}"
case "$target" in
  win32-x64) ;;
  *) echo "test-target: unknown target '$target' (win32-x64)" >&2; exit 2 ;;
esac

phase() {   # phase <name> <command...>: runs it and prints its wall time, whatever its result
  local name="$1" start=$SECONDS status=0
  shift
  echo "test-target: $target $name ..."
  "$@" || status=$?
  echo "test-target: $target $name $((SECONDS - start)) s$([ "$status" = 0 ] || echo " FAILED ($status)")"
  return "$status"
}

release="$root/build-$target-release"
configure_release() {
  nice -n 10 cmake -S "$root" -B "$release" -G Ninja -DCMAKE_TOOLCHAIN_FILE="$root/cmake/toolchains/$target.cmake" \
    -DSVCPP_CACHE_DIR="${SVCPP_CACHE_DIR:-$HOME/.cache/svcpp}" -DCMAKE_BUILD_TYPE=Release -DSVCPP_BUILD_TESTS=OFF >/dev/null &&
  nice -n 10 cmake --build "$release" -j"$jobs" --target svcpp svcpp_node
}

phase build bash "$root/scripts/build-target.sh" "$target"
phase ctest nice -n 10 ctest --test-dir "$root/build-$target" -j"$jobs" --output-on-failure --timeout 600
phase release configure_release
phase prebuild node "$root/tools/make-cross-prebuild.mjs" --target "$target" --build "$release"
