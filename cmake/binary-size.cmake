# Binary size of what the npm package and the engine SDK ship (libsvcpp.so): the measures that cost no run-time speed
# where it matters and (almost) no build time. docs/binary-size.md has the breakdown by contributor, the figure each
# measure saved and how to reproduce them. Only for the shipped configurations: the sanitizer, TSan and fuzz builds
# keep the plain flags and the unmodified archives (their stack traces want every unwind table).
set(SVCPP_SIZE_MEASURES OFF)
if(NOT SVCPP_SANITIZE AND NOT SVCPP_TSAN AND NOT SVCPP_FUZZ)
  set(SVCPP_SIZE_MEASURES ON)
endif()

# svcpp_openssl_from_source(): the shipped build links an OpenSSL built for svcpp (scripts/build-openssl.sh: OpenSSL
# 3.0 from Debian's source package, configured without every algorithm and protocol svcpp does not use, compiled -Os
# with a section per function) instead of Debian's libssl-dev archives, which carry all of them: OpenSSL 3's default
# provider is a table of every algorithm it was built with, so any EVP fetch linked them all in (~1.8 MB of the
# library). Built once into SVCPP_CACHE_DIR and shared by every build tree with the same configuration; the first
# configure on a machine compiles it (docs/binary-size.md has the time). Must run before find_package(OpenSSL)
# (cmake/dependencies.cmake), which then finds these archives and headers. The sanitizer, TSan and fuzz builds keep
# Debian's libssl-dev; -DSVCPP_OPENSSL_FROM_SOURCE=OFF does too (offline machines, no deb-src entry).
option(SVCPP_OPENSSL_FROM_SOURCE "Shipped build: link OpenSSL built for svcpp (scripts/build-openssl.sh), not libssl-dev" ON)
function(svcpp_openssl_from_source)
  set(cache_dir "$ENV{HOME}/.cache/svcpp")
  if(SVCPP_CACHE_DIR)
    set(cache_dir ${SVCPP_CACHE_DIR})
  endif()
  if(NOT SVCPP_SIZE_MEASURES OR NOT SVCPP_OPENSSL_FROM_SOURCE)
    # A tree configured with the option on and then off must find Debian's archives again, not keep ours.
    if(OPENSSL_CRYPTO_LIBRARY MATCHES "/openssl-3[^/]*/[0-9a-f]+/lib/libcrypto\\.a$")
      unset(OPENSSL_INCLUDE_DIR CACHE)
      unset(OPENSSL_CRYPTO_LIBRARY CACHE)
      unset(OPENSSL_SSL_LIBRARY CACHE)
    endif()
    return()
  endif()
  set(target linux-x64)
  if(SVCPP_TARGET)   # a cross build's toolchain file names its target (cmake/toolchains/)
    set(target ${SVCPP_TARGET})
  endif()
  execute_process(COMMAND bash ${PROJECT_SOURCE_DIR}/scripts/build-openssl.sh ${cache_dir} ${target}
    OUTPUT_VARIABLE prefix OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "Could not build OpenSSL for svcpp (scripts/build-openssl.sh, output above); "
      "-DSVCPP_OPENSSL_FROM_SOURCE=OFF links Debian's libssl-dev instead")
  endif()
  # Set, not searched: a tree configured before (with Debian's archives in its cache) switches over too.
  set(OPENSSL_INCLUDE_DIR ${prefix}/include CACHE PATH "" FORCE)
  set(OPENSSL_CRYPTO_LIBRARY ${prefix}/lib/libcrypto.a CACHE FILEPATH "" FORCE)
  set(OPENSSL_SSL_LIBRARY ${prefix}/lib/libssl.a CACHE FILEPATH "" FORCE)
  if(MINGW)   # FindOpenSSL's names for the two archives on MinGW
    set(LIB_EAY ${prefix}/lib/libcrypto.a CACHE FILEPATH "" FORCE)
    set(SSL_EAY ${prefix}/lib/libssl.a CACHE FILEPATH "" FORCE)
  endif()
  # The script prints the same prefix for the same configuration: a changed script means a new configure.
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/scripts/build-openssl.sh)
endfunction()

