#!/usr/bin/env bash
# The glibc floor of a Linux cross target's shipped libraries (cmake/glibc-floor.cmake): no symbol version newer than
# GLIBC_2.28 in the dynamic symbol table, as test/glibc-floor.test.ts checks the x64 ones.
# Usage: check-glibc-floor.sh <objdump of the target> <shared object>...
set -euo pipefail
objdump="$1"; shift
status=0
for lib in "$@"; do
  versions=$("$objdump" -T "$lib" | grep -oE 'GLIBC_[0-9]+\.[0-9]+(\.[0-9]+)?' | sort -uV)
  newest=$(tail -n1 <<<"$versions")
  above=$(awk -F'[_.]' '$2 > 2 || ($2 == 2 && $3 > 28)' <<<"$versions")
  if [ -n "$above" ]; then
    echo "$lib needs glibc versions above the 2.28 floor: $(echo $above)" >&2
    status=1
  else
    echo "$(basename "$lib"): newest glibc version $newest (floor 2.28)"
  fi
done
exit "$status"
