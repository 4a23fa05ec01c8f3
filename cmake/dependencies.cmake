# Third-party libraries, all from Debian packages (scripts/install-deps.sh) and all linked statically
# with hidden visibility, so neither libsvcpp.so nor the addon depends on them at run time and none of
# their symbols can interpose with the copies inside Node or Electron (Node exports its own OpenSSL).

find_package(Boost 1.81 CONFIG REQUIRED)            # Boost::headers — Asio + Beast, header-only
set(OPENSSL_USE_STATIC_LIBS TRUE)
find_package(OpenSSL 3 REQUIRED)                    # OpenSSL::SSL, OpenSSL::Crypto (static, PIC)
find_package(nlohmann_json 3.11 CONFIG REQUIRED)    # nlohmann_json::nlohmann_json, header-only
find_package(Threads REQUIRED)

# Cross builds (cmake/toolchains/) share the host's header-only libraries, but their packages name /usr/include as
# the include directory, and -isystem /usr/include would put the host's C library headers before the target's
# (MinGW's, the arm64 sysroot's). They get a directory of their own instead, holding links to just those libraries.
if(CMAKE_CROSSCOMPILING)
  set(SVCPP_HOST_HEADERS ${CMAKE_BINARY_DIR}/_deps/host-headers)
  foreach(dir boost nlohmann pulse)
    if(EXISTS /usr/include/${dir} AND NOT EXISTS ${SVCPP_HOST_HEADERS}/${dir})
      file(MAKE_DIRECTORY ${SVCPP_HOST_HEADERS})
      file(CREATE_LINK /usr/include/${dir} ${SVCPP_HOST_HEADERS}/${dir} SYMBOLIC)
    endif()
  endforeach()
  set_target_properties(Boost::headers nlohmann_json::nlohmann_json PROPERTIES INTERFACE_INCLUDE_DIRECTORIES ${SVCPP_HOST_HEADERS})
  set(PULSE_INCLUDE_DIR ${SVCPP_HOST_HEADERS} CACHE PATH "PulseAudio's headers (the host's: the same C interface)")
endif()

# libsodium: only the voice tests link it, as the independent implementation the transport cipher's XChaCha20-Poly1305
# (on OpenSSL) is checked against; the shipped libraries do not, so a build without tests does not look for it.
if(SVCPP_BUILD_TESTS)
  find_path(SODIUM_INCLUDE_DIR sodium.h REQUIRED)
  find_library(SODIUM_STATIC_LIBRARY NAMES libsodium.a REQUIRED)
  add_library(svcpp_sodium STATIC IMPORTED GLOBAL)
  set_target_properties(svcpp_sodium PROPERTIES IMPORTED_LOCATION ${SODIUM_STATIC_LIBRARY}
    INTERFACE_INCLUDE_DIRECTORIES ${SODIUM_INCLUDE_DIR})
endif()

# Opus: Debian's libopus.a is not PIC, so build 1.3.1 from Debian's source package, fetched at configure
# time into a cache outside the repository (scripts/fetch-opus.sh verifies the upstream tarball hash).
set(SVCPP_CACHE_DIR "$ENV{HOME}/.cache/svcpp" CACHE PATH "Where third-party sources are unpacked")
set(SVCPP_OPUS_SOURCE_DIR "" CACHE PATH "An unpacked Opus 1.3.1 source tree (fetched when empty)")
if(NOT SVCPP_OPUS_SOURCE_DIR)
  execute_process(COMMAND bash ${PROJECT_SOURCE_DIR}/scripts/fetch-opus.sh ${SVCPP_CACHE_DIR}
    OUTPUT_VARIABLE _opus_dir OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE _opus_rc)
  if(NOT _opus_rc EQUAL 0)
    message(FATAL_ERROR "Could not fetch the Opus source package (see scripts/fetch-opus.sh)")
  endif()
  set(SVCPP_OPUS_SOURCE_DIR ${_opus_dir} CACHE PATH "" FORCE)
