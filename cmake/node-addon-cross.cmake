# The Node addon of a cross target (win32-x64 with MinGW-w64, linux-arm64 with the aarch64 cross compiler), built
# without cmake-js (which drives the host's compiler and would download Node's headers and node.lib): the variables
# cmake-js would set, from what node_modules already holds, then bindings/napi as on the host.
#   headers         node-api-headers (js_native_api.h, node_api.h) and node-addon-api (napi.h)
#   import library  (Windows only: a Linux addon leaves Node's symbols undefined, resolved as node loads it) a
#                   Windows addon imports its Node-API functions from the executable that loads it. dlltool makes
#                   that import library from node-api-headers' def/node_api.def, naming node.exe (-D), so nothing is
#                   downloaded. The addon also calls a few libuv functions (src/client_pump.cpp's wakeup handle),
#                   which node.exe exports too but node_api.def does not list: bindings/napi/node-uv-win32.def.
#                   Both are delay-import libraries (--output-delaylib): bindings/napi/win32/host_delay_load_hook.cpp
#                   binds "node.exe" to whatever executable loaded the addon (Electron's, a launcher's), as node-gyp's
#                   win_delay_load_hook does for MSVC-built addons.
#   uv.h            the host's libuv header (Debian libuv1-dev: uv.h picks uv/win.h under _WIN32), through a
#                   directory of links, never -isystem /usr/include (cmake/dependencies.cmake says why).
# The addon finds svcpp.dll beside itself: Node loads addons with LOAD_WITH_ALTERED_SEARCH_PATH, which searches the
# addon's own directory for the DLLs it imports; on Linux it finds libsvcpp.so through its RUNPATH $ORIGIN.
set(_svcpp_node_modules ${PROJECT_SOURCE_DIR}/node_modules)
if(NOT EXISTS ${_svcpp_node_modules}/node-api-headers/def/node_api.def OR NOT EXISTS ${_svcpp_node_modules}/node-addon-api/napi.h)
  message(FATAL_ERROR "The cross-built addon needs node-api-headers and node-addon-api in ${_svcpp_node_modules} (npm ci)")
endif()

set(_svcpp_import_libs)
if(WIN32)
  set(_svcpp_import_dir ${CMAKE_BINARY_DIR}/_deps/node-import)
  foreach(def ${_svcpp_node_modules}/node-api-headers/def/node_api.def ${PROJECT_SOURCE_DIR}/bindings/napi/node-uv-win32.def)
    get_filename_component(name ${def} NAME_WE)
    set(lib ${_svcpp_import_dir}/lib${name}.a)
    add_custom_command(OUTPUT ${lib}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${_svcpp_import_dir}
      COMMAND ${CMAKE_DLLTOOL} -d ${def} --output-delaylib ${lib} -D node.exe
      DEPENDS ${def} COMMENT "Delay-import library of node.exe: ${name}" VERBATIM)
    list(APPEND _svcpp_import_libs ${lib})
  endforeach()
  add_custom_target(svcpp_node_import_libs DEPENDS ${_svcpp_import_libs})
endif()

set(_svcpp_uv_headers ${CMAKE_BINARY_DIR}/_deps/uv-headers)
foreach(entry uv.h uv)
  if(NOT EXISTS ${_svcpp_uv_headers}/${entry})
    file(MAKE_DIRECTORY ${_svcpp_uv_headers})
    file(CREATE_LINK /usr/include/${entry} ${_svcpp_uv_headers}/${entry} SYMBOLIC)
  endif()
endforeach()
set(SVCPP_UV_INCLUDE_DIR ${_svcpp_uv_headers} CACHE PATH "libuv's header for the cross-built addon" FORCE)

set(CMAKE_JS_INC ${_svcpp_node_modules}/node-api-headers/include ${_svcpp_node_modules}/node-addon-api)
set(CMAKE_JS_SRC "")
set(CMAKE_JS_LIB ${_svcpp_import_libs})
add_subdirectory(bindings/napi)
if(WIN32)
  add_dependencies(svcpp_node svcpp_node_import_libs)
endif()
