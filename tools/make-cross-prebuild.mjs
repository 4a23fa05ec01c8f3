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
const SIZE_BUDGET = 6 * MB; // per stripped binary, as test/binary-size.test.ts counts it (docs/binary-size.md)
const say = (line) => console.log(`cross-prebuild: ${line}`);

/** Strips `from` into `to` with the target's strip and checks the result against the size budget. */
function stripInto(strip, from, to) {
  execFileSync(strip, ['--strip-unneeded', '-o', to, from]);
  const size = statSync(to).size;
  if (size > SIZE_BUDGET) throw new Error(`${to} is ${size} bytes stripped, over the ${SIZE_BUDGET}-byte budget`);
  say(`${to} ${(size / MB).toFixed(2)} MB stripped`);
}

/**
 * What each target's prebuild holds, from <build>/Release (where both cross trees put the addon, svcpp_node.node by
 * its CMake target's name, and the C ABI library):
 * - win32-x64: `svcpp.node`, prebuildify's name for an N-API addon — the Linux prebuilds' `svcpp.glibc.node` without
 *   the C-library tag, which only Linux has (node-gyp-build matches either on win32) — and svcpp.dll, which keeps its
 *   name: the addon imports it by that name from its own directory, and koffi opens it there;
 * - linux-arm64: the names of the linux-x64 prebuild (tools/make-prebuilds.mjs), `svcpp.glibc.node` (the tag
 *   node-gyp-build matches on glibc) and libsvcpp.so, which the addon finds through its RUNPATH $ORIGIN.
 */
const TARGETS = {
  'win32-x64': { strip: 'x86_64-w64-mingw32-strip', addon: 'svcpp.node', library: 'svcpp.dll' },
  'linux-arm64': { strip: 'aarch64-linux-gnu-strip', addon: 'svcpp.glibc.node', library: 'libsvcpp.so' },
};

/** Builds the addon and the library unless told not to, strips them into `out`, smoke-loads them there. */
function make(target, build, out, { noBuild }) {
  const { strip, addon, library } = TARGETS[target];
  const release = join(build, 'Release');
  if (!noBuild) execFileSync('cmake', ['--build', build, '--target', 'svcpp', 'svcpp_node'], { stdio: 'inherit' });
  stripInto(strip, join(release, 'svcpp_node.node'), join(out, addon));
  stripInto(strip, join(release, library), join(out, library));
  // Under the target's emulator, with the target's Node: node-gyp-build loads the addon, koffi the library.
  execFileSync(process.execPath, [join(root, 'native', 'tests', 'cross-smoke.mjs'), target, out], { stdio: 'inherit' });
}

const { values } = parseArgs({
  options: { target: { type: 'string' }, build: { type: 'string' }, 'no-build': { type: 'boolean' } },
});
if (!TARGETS[values.target])
  throw new Error(
    `usage: make-cross-prebuild.mjs --target <${Object.keys(TARGETS).join('|')}> [--build <dir>] [--no-build]`,
  );
const build = resolve(values.build ?? join(root, `build-${values.target}`));
const out = join(root, 'prebuilds', values.target);
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
make(values.target, build, out, { noBuild: values['no-build'] ?? false });
say(`${readdirSync(out).sort().join(', ')} -> ${out}`);