# svcpp_without_unwind_tables(<imported static library target>...): links a copy of each Debian archive without its
# .eh_frame section. The C libraries' unwind tables are only needed to unwind *through* their frames, i.e. when a C++
# exception is thrown inside a callback they call: svcpp hands OpenSSL no callback at all (Asio's
# verify/password callbacks stay unset: verification is OpenSSL's own, net/tls_context.cpp), so nothing ever unwinds
# through them. Saves ~0.55 MB (OpenSSL's unwind tables alone are 0.39 MB). The copy is made at configure time (an
# objcopy of a few MB takes about a second) and again whenever the Debian archive changes.
function(svcpp_without_unwind_tables)
  if(NOT SVCPP_SIZE_MEASURES)
    return()
  endif()
  foreach(target IN LISTS ARGN)
    get_target_property(archive ${target} IMPORTED_LOCATION)
    get_filename_component(name ${archive} NAME)
    # Named after the archive's path too: the OpenSSL archives are Debian's or our own (svcpp_openssl_from_source),
    # and a copy of one must never stand for the other.
    string(SHA1 path_hash ${archive})
    string(SUBSTRING ${path_hash} 0 10 path_hash)
    set(copy ${CMAKE_BINARY_DIR}/_deps/without-unwind-tables/${path_hash}-${name})
    if(NOT EXISTS ${copy} OR ${archive} IS_NEWER_THAN ${copy})
      file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/_deps/without-unwind-tables)
      execute_process(COMMAND ${CMAKE_OBJCOPY} --remove-section=.eh_frame ${archive} ${copy}
        RESULT_VARIABLE status ERROR_VARIABLE errors)
      if(NOT status EQUAL 0)
        message(FATAL_ERROR "objcopy could not copy ${archive} without its unwind tables: ${errors}")
      endif()
    endif()
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${archive})
    set_target_properties(${target} PROPERTIES IMPORTED_LOCATION ${copy})
  endforeach()
endfunction()

# ${out}: whether `text` matches one of the regular expressions that follow.
function(_svcpp_matches_any out text)
  foreach(pattern IN LISTS ARGN)
    if(text MATCHES "${pattern}")
      set(${out} TRUE PARENT_SCOPE)
      return()
    endif()
  endforeach()
  set(${out} FALSE PARENT_SCOPE)
endfunction()

# One source of `target` compiled at `level` (-Os unless given) in the Release build; a relative path is the target's
# (set_property would resolve it against the calling directory).
function(_svcpp_size_optimize_source target source)
  set(level ${ARGN})
  if(NOT level)
    set(level -Os)
  endif()
  if(NOT IS_ABSOLUTE "${source}")
    get_target_property(source_dir ${target} SOURCE_DIR)
    set(source ${source_dir}/${source})
  endif()
  set_property(SOURCE ${source} TARGET_DIRECTORY ${target} APPEND PROPERTY COMPILE_OPTIONS $<$<CONFIG:Release>:${level}>)
endfunction()

# svcpp_size_optimize_cold_sources(<target> [LEVEL <flag>] HOT <regex>...): every translation unit of the target
# compiled -Os (or LEVEL, e.g. -O2) in the Release build, except those whose path matches one of the HOT regular
# expressions, which keep the build type's -O3.
# Most of the core waits on the network or on the user: REST calls, authentication, the RPC link, the area services'
# commands, and Boost.Beast's composed operations (HTTP and WebSocket, plain and TLS: state machines between socket
# reads, the largest code in the library, 45 % smaller at -Os). There code size matters and a few instructions do not.
# The hot paths are named by the caller (CMakeLists.txt) so that they are one list, next to the targets. A new file is
# cold unless it matches, so a new area costs no list to maintain.
function(svcpp_size_optimize_cold_sources target)
  if(NOT SVCPP_SIZE_MEASURES)
    return()
  endif()
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "LEVEL" "HOT")
  get_target_property(sources ${target} SOURCES)
  foreach(source IN LISTS sources)
    _svcpp_matches_any(hot "${source}" ${arg_HOT})
    if(source MATCHES "\\.cpp$" AND NOT hot)
      _svcpp_size_optimize_source(${target} "${source}" ${arg_LEVEL})
    endif()
  endforeach()
