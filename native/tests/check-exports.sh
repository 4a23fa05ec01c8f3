#!/usr/bin/env bash
# A shared object exports exactly a committed symbol list and links no OpenSSL, libsodium or Opus dynamically
# (they are static and hidden in libsvcpp.so: no interposition with Node's or Electron's copies).
# Usage: check-exports.sh <shared object> <expected exports file> [<sibling library>]
# With a sibling (the Node addon and libsvcpp.so), the object must load that library from its own directory
# (RUNPATH $ORIGIN) and carry no copy of the core: no OpenSSL in its own symbol table.
set -euo pipefail
# Each tool's output is read whole before it is searched: under pipefail, `tool | grep -q` fails at random when grep
# exits at its first match and the tool dies of SIGPIPE on its next write.
# SVCPP_BINUTILS_PREFIX: a cross target's binutils (aarch64-linux-gnu-); its libraries' dependencies are then read
# from their DT_NEEDED entries, as the host's ldd cannot load them.
lib="$1" expected="$2" sibling="${3:-}"
tools="${SVCPP_BINUTILS_PREFIX:-}"
if [ -n "$tools" ]; then
  dependencies=$("${tools}readelf" -d "$lib" | grep NEEDED || true)
else
  dependencies=$(ldd "$lib")
fi
actual=$("${tools}nm" -D --defined-only "$lib" | awk '{print $3}' | sort)
if ! diff <(sort "$expected") <(echo "$actual"); then
  echo "exported symbols of $lib differ from $expected (< expected, > actual)" >&2
  exit 1
fi
if grep -Ei 'libssl|libcrypto|libsodium|libopus' <<<"$dependencies"; then
  echo "$lib must not depend on these at run time" >&2
  exit 1
fi
summary="exports: $(echo "$actual" | wc -l) symbols, no third-party runtime dependencies"
if [ -n "$sibling" ]; then
  name=$(basename "$sibling")
  dynamic=$("${tools}readelf" -d "$lib")
  grep -q "(RUNPATH).*\[\$ORIGIN\]" <<<"$dynamic" || { echo "$lib: RUNPATH is not \$ORIGIN" >&2; exit 1; }
  if [ -n "$tools" ]; then
    # No loader to ask for a cross target: it needs the sibling by its plain name, which RUNPATH $ORIGIN (above)
    # resolves to its own directory first.
    grep -qF "Shared library: [$name]" <<<"$dependencies" || { echo "$lib does not need $name" >&2; exit 1; }
  else
    grep -qF "$name => $(dirname "$lib")/$name " <<<"$dependencies" || { echo "$lib does not load $name from its own directory" >&2; exit 1; }
  fi
  symbols=$("${tools}nm" "$lib")
  if grep -qw SSL_CTX_new <<<"$symbols"; then
    echo "$lib links a copy of the core (OpenSSL inside); it must call $name instead" >&2
    exit 1
  fi
  summary="$summary; loads $name from its own directory"
fi
echo "$summary"
