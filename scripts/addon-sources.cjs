// The addon's C++ sources for binding.gyp: every .cpp of bindings/napi/src and bindings/napi/generated, the same
// glob bindings/napi/CMakeLists.txt uses, so the node-gyp build and the CMake build can never list different files.
const { readdirSync } = require('node:fs');
const dirs = ['bindings/napi/src', 'bindings/napi/generated'];
process.stdout.write(
  dirs
    .flatMap((dir) =>
      readdirSync(dir)
        .filter((f) => f.endsWith('.cpp'))
        .sort()
        .map((f) => `${dir}/${f}`),
    )
    .join(' '),
);
