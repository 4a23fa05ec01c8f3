#!/usr/bin/env bash
# Checks that compiled objects use no instruction beyond the x86-64 baseline (SSE2): no AVX (VEX-encoded) and no
# SSE4.1 instruction. libsvcpp.so must run on any x86-64 CPU; code for newer CPUs is allowed only in files that are
# called through a run-time CPU check (named by the caller as exceptions).
#   check-baseline-isa.sh <objects dir> <exception regex> [object extension, default .o]
# OBJDUMP names the toolchain's objdump (the build's CMAKE_OBJDUMP; default objdump).
set -euo pipefail
dir=$1 allowed=$2 ext=${3:-.o} objdump=${OBJDUMP:-objdump}
# SSE4.1's instructions (AVX's are all VEX-encoded: their mnemonics start with "v" and name xmm/ymm registers).
sse41='pmulld|pmuldq|pmin(sb|sd|uw|ud)|pmax(sb|sd|uw|ud)|ptest|pblendw|pblendvb|blendv?p[sd]|dpp[sd]|insertps|extractps|pextr[bdq]|pinsr[bdq]|pmov[sz]x|round[ps][sd]|packusdw|pcmpeqq|mpsadbw|phminposuw|movntdqa'
objects=$(find "$dir" -name "*$ext" | grep -Ev "$allowed" | sort)
[ -n "$objects" ] || { echo "no objects under $dir" >&2; exit 1; }
bad=0
for o in $objects; do
  listing=$("$objdump" -d --no-show-raw-insn "$o")
  hits=$(grep -E "^\s+[0-9a-f]+:\s+(v[a-z0-9]+\s.*%[xyz]mm|($sse41)\s)" <<<"$listing" | head -3 || true)
  if [ -n "$hits" ]; then
    echo "beyond the x86-64 baseline: $o" >&2
    echo "$hits" >&2
    bad=1
  fi
done
[ $bad -eq 0 ] && echo "$(wc -w <<<"$objects") objects: x86-64 baseline only"
exit $bad
