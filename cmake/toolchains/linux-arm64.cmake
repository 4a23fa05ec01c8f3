# Linux arm64 (aarch64, glibc) with Debian's cross compiler (g++-aarch64-linux-gnu, libc6-arm64-cross). The glibc 2.28
# floor of the shipped libraries holds as on x64 (cmake/glibc-floor.cmake).
#   cmake -S . -B build-linux-arm64 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/linux-arm64.cmake   (scripts/build-target.sh)
# Tests run under qemu-user with the cross sysroot as the dynamic loader's root.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(SVCPP_TARGET linux-arm64)

set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_AR aarch64-linux-gnu-gcc-ar CACHE FILEPATH "")
set(CMAKE_RANLIB aarch64-linux-gnu-gcc-ranlib CACHE FILEPATH "")
set(CMAKE_OBJCOPY aarch64-linux-gnu-objcopy CACHE FILEPATH "")

# The target's libraries: the cross sysroot, and this target's dependency cache — OpenSSL built by
# scripts/build-openssl.sh, and Debian's arm64 packages of libsodium and webrtc-audio-processing unpacked (never
# installed) by scripts/build-target.sh into ~/.cache/svcpp/linux-arm64/prefix. The host's header-only libraries
# (Boost, nlohmann) and PulseAudio's headers (the backend dlopens libpulse, nothing links it) are shared by every target.
set(SVCPP_CACHE_DIR "$ENV{HOME}/.cache/svcpp" CACHE PATH "Where third-party sources are unpacked")
set(_svcpp_prefix ${SVCPP_CACHE_DIR}/linux-arm64/prefix)
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu ${_svcpp_prefix} ${_svcpp_prefix}/usr)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)

# The guest's LD_LIBRARY_PATH (qemu's -E: the host's qemu itself is left alone) holds the unpacked arm64 libraries
# the PulseAudio backend dlopens (libpulse0 and what it needs, scripts/build-target.sh; libpulsecommon sits in its
# pulseaudio/ folder, which libpulse names by an absolute RUNPATH the emulator would look up in the sysroot).
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64;-L;/usr/aarch64-linux-gnu;-E;
  LD_LIBRARY_PATH=${_svcpp_prefix}/usr/lib/aarch64-linux-gnu:${_svcpp_prefix}/usr/lib/aarch64-linux-gnu/pulseaudio:${_svcpp_prefix}/lib/aarch64-linux-gnu)

# The host's header-only packages, shared by every target (cmake/dependencies.cmake links just their headers).
set(Boost_DIR /usr/lib/x86_64-linux-gnu/cmake/Boost-1.81.0 CACHE PATH "")
set(nlohmann_json_DIR /usr/share/cmake/nlohmann_json CACHE PATH "")
