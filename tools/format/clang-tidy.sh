#!/usr/bin/env bash
# clang-tidy-16's cheap checks (.clang-tidy) over the hand-written C++ translation units, against the native build's
# build/compile_commands.json; fails with the list of findings.
#   bash tools/format/clang-tidy.sh                     every hand-written unit of native/core, native/capi and
#                                                       bindings/napi/src that has a compile command
#   bash tools/format/clang-tidy.sh native/capi ...     only the units under these folders or these files
#                                                       (scripts/run.sh test: native/capi bindings/napi/src)
#   bash tools/format/clang-tidy.sh --list [folder...]  print the candidate units (no build tree needed)
# Cost, measured on the 2-core machine during a concurrent CI run (load ~9): ~3 s of CPU per unit, about half of it
# parsing (Boost's headers), half the checks, which walk the system headers' declarations too. native/capi and
# bindings/napi/src (15 units): 46 s wall, 43 s CPU. native/core (147 units): 9 min wall, 7.5 min CPU; all 162:
# 11.7 min wall, 8.2 min CPU. That is over CI's budget (~4 min), so scripts/run.sh test checks the C ABI and the
# addon, and the core is checked by hand (bash tools/format/clang-tidy.sh native/core).
# Files tools/gen writes are left out, as in clang-format.sh: their shape is the generator's.
set -euo pipefail
cd "$(dirname "$0")/../.."
list=0
[ "${1:-}" != "--list" ] || { list=1; shift; }
folders=("$@")
[ ${#folders[@]} -gt 0 ] || folders=(native/core native/capi bindings/napi/src)

mapfile -t candidates < <(git ls-files -- "${folders[@]}" | grep -E '\.cpp$' |
  grep -v -E '^(native/capi/generated|native/core/generated|bindings/napi/generated)/' |
  grep -E '^(native/core|native/capi|bindings/napi/src)/')
if [ "$list" -eq 1 ]; then printf '%s\n' "${candidates[@]}"; exit 0; fi

clang_tidy=$(command -v clang-tidy-16 || true)
[ -n "$clang_tidy" ] || { echo "clang-tidy-16 is missing (bash scripts/install-deps.sh installs it)" >&2; exit 1; }
db=build/compile_commands.json
[ -f "$db" ] || { echo "$db is missing: the native build writes it (npx cmake-js compile --out build)" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The build is GCC's: a compile database without the flags clang rejects (LTO and GCC-only code generation, which
# say nothing about the source), and with only the candidates that have a command on this platform (the Windows-only
# units have none).
printf '%s\n' "${candidates[@]}" | node -e '
  const fs = require("node:fs");
  const [db, out, root] = process.argv.slice(1);
  const wanted = new Set(fs.readFileSync(0, "utf8").split("\n").filter(Boolean).map((f) => `${root}/${f}`));
  const gccOnly = new Set(["-fno-ipa-ra", "-ffat-lto-objects", "-flto=auto"]);
  const kept = JSON.parse(fs.readFileSync(db, "utf8"))
    .filter((e) => wanted.has(e.file))
    .map((e) => ({ ...e, command: e.command.split(" ").filter((a) => !gccOnly.has(a)).join(" ") }));
  fs.writeFileSync(`${out}/compile_commands.json`, JSON.stringify(kept));
  for (const e of kept) console.log(e.file);
' "$db" "$work" "$PWD" >"$work/units"
units=$(wc -l <"$work/units")
[ "$units" -gt 0 ] || { echo "no unit of ${folders[*]} has a compile command in $db" >&2; exit 1; }

# One clang-tidy per unit, two at a time, each into its own log so that findings never interleave; a unit with
# findings is named in $work/failed. Compiler warnings are GCC's job (-Wall -Wextra in the build): -Wno-everything
# keeps clang's own out of the list. With Asio's C++20 concepts, clang finds Boost 1.81's two declarations of
# async_teardown for ssl_stream (the friend and the definition) different, and the call in net/transport_stream.cpp
# ambiguous (GCC does not); without them both are plain templates.
lint_unit() {
  "$clang_tidy" -p "$work" --quiet --extra-arg=-Wno-everything --extra-arg=-DBOOST_ASIO_DISABLE_CONCEPTS "$1" \
    >"$work/logs/${1//\//_}.log" 2>&1 || echo "$1" >>"$work/failed"
}
export -f lint_unit
export clang_tidy work
mkdir "$work/logs"
xargs -P 2 -I{} bash -c 'lint_unit "$1"' _ {} <"$work/units"
if [ -s "$work/failed" ]; then
  # A header's finding shows up once per unit that includes it: each distinct one once. A line without a place is
  # clang's own error (a flag it does not know, say).
  cat "$work"/logs/*.log | grep -E '^([^ ]+:[0-9]+:[0-9]+: )?(error|warning): ' | sed "s#^$PWD/##" | sort -u |
    sed 's/^/    /'
  echo "clang-tidy: $(wc -l <"$work/failed") of $units units have findings (above; the checks: .clang-tidy)" >&2
  exit 1
fi
echo "    $units C++ units pass clang-tidy's checks (.clang-tidy)"
