#!/usr/bin/env bash
# Builds libsodium 1.0.18 (static) for a cross target from Debian's source package (fetched with apt, never committed;
# the upstream tarball's SHA-256 is verified), for targets without a Debian binary package of it: Windows (MinGW-w64).
# Only the native tests link it (cmake/dependencies.cmake: the independent XChaCha20-Poly1305 the voice cipher is
# checked against); the shipped libraries do not.
# Usage: build-sodium.sh <prefix> <host triplet>   e.g. ~/.cache/svcpp/win32-x64/prefix x86_64-w64-mingw32
# Idempotent: <prefix>/lib/libsodium.a and <prefix>/include/sodium.h, kept once built.
set -euo pipefail
prefix="${1:?usage: build-sodium.sh <prefix> <host triplet>}"
host="${2:?usage: build-sodium.sh <prefix> <host triplet>}"
version=1.0.18 debian_revision=1+deb12u1
sha256=d59323c6b712a1519a5daf710b68f5e7fde57040845ffec53850911f10a5d4f4
[ -f "$prefix/lib/libsodium.a" ] && [ -f "$prefix/include/sodium.h" ] && exit 0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "build-sodium: downloading Debian's libsodium $version source package into $work" >&2
( cd "$work" && apt-get source --download-only "libsodium=$version-$debian_revision" >/dev/null 2>&1 ) || {
  echo "build-sodium: 'apt-get source libsodium' failed; scripts/install-deps.sh adds the deb-src entry" >&2; exit 1; }
echo "$sha256  $work/libsodium_$version.orig.tar.gz" | sha256sum -c --quiet - >&2
tar -xzf "$work/libsodium_$version.orig.tar.gz" -C "$work"
# The orig tarball is the release tag's tree, without the generated configure script: autogen.sh makes it (autoconf,
# automake and libtool, which scripts/install-deps.sh installs).
( cd "$work/libsodium-$version" && ./autogen.sh -s >&2 )
cc="${host}-gcc"
command -v "${host}-gcc-posix" >/dev/null && cc="${host}-gcc-posix"
( cd "$work/libsodium-$version" &&
  ./configure --host="$host" --prefix="$prefix" --disable-shared --enable-static --disable-dependency-tracking \
    CC="$cc" CFLAGS="-O2" >&2 &&
  make -s -j"${SVCPP_SODIUM_JOBS:-2}" >&2 && make -s install >&2 )
echo "build-sodium: $prefix/lib/libsodium.a" >&2