endfunction()

# svcpp_size_optimize(<target>): the whole target's Release build at -Os. For libraries of cold code only: MLS
# (native/core/mls) runs when a DAVE group changes — a join, a commit, a welcome — never per audio frame (the frame
# cryptor is svcpp_voice_e2ee, which keeps the build type's optimisation). Its object code is ~60 % smaller at -Os.
function(svcpp_size_optimize target)
  if(SVCPP_SIZE_MEASURES)
    target_compile_options(${target} PRIVATE $<$<CONFIG:Release>:-Os>)
  endif()
endfunction()

# svcpp_size_optimize_sources(<target> MATCHING <regex>...): the target's C and C++ sources whose file name (not the
# directory: it is wherever the source was unpacked) matches one of the regular expressions compiled -Os in the
# Release build; the rest keep the build type's -O3. For a third-party
# library whose cold and hot halves are apart in separate files: Opus, whose encoder runs once per 20 ms frame for the
# one local speaker while its decoder runs once per frame for every remote one (docs/binary-size.md has the figures).
function(svcpp_size_optimize_sources target)
  if(NOT SVCPP_SIZE_MEASURES)
    return()
  endif()
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "MATCHING")
  get_target_property(sources ${target} SOURCES)
  foreach(source IN LISTS sources)
    get_filename_component(name "${source}" NAME)
    _svcpp_matches_any(matching "${name}" ${arg_MATCHING})
    if(source MATCHES "\\.(c|cpp)$" AND matching)
      _svcpp_size_optimize_source(${target} "${source}")
    endif()
  endforeach()
endfunction()

# Not used: identical code folding with gold (-fuse-ld=gold -Wl,--icf=safe) saved another 0.22 MB, but gold exported
# symbols past the version script and --exclude-libs (static libstdc++'s TLS std::__once_call, and the STB_GNU_UNIQUE
# statics of Beast's and Asio's inline functions), which the abi.exported_symbols test caught: docs/binary-size.md.

# svcpp_link_time_optimize(<shared library>... OBJECTS <static or object library>...): link-time optimisation of the
# shipped libraries only. The OBJECTS targets are compiled "fat" in the Release build (-ffat-lto-objects: GCC's
# intermediate language next to the usual machine code), the shared libraries are linked with -flto=auto, and every
# other executable and library linked after this call (the tests, benchmarks and examples, which link the same static
# libraries) with -fno-lto, which makes GCC use the machine code and skip the link-time compilation. So only the
# shipped libraries pay the LTO link (~1 min of CPU each), and the tests still run the same code paths, compiled by
# the same compiler at the same per-file -Os/-O3 (GCC keeps each function's optimisation level through LTO).
# Cross-file inlining and dead-code removal make libsvcpp.so ~0.4 MB smaller (docs/binary-size.md). On by default in
# the Release build; -DSVCPP_SHIPPED_LTO=OFF links without (a quicker link while working on the core). The caller
# leaves the C ABI glue (native/capi) out of OBJECTS: with it inside, bench/sync-call.ts measured the N-API call
# 4–12 % slower; without it, the call is as fast as without LTO (docs/binary-size.md has the side-by-side runs).
option(SVCPP_SHIPPED_LTO "Release: link-time optimisation of libsvcpp.so and the SDK's copy only (tests stay without)" ON)
function(svcpp_link_time_optimize)
  if(NOT SVCPP_SHIPPED_LTO OR NOT SVCPP_SIZE_MEASURES OR NOT CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    return()
  endif()
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "" "OBJECTS")
  foreach(target IN LISTS arg_OBJECTS)
    target_compile_options(${target} PRIVATE $<$<CONFIG:Release>:-flto=auto -ffat-lto-objects>)
  endforeach()
  foreach(target IN LISTS arg_UNPARSED_ARGUMENTS)
    target_link_options(${target} PRIVATE $<$<CONFIG:Release>:-flto=auto>)
  endforeach()
  # Directory scope, so it reaches the targets created after this call here and in every later subdirectory.
  add_link_options($<$<CONFIG:Release>:-fno-lto>)
endfunction()
