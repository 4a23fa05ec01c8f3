# Windows x64 with Debian's MinGW-w64 (package mingw-w64), the posix thread model: std::thread, std::mutex and
# std::condition_variable need it (the win32 model of GCC 12 has none), and its winpthread is linked statically into
# svcpp.dll (native/capi/CMakeLists.txt), so the DLL needs only Windows' own DLLs.
#   cmake -S . -B build-win32-x64 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/win32-x64.cmake   (scripts/build-target.sh)
# Tests run under Wine through CMAKE_CROSSCOMPILING_EMULATOR (scripts/wine-run.sh).
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR AMD64)
set(SVCPP_TARGET win32-x64)

set(CMAKE_C_COMPILER x86_64-w64-mingw32-gcc-posix)
set(CMAKE_CXX_COMPILER x86_64-w64-mingw32-g++-posix)
set(CMAKE_RC_COMPILER x86_64-w64-mingw32-windres)
set(CMAKE_AR x86_64-w64-mingw32-gcc-ar-posix CACHE FILEPATH "")
set(CMAKE_RANLIB x86_64-w64-mingw32-gcc-ranlib-posix CACHE FILEPATH "")
set(CMAKE_OBJCOPY x86_64-w64-mingw32-objcopy CACHE FILEPATH "")
set(CMAKE_DLLTOOL x86_64-w64-mingw32-dlltool CACHE FILEPATH "")

# Libraries and headers of the target: MinGW's sysroot and this target's dependency cache (OpenSSL, libsodium built
# by scripts/build-target.sh into ~/.cache/svcpp/win32-x64). The host's header-only libraries (Boost, nlohmann) are
# shared by every target: their directories are searched too, but never the host's libraries.
set(SVCPP_CACHE_DIR "$ENV{HOME}/.cache/svcpp" CACHE PATH "Where third-party sources are unpacked")
set(CMAKE_FIND_ROOT_PATH /usr/x86_64-w64-mingw32 ${SVCPP_CACHE_DIR}/win32-x64/prefix)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)

# Test programs run under Wine (the prefix, stdout through a file: scripts/wine-run.sh).
get_filename_component(_svcpp_root "${CMAKE_CURRENT_LIST_DIR}/../.." ABSOLUTE)
set(CMAKE_CROSSCOMPILING_EMULATOR ${_svcpp_root}/scripts/wine-run.sh)

# The host's header-only packages, shared by every target (cmake/dependencies.cmake links just their headers).
set(Boost_DIR /usr/lib/x86_64-linux-gnu/cmake/Boost-1.81.0 CACHE PATH "")
set(nlohmann_json_DIR /usr/share/cmake/nlohmann_json CACHE PATH "")

# Test programs and examples are linked like svcpp.dll: -static, so they run under Wine without MinGW's runtime DLLs
# (libstdc++-6, libgcc_s_seh-1, libwinpthread-1) on its path.
set(CMAKE_EXE_LINKER_FLAGS_INIT -static)

# No link-time optimisation of svcpp.dll (cmake/binary-size.cmake's SVCPP_SHIPPED_LTO): MinGW-w64's GCC 12 stops
# with an internal compiler error in its LTO pass over the core ("in binds_to_current_def_p, at symtab.cc:2494", in
# libstdc++'s and Asio's inline templates). The DLL is linked from the same per-file -O3/-O2/-Os objects instead.
set(SVCPP_SHIPPED_LTO OFF CACHE BOOL "Release: link-time optimisation of the shipped libraries (off: MinGW GCC 12 ICE)")