endif()
set(OPUS_BUILD_PROGRAMS OFF CACHE BOOL "" FORCE)
set(OPUS_BUILD_TESTING OFF CACHE BOOL "" FORCE)
set(OPUS_INSTALL_PKG_CONFIG_MODULE OFF CACHE BOOL "" FORCE)
set(OPUS_INSTALL_CMAKE_CONFIG_MODULE OFF CACHE BOOL "" FORCE)
set(OPUS_STACK_PROTECTOR OFF CACHE BOOL "" FORCE)
# Opus asks git for its version from the current directory — our build tree, so it would describe svcpp's own
# repository (and print "fatal: No names found"); its version comes from PACKAGE_VERSION below instead. It declares
# CMake 3.1, older than honouring visibility presets on static libraries (CMP0063): opt in, as we want hidden.
set(CMAKE_DISABLE_FIND_PACKAGE_Git TRUE)
set(CMAKE_POLICY_DEFAULT_CMP0063 NEW)
# Opus 1.3.1's CMake build adds -msse4.1 and -mavx to its whole directory when the compiler accepts them (upstream
# fixed it in 1.4: per-file flags), so the compiler may use AVX in any Opus function — and it does (the CELT
# decoder's loops) — which would crash the shipped library on an x86-64 CPU without AVX. Answering its two compiler
# checks "no" keeps those flags out: every file is compiled for the x86-64 baseline (SSE2), as the rest of the
# library is. Its SSE4.1 files are still built (1.3.1 adds them whenever SSE is possible) with -msse4.1 for
# themselves alone (below), and Opus calls them only after its run-time CPU detection (OPUS_HAVE_RTCD) found SSE4.1.
# `opus.baseline_isa` (native/tests) checks the objects.
set(SSE4_1_SUPPORTED 0 CACHE INTERNAL "answered for Opus: see cmake/dependencies.cmake")
set(AVX_SUPPORTED 0 CACHE INTERNAL "answered for Opus: see cmake/dependencies.cmake")
add_subdirectory(${SVCPP_OPUS_SOURCE_DIR} ${CMAKE_BINARY_DIR}/_deps/opus EXCLUDE_FROM_ALL SYSTEM)
unset(CMAKE_DISABLE_FIND_PACKAGE_Git)
unset(CMAKE_POLICY_DEFAULT_CMP0063)
target_compile_definitions(opus PRIVATE PACKAGE_VERSION="1.3.1")   # else opus_get_version_string() says "unknown"
set_target_properties(opus PROPERTIES POSITION_INDEPENDENT_CODE ON C_VISIBILITY_PRESET hidden)
# Upstream code, compiled as released: its warnings are not ours to fix and would bury ours. We never debug it,
# so Debug builds (the sanitizer build) optimise it too; unoptimised, it is slow and says so in a #pragma message.
target_compile_options(opus PRIVATE -w $<$<CONFIG:Debug>:-O2>)
# Its SSE4.1 files (see before add_subdirectory above) get -msse4.1 for themselves alone.
get_target_property(_opus_sources opus SOURCES)
list(FILTER _opus_sources INCLUDE REGEX "_sse4_1\\.c$")
list(TRANSFORM _opus_sources PREPEND "${SVCPP_OPUS_SOURCE_DIR}/")
set_property(SOURCE ${_opus_sources} TARGET_DIRECTORY opus APPEND PROPERTY COMPILE_OPTIONS -msse4.1)

# WebRTC's audio-processing module 0.3 (AEC, NS, AGC, VAD) for the voice engine, from Debian's
# libwebrtc-audio-processing-dev (per cross target: the same Debian package of that architecture, unpacked into the
# target's cache by scripts/build-target.sh and found through CMAKE_FIND_ROOT_PATH). Its archive holds
# position-dependent (PIE) code: it links into libsvcpp.so only because the C ABI library links with
# -Wl,--exclude-libs,ALL, which makes its symbols local. Off on Windows: Debian's source package is not on the mirror
# and there is no Windows binary package, so the engine runs without it there (voice/media/audio_processor_unavailable.cpp,
# docs/platforms.md).
if(WIN32)
  set(_svcpp_apm_default OFF)
else()
  set(_svcpp_apm_default ON)
endif()
option(SVCPP_WEBRTC_APM "Link WebRTC's audio processing (AEC/NS/AGC); off: the engine sends captured audio unprocessed" ${_svcpp_apm_default})
if(SVCPP_WEBRTC_APM)
  find_path(WEBRTC_APM_INCLUDE_DIR webrtc/modules/audio_processing/include/audio_processing.h
    PATH_SUFFIXES webrtc_audio_processing REQUIRED)
  find_library(WEBRTC_APM_STATIC_LIBRARY NAMES libwebrtc_audio_processing.a REQUIRED)
  add_library(svcpp_webrtc_apm STATIC IMPORTED GLOBAL)
  set_target_properties(svcpp_webrtc_apm PROPERTIES IMPORTED_LOCATION ${WEBRTC_APM_STATIC_LIBRARY}
    INTERFACE_INCLUDE_DIRECTORIES ${WEBRTC_APM_INCLUDE_DIR}
    INTERFACE_COMPILE_DEFINITIONS "WEBRTC_AUDIO_PROCESSING_ONLY_BUILD;WEBRTC_POSIX"
    INTERFACE_LINK_LIBRARIES Threads::Threads)
endif()

# PulseAudio: headers only (libpulse-dev), for the types and function signatures of the libraries the voice engine
# loads with dlopen at run time. Nothing links against libpulse.
# Linux only (the backend's files are, cmake/platform-sources.cmake); the arm64 build reads the host's headers, which
# describe the same C interface (CMAKE_INCLUDE_PATH of cmake/toolchains/linux-arm64.cmake).
if(CMAKE_SYSTEM_NAME STREQUAL "Linux")
  find_path(PULSE_INCLUDE_DIR pulse/pulseaudio.h REQUIRED)
endif()
