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
// A system no prebuild serves (macOS, musl, Windows on Arm) gets one clear paragraph instead of a compile that runs for
// minutes and fails; the install itself succeeds, and loading svcpp then throws the same message as a typed error
// (SvcppUnsupportedTargetError, lib/targets.ts). `npm install svcpp --build-from-source` still tries the compile.
if (!process.env.npm_config_build_from_source) {
  let targets;
  try {
    targets = require('../dist/cjs/lib/targets.js');
  } catch {
    targets = undefined; // a package built without dist/ (a git dependency): node-gyp-build decides alone, as before
  }
  if (targets) {
    try {
      targets.targetFor();
    } catch (error) {
      if (error?.code !== 'ERR_SVCPP_UNSUPPORTED_TARGET') throw error;
      console.warn(
        `${error.message}\nsvcpp: nothing was built; loading svcpp on this system throws ERR_SVCPP_UNSUPPORTED_TARGET.`,
      );
      process.exit(0);
    }
  }
}
const result = spawnSync(process.execPath, [require.resolve('node-gyp-build/bin.js')], { stdio: 'inherit' });
process.exit(result.status ?? 1);
