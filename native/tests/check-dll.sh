#!/usr/bin/env bash
# svcpp.dll (Windows, MinGW-w64) exports exactly a committed symbol list — what `nm -D` checks on Linux
# (check-exports.sh) — and imports only Windows' own DLLs: libstdc++, libgcc and winpthread are linked into it
# (native/capi/CMakeLists.txt), so a game ships the one file.
# Usage: check-dll.sh <dll> <expected exports file> [more allowed imports]   (SVCPP_OBJDUMP: default x86_64-w64-mingw32-objdump)
#   more allowed imports: the addon (svcpp.node) imports svcpp.dll too: "svcpp.dll"
set -euo pipefail
dll="$1" expected="$2"
more_allowed=$(sed 's/\./\\./g; s/ \+/|/g' <<<"${3:-}")
objdump="${SVCPP_OBJDUMP:-x86_64-w64-mingw32-objdump}"
headers=$("$objdump" -p "$dll")
# The export table's names: the lines after "[Ordinal/Name Pointer] Table" of the .edata dump, "[   n] Name".
actual=$(awk '/\[Ordinal\/Name Pointer\] Table/{on=1; next} on && /^[ \t]*\[ *[0-9]+\]/{print $NF; next} on && NF==0{on=0}' <<<"$headers" | sort)
if ! diff <(sort "$expected") <(echo "$actual"); then
  echo "exported symbols of $dll differ from $expected (< expected, > actual)" >&2
  exit 1
fi
# Every DLL it imports from must be part of Windows: the kernel, C runtime (msvcrt), Winsock, crypto, shell, MMCSS.
imports=$(awk '/DLL Name:/{print $3}' <<<"$headers" | sort -u)
allowed='^(kernel32|msvcrt|ws2_32|mswsock|crypt32|avrt|shell32|bcrypt|user32|advapi32|ole32|oleaut32|shlwapi|ntdll|api-ms-win-.*)\.dll$'
[ -z "$more_allowed" ] || allowed="$allowed|^($more_allowed)\$"
unexpected=$(grep -viE "$allowed" <<<"$imports" || true)
if [ -n "$unexpected" ]; then
  echo "$dll imports DLLs that are not part of Windows:" >&2
  echo "$unexpected" >&2
  exit 1
fi
echo "exports: $(echo "$actual" | wc -l) symbols; imports only Windows DLLs: $(echo $imports)"
