#!/usr/bin/env bash
# Runs a command (a Windows test program under Wine) beside a private PulseAudio daemon, so Wine's WASAPI (its
# winepulse driver) sees real endpoints: the same devices as the Linux suite's daemon (pulse_daemon.cpp) — a null sink
# "vsink" and a null source "vsrc" — with vsink's monitor as the default source, so what the default render endpoint
# plays, the default capture endpoint hears — and a second null sink "spare", which becomes the server's default when
# vsink goes (the device-loss test). The daemon runs no default.pa: no module-rescue-streams, so a stream whose sink
# goes is killed, as a stream on an unplugged device is, rather than moved. The CROSSCOMPILING_EMULATOR of svcpp_wasapi_tests
# (core/voice/CMakeLists.txt): every test, and the listing of them, gets a fresh daemon.
#
# A Windows program under Wine cannot run pactl (Wine's CreateProcess starts only Windows programs), so the test asks
# this script for server changes through files in $SVCPP_PULSE_REQUESTS (a Windows path; the same directory is
# $dir/requests here):
#   unload-sink-<name>     → the module of that sink unloaded, then <request>.done appears
#   unload-source-<name>   → the same for a source
# Usage: with-pulse-daemon.sh <command> [arguments...]   (the command's exit code is this script's)
set -uo pipefail
dir=$(mktemp -d /tmp/svcpp-wine-pulse-XXXXXX)
mkdir -p "$dir/home" "$dir/run" "$dir/requests"
socket="$dir/native"
HOME="$dir/home" XDG_RUNTIME_DIR="$dir/run" pulseaudio -n --daemonize=no --exit-idle-time=-1 --disallow-exit \
  --use-pid-file=no --system=no --log-target=stderr \
  -L "module-null-sink sink_name=vsink rate=48000 channels=2 sink_properties=device.description=svcpp-vsink" \
  -L "module-null-sink sink_name=spare rate=48000 channels=2 sink_properties=device.description=svcpp-spare" \
  -L "module-null-source source_name=vsrc rate=48000 channels=2 description=svcpp-vsrc" \
  -L "module-native-protocol-unix auth-anonymous=1 socket=$socket" >"$dir/daemon.log" 2>&1 &
daemon=$!
poller=
cleanup() {
  [ -n "$poller" ] && kill "$poller" 2>/dev/null
  kill "$daemon" 2>/dev/null
  wait "$daemon" 2>/dev/null
  rm -rf "$dir"
}
trap cleanup EXIT
export PULSE_SERVER="unix:$socket"
# The bound only turns a daemon that never starts into a failure (it starts in well under a second).
for _ in $(seq 100); do pactl info >/dev/null 2>&1 && break; sleep 0.1; done
if ! pactl info >/dev/null 2>&1; then
  echo "with-pulse-daemon: pulseaudio did not start:" >&2
  cat "$dir/daemon.log" >&2
  exit 1
fi
pactl set-default-sink vsink && pactl set-default-source vsink.monitor || exit 1

export SVCPP_PULSE_REQUESTS="Z:${dir//\//\\}\\requests"
serve_requests() {
  while sleep 0.05; do
    for request in "$dir"/requests/*; do
      [ -f "$request" ] || continue
      case "$request" in *.done) continue ;; esac
      [ -f "$request.done" ] && continue
      name=$(basename "$request")
      case "$name" in
        unload-sink-*)
          owner=$(pactl list sinks | awk -v s="${name#unload-sink-}" '/^\tName: /{n=$2} /^\tOwner Module: /{ if (n == s) print $3 }')
          [ -n "$owner" ] && pactl unload-module "$owner" ;;
        unload-source-*)
          owner=$(pactl list sources | awk -v s="${name#unload-source-}" '/^\tName: /{n=$2} /^\tOwner Module: /{ if (n == s) print $3 }')
          [ -n "$owner" ] && pactl unload-module "$owner" ;;
      esac
      touch "$request.done"
    done
  done
}
serve_requests &
poller=$!
"$@"
