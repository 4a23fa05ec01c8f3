// Makes prebuilds/<target>/ for a cross target (docs/platforms.md) from its CMake tree, build-<target>/
// (scripts/build-target.sh): the addon and the C ABI library, stripped, named as node-gyp-build looks them up, each
// within the package's per-binary size budget; then smoke-loads the copies under the target's emulator.
// Usage: node tools/make-cross-prebuild.mjs --target <win32-x64|linux-arm64> [--build <CMake tree>] [--no-build]
//   --no-build  take the tree's binaries as they are (built already, e.g. by scripts/test-target.sh)
// (tools/make-prebuilds.mjs makes the host's linux-x64 prebuild with prebuildify, which cannot cross-compile.)
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const MB = 1_000_000;
const SIZE_BUDGET = 6 * MB; // per stripped binary, as test/binary-size.test.ts counts it (issue 42, "Packaging")
const say = (line) => console.log(`cross-prebuild: ${line}`);

/** Strips `from` into `to` with the target's strip and checks the result against the size budget. */
function stripInto(strip, from, to) {
  execFileSync(strip, ['--strip-unneeded', '-o', to, from]);
  const size = statSync(to).size;
  if (size > SIZE_BUDGET) throw new Error(`${to} is ${size} bytes stripped, over the ${SIZE_BUDGET}-byte budget`);
  say(`${to} ${(size / MB).toFixed(2)} MB stripped`);
}

/** Builds the addon and the library in `build` unless told not to; smoke-loads `out` under the target's emulator. */
const buildShipped = (build) => execFileSync('cmake', ['--build', build, '--target', 'svcpp', 'svcpp_node'], { stdio: 'inherit' });
const smoke = (target, out) =>
  execFileSync(process.execPath, [join(root, 'native', 'tests', 'cross-smoke.mjs'), target, out], { stdio: 'inherit' });

/**
 * win32-x64: svcpp_node.node (the CMake target's name) and svcpp.dll from <build>/Release (where the win32 tree puts
 * every runtime artifact). The addon's name is prebuildify's for an N-API addon, `<package>.node` — the linux
 * prebuilds' `svcpp.glibc.node` without the C-library tag, which only Linux has; node-gyp-build matches either on
 * win32. svcpp.dll keeps its name: the addon imports it by that name from its own directory, and koffi opens it there.
 */
function win32X64(build, out, { noBuild }) {
  const release = join(build, 'Release');
  if (!noBuild) buildShipped(build);
  stripInto('x86_64-w64-mingw32-strip', join(release, 'svcpp_node.node'), join(out, 'svcpp.node'));
  stripInto('x86_64-w64-mingw32-strip', join(release, 'svcpp.dll'), join(out, 'svcpp.dll'));
  smoke('win32-x64', out);
}

/**
 * linux-arm64: the names of the linux-x64 prebuild (tools/make-prebuilds.mjs) — `svcpp.glibc.node`, prebuildify's
 * name with the C-library tag node-gyp-build matches on glibc, and libsvcpp.so, which the addon finds through its
 * RUNPATH $ORIGIN and koffi opens beside it.
 */
function linuxArm64(build, out, { noBuild }) {
  const release = join(build, 'Release');
  if (!noBuild) buildShipped(build);
  stripInto('aarch64-linux-gnu-strip', join(release, 'svcpp_node.node'), join(out, 'svcpp.glibc.node'));
  stripInto('aarch64-linux-gnu-strip', join(release, 'libsvcpp.so'), join(out, 'libsvcpp.so'));
  smoke('linux-arm64', out);
}

const TARGETS = { 'win32-x64': win32X64, 'linux-arm64': linuxArm64 };

const { values } = parseArgs({ options: { target: { type: 'string' }, build: { type: 'string' }, 'no-build': { type: 'boolean' } } });
const make = TARGETS[values.target];
if (!make) throw new Error(`usage: make-cross-prebuild.mjs --target <${Object.keys(TARGETS).join('|')}> [--build <dir>] [--no-build]`);
const build = resolve(values.build ?? join(root, `build-${values.target}`));
const out = join(root, 'prebuilds', values.target);
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
make(build, out, { noBuild: values['no-build'] ?? false });
say(`${readdirSync(out).sort().join(', ')} -> ${out}`);
