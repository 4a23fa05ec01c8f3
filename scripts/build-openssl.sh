#!/usr/bin/env bash
# Builds the static OpenSSL that the shipped libsvcpp.so links: OpenSSL 3.0 from Debian's source package (fetched
# with apt, never committed to this repository; the upstream tarball's SHA-256 is verified), configured without every
# algorithm and protocol svcpp does not use and compiled for size. Debian's libssl-dev archive carries all of them, and
# OpenSSL 3's default provider is a table of every algorithm it was built with, so linking any EVP fetch pulled them
# all into the library (docs/binary-size.md, "OpenSSL built for svcpp").
#
# Usage: build-openssl.sh <cache dir> [target]   → prints the directory of the result (include/, lib/libcrypto.a,
# lib/libssl.a). target: linux-x64 (the default: the host's cc), win32-x64 (MinGW-w64, OpenSSL's `mingw64`) or
# linux-arm64 (Debian's aarch64 cross compiler, OpenSSL's `linux-aarch64`); a cross target's result is kept under
# <cache dir>/<target>/ (docs/platforms.md).
# Idempotent and shared: the result is kept under <cache dir>/openssl-<version>/<configuration hash>/ and reused by
# every build directory (and CI run) whose configuration is the same; a change to the options below is a new
# directory. Parallel configures of several build trees wait for each other (flock). The compile runs under ccache
# when it is installed.
#   SVCPP_OPENSSL_JOBS   parallel compile jobs (default 2)
set -euo pipefail
cache="${1:?usage: build-openssl.sh <cache dir> [target]}"
target="${2:-linux-x64}"
# The compiler and OpenSSL's name of each target. A cross target lives in a directory of its own, so no build of one
# target ever picks another's archives.
case "$target" in
  linux-x64)   cc_bin=cc; ar_bin=ar; ranlib_bin=ranlib; openssl_target=() ;;
  win32-x64)   cc_bin=x86_64-w64-mingw32-gcc-posix; ar_bin=x86_64-w64-mingw32-ar; ranlib_bin=x86_64-w64-mingw32-ranlib
               openssl_target=(mingw64); cache="$cache/$target" ;;
  linux-arm64) cc_bin=aarch64-linux-gnu-gcc; ar_bin=aarch64-linux-gnu-ar; ranlib_bin=aarch64-linux-gnu-ranlib
               openssl_target=(linux-aarch64); cache="$cache/$target" ;;
  *) echo "build-openssl: unknown target '$target' (linux-x64, win32-x64, linux-arm64)" >&2; exit 2 ;;
esac
version=3.0.20
debian_revision=1~deb12u2
sha256=c80a01dfc70ece4dc21168932c37739042d404d46ccc81a5986dd75314ecda6f

# What svcpp uses, and so what stays: TLS 1.2/1.3 (client in the core; the tests' loopback server), their cipher
# suites (AES-GCM, ChaCha20-Poly1305) and key exchanges (X25519, P-256/P-384 ECDHE; finite-field DH stays because
# Asio's ssl::context references it), RSA and ECDSA for certificate verification, X.509 with the system store, SHA-1/2
# (certificates), HMAC/HKDF (TLS, MLS), scrypt (the DAVE verification fingerprint), P-256 ECDH/ECDSA (MLS), AES-GCM
# (voice transport, DAVE frames), random bytes, PEM (CA files). Everything else goes: legacy ciphers and hashes,
# national algorithms, binary-field curves, DTLS/SRTP/SCTP, TLS 1.0/1.1 (Debian's openssl.cnf already sets
# MinProtocol TLSv1.2), CMS/TS/OCSP/CT/CMP/SRP, engines and loadable modules, the error records' file names.
options=(
  no-shared no-module no-dso no-engine no-legacy no-tests
  no-aria no-bf no-blake2 no-camellia no-cast no-cmac no-des no-idea no-md4 no-mdc2 no-ocb no-rc2 no-rc4 no-rmd160
  no-seed no-siphash no-siv no-sm2 no-sm3 no-sm4 no-whirlpool no-gost no-dsa no-ec2m
  no-dgram no-dtls no-srtp no-sctp no-tls1 no-tls1_1 no-tls1-method no-tls1_1-method no-ssl3 no-nextprotoneg no-ssl-trace
  no-cms no-ts no-ocsp no-ct no-cmp no-srp no-rfc3779 no-comp no-ui-console no-async no-filenames
  no-afalgeng no-padlockeng no-devcryptoeng no-capieng no-loadereng
  # TLS 1.2's "multi-block" writes (four AES-CBC-HMAC records encrypted at once with the multi-buffer SHA-1/SHA-256
  # assembly, ~60 KiB) are a throughput optimisation for large writes over CBC cipher suites: the records on the wire
  # are the same without it, and svcpp's writes are small messages over AES-GCM or ChaCha20-Poly1305 anyway.
  no-multiblock
  # Debian's OPENSSLDIR: the system CA store (set_default_verify_paths) and openssl.cnf are found where Debian's own
  # build finds them, so verification and the system-wide TLS settings do not change.
  --openssldir=/usr/lib/ssl
)
# Size: -Os (the CPU-bound primitives — AES-NI, GHASH, ChaCha20, Poly1305, SHA, P-256 — are OpenSSL's assembly, kept),
# a section per function and datum for the linker's --gc-sections, position-independent for a shared library, and no
# unwind tables: no C++ exception ever unwinds through OpenSSL (svcpp gives it no callback; cmake/binary-size.cmake).
cflags="-Os -ffunction-sections -fdata-sections -fPIC -fno-asynchronous-unwind-tables -fno-unwind-tables -Wa,--noexecstack"
# PE/COFF has neither position-dependent code to avoid nor an executable-stack note: a DLL is relocated as a whole.
[ "$target" = win32-x64 ] && cflags="-Os -ffunction-sections -fdata-sections"

