// npm's `install` script: node-gyp-build — it loads a prebuild that matches this machine (prebuilds/<platform>-<arch>/)
// and compiles nothing; only when none matches does it build from source (node-gyp rebuild over binding.gyp, which
// needs a C++ toolchain, CMake and the libraries README.md lists).
// Skipped when npm installs svcpp's own checkout as the root project (INIT_CWD is the package itself): there
// scripts/run.sh builds with cmake-js into build/, which a node-gyp build would take over.
'use strict';
const { spawnSync } = require('node:child_process');
const { resolve } = require('node:path');

if (process.env.INIT_CWD && resolve(process.env.INIT_CWD) === resolve(__dirname, '..')) {
  console.log('svcpp: source checkout, native build left to scripts/run.sh (npm run demo / npm test)');
  process.exit(0);
}
const result = spawnSync(process.execPath, [require.resolve('node-gyp-build/bin.js')], { stdio: 'inherit' });
process.exit(result.status ?? 1);
