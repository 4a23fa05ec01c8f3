#!/usr/bin/env bash
# The C and C++ sources in the repository's style (.clang-format), Debian's clang-format-16.
#   bash tools/format/clang-format.sh           rewrite every file in place
#   bash tools/format/clang-format.sh --check   list the files that differ and fail (a step of scripts/run.sh test)
# Files tools/gen writes are left out: their layout is the generator's, and `gen --check` holds them byte for byte.
set -euo pipefail
cd "$(dirname "$0")/../.."
clang_format=$(command -v clang-format-16 || true)
[ -n "$clang_format" ] || { echo "clang-format-16 is missing (bash scripts/install-deps.sh installs it)" >&2; exit 1; }

mapfile -t files < <(git ls-files -- '*.c' '*.h' '*.cc' '*.cpp' '*.hpp' |
  grep -v -E '^(native/capi/generated|native/core/generated|bindings/napi/generated)/|^native/include/svcpp\.(h|hpp)$')

if [ "${1:-}" = "--check" ]; then
  if ! printf '%s\0' "${files[@]}" | xargs -0 -P 2 -n 50 "$clang_format" --dry-run --Werror 2>/tmp/clang-format-check.$$; then
    grep -o '^[^:]*\.[ch]p*:' /tmp/clang-format-check.$$ | sort -u | sed 's/:$//; s/^/    not formatted: /'
    rm -f /tmp/clang-format-check.$$
    echo "C/C++ files differ from .clang-format: run bash tools/format/clang-format.sh" >&2
    exit 1
  fi
  rm -f /tmp/clang-format-check.$$
  echo "    ${#files[@]} C/C++ files formatted as .clang-format says"
else
  printf '%s\0' "${files[@]}" | xargs -0 -P 2 -n 50 "$clang_format" -i
fi
