#!/usr/bin/env bash
# Builds svcpp for a cross target on this Linux machine, and its native tests: the dependencies into the per-machine
# cache (~/.cache/svcpp/<target>/), then libsvcpp and the tests into build-<target>/ (docs/platforms.md).
# Usage: build-target.sh <win32-x64|linux-arm64> [cmake --build arguments, e.g. --target svcpp]
#   then: ctest --test-dir build-<target>     (under Wine / qemu-user, through CMAKE_CROSSCOMPILING_EMULATOR)
# Environment: SVCPP_CACHE_DIR (default ~/.cache/svcpp), SVCPP_BUILD_JOBS (default 2), SVCPP_CMAKE_ARGS (more
# configure arguments, e.g. -DSVCPP_SHIPPED_LTO=OFF for a quicker link while working).
set -euo pipefail
target="${1:?usage: build-target.sh <win32-x64|linux-arm64> [cmake --build arguments]}"
shift
root=$(cd "$(dirname "$0")/.." && pwd)
cache="${SVCPP_CACHE_DIR:-$HOME/.cache/svcpp}"
prefix="$cache/$target/prefix"
build="$root/build-$target"
mkdir -p "$prefix"

case "$target" in
  win32-x64)
    # libsodium (tests only): no Windows package in Debian, so its source package, cross-built.
    bash "$root/scripts/build-sodium.sh" "$prefix" x86_64-w64-mingw32
    ;;
  linux-arm64)
    # libsodium and webrtc-audio-processing: Debian's own arm64 packages, downloaded with apt (the arm64 architecture
    # must be known to apt: `dpkg --add-architecture arm64 && apt-get update`, scripts/install-deps.sh) and unpacked
    # into the cache — never installed on this machine.
    if [ ! -f "$prefix/.debs-complete" ]; then
      debs="$cache/$target/debs"
      mkdir -p "$debs"
      ( cd "$debs" && apt-get download libsodium-dev:arm64 libsodium23:arm64 \
          libwebrtc-audio-processing-dev:arm64 libwebrtc-audio-processing1:arm64 >/dev/null 2>&1 ) || {
        echo "build-target: apt-get download of the arm64 packages failed; run: dpkg --add-architecture arm64 && apt-get update" >&2
        exit 1; }
      for deb in "$debs"/*.deb; do dpkg-deb -x "$deb" "$prefix"; done
      touch "$prefix/.debs-complete"
    fi
    # libpulse for the PulseAudio backend's suite under qemu-user (the backend dlopens it, as on x64): Debian's arm64
    # libpulse0 and the libraries it needs, less those of the cross sysroot (libc, libgcc), unpacked beside the
    # others; the toolchain's emulator line puts their directories on the guest's LD_LIBRARY_PATH.
    if [ ! -f "$prefix/.pulse-complete" ]; then
      pulse="$cache/$target/debs-pulse"
      mkdir -p "$pulse"
      mapfile -t closure < <(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks \
          --no-replaces --no-enhances --no-pre-depends libpulse0:arm64 2>/dev/null |
        grep -E '^[a-z0-9].*:arm64$' | grep -Ev '^(libc6|libgcc-s1|gcc-[0-9]+-base|libelogind0):' | sort -u)
      ( cd "$pulse" && apt-get download "${closure[@]}" >/dev/null 2>&1 ) || {
        echo "build-target: apt-get download of libpulse0:arm64 and its libraries failed" >&2; exit 1; }
      for deb in "$pulse"/*.deb; do dpkg-deb -x "$deb" "$prefix"; done
      touch "$prefix/.pulse-complete"
    fi
    ;;
  *) echo "build-target: unknown target '$target' (win32-x64, linux-arm64)" >&2; exit 2 ;;
esac

# shellcheck disable=SC2086 # SVCPP_CMAKE_ARGS is a list of arguments
nice -n 10 cmake -S "$root" -B "$build" -G Ninja -DCMAKE_TOOLCHAIN_FILE="$root/cmake/toolchains/$target.cmake" \
  -DSVCPP_CACHE_DIR="$cache" ${SVCPP_CMAKE_ARGS:-}
nice -n 10 cmake --build "$build" -j"${SVCPP_BUILD_JOBS:-2}" "$@"
