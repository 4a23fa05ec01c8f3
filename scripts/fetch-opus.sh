#!/usr/bin/env bash
# Fetches the Opus 1.3.1 source from Debian's source package (never committed to this repository),
# verifies the upstream tarball's SHA-256 and unpacks it outside the repository. Idempotent.
# Usage: fetch-opus.sh <cache dir>   → prints the unpacked source directory.
# Why: Debian's libopus.a is not position-independent, so libsvcpp.so and the addon build Opus themselves.
set -euo pipefail
cache="${1:?usage: fetch-opus.sh <cache dir>}"
version=1.3.1
sha256=65b58e1e25b2a114157014736a3d9dfeaad8d41be1c8179866f144a2fb44ff9d
src="$cache/opus-$version"

if [ ! -f "$src/CMakeLists.txt" ]; then
  # Stdout is the answer to CMake; what it is doing goes to stderr.
  echo "fetch-opus: downloading Debian's opus $version source package (~1 MB, a few seconds) into $cache" >&2
  mkdir -p "$cache"
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  ( cd "$work" && apt-get source --download-only "opus=$version-3" >/dev/null 2>&1 ) || {
    echo "fetch-opus: 'apt-get source opus' failed; run scripts/install-deps.sh (it adds the deb-src entry)" >&2
    exit 1
  }
  echo "$sha256  $work/opus_$version.orig.tar.gz" | sha256sum -c --quiet - >&2
  tar -xzf "$work/opus_$version.orig.tar.gz" -C "$cache"
  # The 1.3.1 release tarball's CMakeLists.txt includes this file but does not ship it.
  : > "$src/opus_buildtype.cmake"
fi
echo "$src"