# The configuration names the result, so a changed option is a new build, never a stale one.
key=$(printf '%s\n' "$version" "${options[*]}" "$cflags" "$("$cc_bin" -dumpfullversion 2>/dev/null || true)" \
  "${openssl_target[@]}" | sha256sum | cut -c1-12)
prefix="$cache/openssl-$version/$key"
if [ -f "$prefix/.complete" ]; then
  echo "$prefix"
  exit 0
fi

mkdir -p "$cache"
exec 9>"$cache/openssl.lock"
flock 9
if [ -f "$prefix/.complete" ]; then   # another configure built it while this one waited
  echo "$prefix"
  exit 0
fi

# Stdout is the answer to CMake; what it is doing goes to stderr.
work=$(mktemp -d "$cache/openssl-build.XXXXXX")
trap 'rm -rf "$work"' EXIT
echo "build-openssl: downloading Debian's openssl $version source package (~15 MB) into $work" >&2
( cd "$work" && apt-get source --download-only "openssl=$version-$debian_revision" >/dev/null 2>&1 ) || {
  echo "build-openssl: 'apt-get source openssl=$version-$debian_revision' failed. Either the deb-src entry is missing" >&2
  echo "  (scripts/install-deps.sh adds it) or Debian has replaced that version with a newer security update: then" >&2
  echo "  set version, debian_revision and sha256 in this script to what 'apt-cache showsrc openssl' lists." >&2
  echo "  Configure with -DSVCPP_OPENSSL_FROM_SOURCE=OFF to link Debian's libssl-dev instead (a larger library)." >&2
  exit 1
}
echo "$sha256  $work/openssl_$version.orig.tar.gz" | sha256sum -c --quiet - >&2
tar -xzf "$work/openssl_$version.orig.tar.gz" -C "$work"
src="$work/openssl-$version"

compiler=$cc_bin
command -v ccache >/dev/null && compiler="ccache $cc_bin"
echo "build-openssl: configuring and compiling libcrypto and libssl (a few minutes on 2 cores; once per cache)" >&2
(
  cd "$src"
  CC="$compiler" AR="$ar_bin" RANLIB="$ranlib_bin" CFLAGS="$cflags" ./Configure "${openssl_target[@]}" "${options[@]}" >&2 &&
    make -s -j"${SVCPP_OPENSSL_JOBS:-2}" build_libs >&2
) || { echo "build-openssl: the OpenSSL build failed (output above)" >&2; exit 1; }
# Only what svcpp links: the two archives and the headers (those of the source and those Configure generated, all in
# include/ of an in-tree build), and the licence.
rm -rf "$prefix"
mkdir -p "$prefix/lib" "$prefix/include"
cp "$src/libcrypto.a" "$src/libssl.a" "$prefix/lib/"
mkdir -p "$prefix/include/openssl" && cp "$src"/include/openssl/*.h "$prefix/include/openssl/"
cp "$src/LICENSE.txt" "$prefix/"
touch "$prefix/.complete"
echo "$prefix"
