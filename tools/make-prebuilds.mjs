// Makes prebuilds/<platform>-<arch>/ with prebuildify: the Node addon (svcpp.glibc.node on Linux, node-gyp-build's
// naming) and the libsvcpp.so it links, both stripped, then smoke-loads the copies. Run: `npm run prebuilds`.
// (Not named "prebuild": npm would run it automatically before "build".)
//
// prebuildify drives node-gyp only (it has no cmake-js backend), so it builds through binding.gyp: node-gyp compiles
// the addon, and binding.gyp's action builds libsvcpp.so with CMake (scripts/build-libsvcpp.sh). node-gyp starts by
// deleting ./build, which in a source checkout is the cmake-js tree of scripts/run.sh, so the build runs in a staged
// copy of the package's files (build-prebuild/package, exactly what `npm pack` ships) and reuses the checkout's CMake
// tree for libsvcpp.so when there is one: the core is compiled once, by the same CMakeLists.txt either way.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { claimCMakeTree, isOwnCMakeTree } from './cmake-tree.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const stage = join(root, 'build-prebuild', 'package');
const target = join(root, 'prebuilds', `${process.platform}-${process.arch}`);
const say = (line) => console.log(`prebuilds: ${line}`);

// The files npm would pack (without earlier prebuilds): binding.gyp, the addon's and the core's sources, the build
// scripts. Building from them proves the published package can build itself when no prebuild matches.
const packed = JSON.parse(
  execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8' }),
)[0];
const sources = packed.files
  .map((f) => f.path)
  .filter((path) => !path.startsWith('prebuilds/') && !path.startsWith('dist/'));
rmSync(stage, { recursive: true, force: true });
for (const path of sources) {
  mkdirSync(dirname(join(stage, path)), { recursive: true });
  cpSync(join(root, path), join(stage, path), { preserveTimestamps: true });
}
symlinkSync(join(root, 'node_modules'), join(stage, 'node_modules'));
say(`staged ${sources.length} package files in ${stage}`);

// Only a tree configured for this checkout is reused: one copied along with a moved or copied checkout would rebuild
// the original's (tools/cmake-tree.mjs). The fallback tree is configured from the staged sources.
const cmakeTree = isOwnCMakeTree(join(root, 'build'), root)
  ? join(root, 'build')
  : claimCMakeTree(join(root, 'build-prebuild', 'cmake'), stage);
const env = {
  ...process.env,
  SVCPP_CMAKE_BUILD_DIR: cmakeTree,
  CMAKE_BUILD_PARALLEL_LEVEL: process.env.CMAKE_BUILD_PARALLEL_LEVEL ?? '2',
  PREBUILD_NODE_GYP: join(root, 'node_modules', '.bin', 'node-gyp'),
  JOBS: process.env.JOBS ?? '2', // node-gyp's parallel make jobs
};
// Node's headers: those installed with this very node binary (nodesource and the official tarballs ship them under
// <prefix>/include/node), so node-gyp downloads nothing.
const prefix = dirname(dirname(process.execPath));
if (!env.npm_config_nodedir && existsSync(join(prefix, 'include', 'node', 'common.gypi')))
  env.npm_config_nodedir = prefix;
// ccache (configured by scripts/install-deps.sh) makes the repeated addon compile nearly free.
if (!env.CXX && existsSync('/usr/bin/ccache')) Object.assign(env, { CC: 'ccache cc', CXX: 'ccache c++' });

rmSync(target, { recursive: true, force: true });
say(`prebuildify --napi --strip --tag-libc (libsvcpp.so from the CMake tree ${cmakeTree})`);
execFileSync(
  process.execPath,
  [
    join(root, 'node_modules', 'prebuildify', 'bin.js'),
    '--napi',
    '--strip',
    '--tag-libc',
    `--target=${process.versions.node}`,
    `--cwd=${stage}`,
    `--out=${root}`,
  ],
  { cwd: stage, env, stdio: 'inherit' },
);

// Smoke-load the copies, not a build tree (the addon's RUNPATH $ORIGIN resolves to the copied libsvcpp.so).
const files = readdirSync(target).sort();
const addonFile = files.find((name) => name.endsWith('.node'));
if (!addonFile || !files.includes('libsvcpp.so')) throw new Error(`prebuildify left ${files.join(', ')} in ${target}`);
const addon = createRequire(import.meta.url)(join(target, addonFile));
if (typeof addon.AuthorizationArgs_Init !== 'function') throw new Error('the prebuilt addon does not load');
say(`${files.join(', ')} -> ${target}`);
