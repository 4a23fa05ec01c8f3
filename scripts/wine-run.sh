#!/usr/bin/env bash
# Runs a Windows program under Wine the way the tests need it (CMAKE_CROSSCOMPILING_EMULATOR of
# cmake/toolchains/win32-x64.cmake, and by hand): a per-machine prefix set to Windows 10 once, Wine's own chatter off,
# and the program's stdout and stderr written to files — Wine gives a program whose stdout is a pipe EBADF on its
# writes — then printed, so ctest and a terminal see them. The program's exit code is this script's.
# Usage: wine-run.sh <program.exe> [arguments...]
#   SVCPP_WINEPREFIX  the prefix (default ~/.cache/svcpp/wine); WINE  the wine binary (default /usr/lib/wine/wine64)
set -uo pipefail
export WINEPREFIX="${SVCPP_WINEPREFIX:-$HOME/.cache/svcpp/wine}"
export WINEDEBUG="${WINEDEBUG:--all}"
wine="${WINE:-/usr/lib/wine/wine64}"
[ -x "$wine" ] || wine=$(command -v wine64 || command -v wine)
if [ ! -f "$WINEPREFIX/.svcpp-win10" ]; then
  mkdir -p "$WINEPREFIX"
  # Serialised: two ctest jobs starting at once must not both create the prefix.
  exec 8>"$WINEPREFIX.lock"
  flock 8
  if [ ! -f "$WINEPREFIX/.svcpp-win10" ]; then
    # Wine's own winecfg.exe (Debian's wine64 package has no winecfg wrapper on PATH). Node 20 refuses to start on
    # the Windows 7 a new prefix reports.
    if "$wine" winecfg -v win10 >/dev/null 2>&1; then
      touch "$WINEPREFIX/.svcpp-win10"
    else
      echo "wine-run: '$wine winecfg -v win10' failed for the prefix $WINEPREFIX" >&2
      exit 1
    fi
  fi
  exec 8>&-
fi
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
# A Wine process can die before the program's main runs, when its connection to the wineserver is cut while it is
# being made: once in ~600 ctest starts on a loaded machine, in 0.02-0.03 s, saying "wine client error:0: recvmsg:
# Connection reset by peer" or nothing at all. Such a start is retried, twice at most: it failed, it printed nothing
# on stdout (a GoogleTest program prints and flushes before its first test, so none of its tests ran) and on stderr
# at most Wine's client error. Any other failure is the program's and is reported as it is.
for attempt in 1 2 3; do
  "$wine" "$@" >"$out" 2>"$err" </dev/null
  status=$?
  [ "$status" -ne 0 ] && [ ! -s "$out" ] && ! grep -qv '^wine client error' "$err" && [ "$attempt" -lt 3 ] || break
  said=$(head -c 200 "$err")
  echo "wine-run: $1 died before it ran (exit $status${said:+: $said}); starting it again" >&2
  sleep 1
done
cat "$out"
cat "$err" >&2
exit "$status"
