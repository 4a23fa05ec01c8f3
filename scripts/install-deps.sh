#!/usr/bin/env bash
# Installs the Debian packages the native build needs. Idempotent: packages already
# present are skipped by apt, and `apt-get update` runs only when something is missing.
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build ccache pkg-config
  libboost1.81-dev      # Asio + Beast (header-only); conflicts with libboost-dev 1.74, so never that one
  libssl-dev            # OpenSSL 3 for the sanitizer, TSan and fuzz builds (the shipped one: scripts/build-openssl.sh)
  perl make             # scripts/build-openssl.sh: OpenSSL's Configure and build
  libsodium-dev         # the voice tests' reference XChaCha20-Poly1305 (the library itself uses OpenSSL's)
  nlohmann-json3-dev    # JSON in the core (header-only)
  libuv1-dev            # uv.h for the Node addon's client wakeup (a libuv async handle; the functions are Node's)
  libopus-dev           # Opus headers; the archive is not PIC, so libsvcpp builds Opus from source (README)
  libwebrtc-audio-processing-dev  # voice: echo cancellation, noise suppression, gain control (linked statically, hidden)
  libpulse-dev          # voice: PulseAudio headers only; libsvcpp loads libpulse with dlopen at run time
  pulseaudio pulseaudio-utils  # voice tests: a private PulseAudio daemon with null devices (no sound card needed)
  libgtest-dev libgmock-dev
  file binutils         # nm / readelf / objdump for the symbol checks (and the glibc floor's objdump -T)
  python3               # node-gyp (the from-source fallback through binding.gyp, npm run prebuilds)
  clang-format-16       # the C and C++ style (.clang-format, tools/format/clang-format.sh --check in the tests)
  clang-tidy-16         # the C++ lint's cheap checks (.clang-tidy, tools/format/clang-tidy.sh in the tests)
  clang libclang-rt-14-dev  # libFuzzer targets (native/fuzz, SVCPP_FUZZ=ON): clang 14 and its fuzzer/sanitizer runtimes
  chromium              # the developer portal's browser tests (platform/test/portal/*browser.test.ts, playwright-core)
  libpq-dev             # the platform's PostgreSQL store: pg-native's libpq binding compiles against it (npm install)
  postgresql            # the platform suite's PostgreSQL run: a temporary cluster (initdb, pg_ctl) per test run
  redis-server          # the platform's two-node test and broker benchmark: a private Redis (--broker redis://…)
  # The cross targets (docs/platforms.md): Windows x64 built with MinGW-w64 (the posix thread model compilers) and
  # run under Wine; Linux arm64 built with Debian's aarch64 cross compiler and run under qemu-user.
  g++-mingw-w64-x86-64-posix binutils-mingw-w64-x86-64 wine64
  g++-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user
  autoconf automake libtool  # libsodium's Debian source tree (cross-built for Windows) has no generated configure
  zip unzip             # the Windows SDK archive (svcpp-<v>-windows-x64.zip) and its test
  googletest            # /usr/src/googletest: GoogleTest built per cross target (libgtest-dev's archives are x86-64)
)

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"

# scripts/fetch-opus.sh needs `apt-get source opus`, so Debian's source index must be configured.
SRC_LIST=/etc/apt/sources.list.d/svcpp-src.sources
need_update=0
if ! grep -rqs '^Types:.*deb-src\|^deb-src ' /etc/apt/sources.list /etc/apt/sources.list.d/; then
  echo "install-deps: adding a deb-src entry ($SRC_LIST)"
  codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
  printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: %s %s-updates\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
    "$codename" "$codename" | $SUDO tee "$SRC_LIST" >/dev/null
  need_update=1
fi

# The arm64 libraries the cross build unpacks (apt-get download <pkg>:arm64, never installed) need apt to know the
# architecture.
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
  echo "install-deps: adding the arm64 architecture to apt (its packages are downloaded, never installed)"
  $SUDO dpkg --add-architecture arm64
  need_update=1
fi

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  [ "$need_update" -eq 0 ] || $SUDO apt-get update -qq
  echo "install-deps: all ${#PACKAGES[@]} packages present"
  exit 0
fi

# apt-get reports "dlstatus:<n>:<percent>:<text>" and "pmstatus:<package>:<percent>:<text>" on its status fd;
# one line per 10 % of each phase shows how far along a first run is without dpkg's hundreds of lines.
apt_progress() {
  awk -F: '$1 == "dlstatus" || $1 == "pmstatus" {
    phase = $1 == "dlstatus" ? "download" : "install"; p = int($3 / 10) * 10
    if (!(phase in last) || p > last[phase]) { last[phase] = p; printf "    apt %s %d%%\n", phase, p; fflush() }
  }'
}

echo "install-deps: installing ${#missing[@]} packages: ${missing[*]}"
echo "install-deps: apt-get update (package index, ~10 s)"
$SUDO apt-get update -qq || $SUDO apt-get update -qq
# Status lines share stdout with dpkg's chatter, which the filter drops (sudo would close an extra fd); errors
# stay on stderr.
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends -o APT::Status-Fd=1 \
  "${missing[@]}" | apt_progress
