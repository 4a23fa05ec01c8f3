# node-gyp's description of the Node addon: what `prebuildify --napi` builds the prebuilds with
# (tools/make-prebuilds.mjs), and what the `install` script (node-gyp-build) builds from source when no prebuild
# matches the machine. It compiles bindings/napi like bindings/napi/CMakeLists.txt does (same definitions, same
# exports); libsvcpp.so, the C ABI the addon links, comes from CMake through scripts/build-libsvcpp.sh.
{
  "targets": [
    {
      "target_name": "libsvcpp",
      "type": "none",
      "actions": [
        {
          "action_name": "build_libsvcpp",
          "inputs": [],
          "outputs": ["<(PRODUCT_DIR)/libsvcpp.so"],
          "action": ["bash", "<(module_root_dir)/scripts/build-libsvcpp.sh", "<(PRODUCT_DIR)"],
          "message": "Building libsvcpp.so with CMake"
        }
      ]
    },
    {
      # The output name is the package's: prebuildify names its copy svcpp.glibc.node, node-gyp-build loads
      # build/Release/svcpp.node.
      "target_name": "svcpp",
      "dependencies": ["libsvcpp"],
      "sources": ["<!@(node scripts/addon-sources.cjs)"],
      "include_dirs": [
        "<!(node -p \"require('node-addon-api').include_dir\")",
        "native/include",
        "bindings/napi/src",
        "bindings/napi/generated"
      ],
      "defines": [
        "NAPI_VERSION=8",
        "NODE_ADDON_API_DISABLE_DEPRECATED",
        "NODE_API_NO_EXTERNAL_BUFFERS_ALLOWED",
        "NODE_API_SWALLOW_UNTHROWABLE_EXCEPTIONS",
        "NAPI_CPP_EXCEPTIONS"
      ],
      "cflags!": ["-fno-exceptions"],
      "cflags_cc!": ["-fno-exceptions", "-fno-rtti", "-std=gnu++17"],
      "cflags_cc": ["-std=c++20", "-fexceptions", "-fvisibility=hidden", "-fvisibility-inlines-hidden"],
      "conditions": [
        ["OS=='linux'", {
          "libraries": ["-L<(PRODUCT_DIR)", "-lsvcpp"],
          "ldflags": [
            # libsvcpp.so is found beside the addon wherever the pair is copied (RUNPATH, not the deprecated RPATH).
            "-Wl,-rpath,'$$ORIGIN'", "-Wl,--enable-new-dtags",
            "-Wl,--version-script=<(module_root_dir)/bindings/napi/addon.map"
          ]
        }],
        # The glibc floor (cmake/glibc-floor.cmake, native/glibc-floor/glibc-2.28.c): same as the CMake build.
        ["OS=='linux' and target_arch=='x64'", {
          "sources": ["native/glibc-floor/glibc-2.28.c"],
          "ldflags": ["-static-libstdc++", "-Wl,--push-state,--no-as-needed", "-l:libpthread.so.0", "-l:libdl.so.2",
                      "-Wl,--pop-state"]
        }]
      ]
    }
  ]
}
