#!/usr/bin/env bash
# Builds libsvcpp.so (the C ABI over the C++ core) with CMake and copies it into the directory given as $1. It is
# binding.gyp's action: node-gyp compiles the Node addon itself, but the core's build (Opus fetched and built, static
# OpenSSL hidden, the glibc floor) is CMake's, and lives in one place: CMakeLists.txt.
#   SVCPP_CMAKE_BUILD_DIR  an existing or new CMake build directory (default: <package>/build/libsvcpp, under the
#                          build/ directory node-gyp owns). An already configured one (e.g. the cmake-js tree of a
#                          source checkout) is only built, not reconfigured.
#   CMAKE_BUILD_PARALLEL_LEVEL  parallel jobs (read by cmake --build itself).
#   SVCPP_OPENSSL_FROM_SOURCE  ON to link the size-trimmed OpenSSL the prebuilt binaries ship (scripts/build-openssl.sh
#                          needs Debian's deb-src entry and the network); default OFF: a user's machine builds against
#                          its libssl-dev, a larger library but no source package to fetch (docs/binary-size.md).
#   SVCPP_SHIPPED_LTO      ON for the link-time optimisation the prebuilt binaries get; default OFF: a machine
#                          building from source wants the package installed soon more than 0.4 MB off the library,
#                          and LTO's "fat" compiles and its link lengthen a first build (docs/binary-size.md).
set -euo pipefail
out="$1"
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="${SVCPP_CMAKE_BUILD_DIR:-$root/build/libsvcpp}"
for tool in cmake c++; do
  command -v "$tool" >/dev/null || { echo "svcpp: building from source needs $tool (and the libraries scripts/install-deps.sh installs)" >&2; exit 1; }
done
if [ ! -f "$dir/CMakeCache.txt" ]; then
  generator=()
  command -v ninja >/dev/null && generator=(-G Ninja)
  echo "svcpp: configuring libsvcpp in $dir"
  cmake -S "$root" -B "$dir" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DSVCPP_BUILD_TESTS=OFF \
    -DSVCPP_OPENSSL_FROM_SOURCE="${SVCPP_OPENSSL_FROM_SOURCE:-OFF}" -DSVCPP_SHIPPED_LTO="${SVCPP_SHIPPED_LTO:-OFF}" \
    -DCMAKE_MESSAGE_LOG_LEVEL=NOTICE
fi
echo "svcpp: building libsvcpp (the C++ core: several minutes on 2 cores the first time)"
cmake --build "$dir" --target svcpp
mkdir -p "$out"
cp "$dir/Release/libsvcpp.so" "$out/libsvcpp.so"
