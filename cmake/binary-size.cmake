# Binary size of what the npm package and the engine SDK ship (libsvcpp.so): the measures that cost no run-time speed
# where it matters and (almost) no build time. docs/binary-size.md has the breakdown by contributor, the figure each
# measure saved and how to reproduce them. Only for the shipped configurations: the sanitizer, TSan and fuzz builds
# keep the plain flags and the unmodified archives (their stack traces want every unwind table).
set(SVCPP_SIZE_MEASURES OFF)
if(NOT SVCPP_SANITIZE AND NOT SVCPP_TSAN AND NOT SVCPP_FUZZ)
  set(SVCPP_SIZE_MEASURES ON)
endif()

# svcpp_without_unwind_tables(<imported static library target>...): links a copy of each Debian archive without its
# .eh_frame section. The C libraries' unwind tables are only needed to unwind *through* their frames, i.e. when a C++
# exception is thrown inside a callback they call: svcpp hands OpenSSL and libsodium no callback at all (Asio's
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
    set(copy ${CMAKE_BINARY_DIR}/_deps/without-unwind-tables/${name})
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

# svcpp_size_optimize_beast_sources(<target>): the target's translation units that include Boost.Beast are compiled
# with -Os. Beast's composed operations (HTTP and WebSocket, plain and TLS) are the largest code in the library — about
# 2 MB at -O3, 45 % less at -Os — and they are state machines waiting on the network, where code size matters and a
# few instructions do not. The hot paths (the gateway's JSON handling, the voice media and DAVE libraries, Opus) keep
# the build type's optimisation. Found by content, so a new transport file is covered without a list to maintain.
function(svcpp_size_optimize_beast_sources target)
  if(NOT SVCPP_SIZE_MEASURES)
    return()
  endif()
  get_target_property(sources ${target} SOURCES)
  foreach(source IN LISTS sources)
    if(source MATCHES "\\.cpp$" AND IS_ABSOLUTE ${source})
      file(STRINGS ${source} includes_beast REGEX "^#include <boost/beast" LIMIT_COUNT 1)
      if(includes_beast)
        set_property(SOURCE ${source} TARGET_DIRECTORY ${target} APPEND PROPERTY COMPILE_OPTIONS $<$<CONFIG:Release>:-Os>)
      endif()
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

# Not used: identical code folding with gold (-fuse-ld=gold -Wl,--icf=safe) saved another 0.22 MB, but gold exported
# symbols past the version script and --exclude-libs (static libstdc++'s TLS std::__once_call, and the STB_GNU_UNIQUE
# statics of Beast's and Asio's inline functions), which the abi.exported_symbols test caught: docs/binary-size.md.
