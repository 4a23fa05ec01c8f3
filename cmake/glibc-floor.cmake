# The glibc floor of the shipped Linux x64 binaries: glibc 2.28 (native/glibc-floor/glibc-2.28.c says how and why).
# svcpp_glibc_floor(<target>...): links the floor's forwarding object into each shared library, links libstdc++
# statically (so no GLIBCXX_/CXXABI_ version of the build machine's libstdc++ is required; its symbols stay hidden
# behind each target's version script and --exclude-libs), and names libpthread/libdl, where glibc < 2.34 keeps the
# functions the floor forwards to. libgcc stays shared: the static libgcc_eh of GCC 12 calls _dl_find_object (2.35).
# Off for sanitizer builds (their runtime must see the one libstdc++) and anywhere but Linux x86-64 and arm64.
option(SVCPP_GLIBC_FLOOR "Pin Linux x86-64 and arm64 shared libraries to glibc 2.28 symbol versions" ON)

function(svcpp_glibc_floor)
  if(NOT SVCPP_GLIBC_FLOOR OR SVCPP_SANITIZE OR SVCPP_TSAN OR NOT CMAKE_SYSTEM_NAME STREQUAL "Linux"
     OR NOT CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64|aarch64|arm64)$")
    return()
  endif()
  if(NOT TARGET svcpp_glibc_floor)
    add_library(svcpp_glibc_floor OBJECT ${PROJECT_SOURCE_DIR}/native/glibc-floor/glibc-2.28.c)
    # Never link-time optimised: LTO would see its svcpp_floor_* wrappers as unreferenced (the references come from
    # the symbol redirections in the other objects) and drop them, and the link fails.
    set_target_properties(svcpp_glibc_floor PROPERTIES INTERPROCEDURAL_OPTIMIZATION OFF)
    target_compile_options(svcpp_glibc_floor PRIVATE -fno-lto)
  endif()
  foreach(target IN LISTS ARGN)
    target_sources(${target} PRIVATE $<TARGET_OBJECTS:svcpp_glibc_floor>)
    target_link_options(${target} PRIVATE -static-libstdc++
      -Wl,--push-state,--no-as-needed -l:libpthread.so.0 -l:libdl.so.2 -Wl,--pop-state)
  endforeach()
endfunction()
