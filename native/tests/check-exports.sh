#!/usr/bin/env bash
# libsvcpp.so exports exactly the committed Svcpp_* symbol list and links no OpenSSL, libsodium or Opus
# dynamically (they are static and hidden: no interposition with Node's or Electron's copies).
set -euo pipefail
lib="$1" expected="$2"
actual=$(nm -D --defined-only "$lib" | awk '{print $3}' | sort)
if ! diff <(sort "$expected") <(echo "$actual"); then
  echo "exported symbols of $lib differ from $expected (< expected, > actual)" >&2
  exit 1
fi
if ldd "$lib" | grep -Ei 'libssl|libcrypto|libsodium|libopus'; then
  echo "$lib must not depend on these at run time" >&2
  exit 1
fi
echo "exports: $(echo "$actual" | wc -l) Svcpp_* symbols, no third-party runtime dependencies"
