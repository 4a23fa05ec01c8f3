// Copies the built addon and the C ABI library into prebuilds/<platform>-<arch>/ (node-gyp-build naming),
// strips them, and smoke-loads the copies. They go together: the addon loads the libsvcpp.so beside it.
// Run after `npm run build:native`: `npm run prebuilds`.
// (Not named "prebuild": npm would run it automatically before "build".)
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const release = join(root, 'build', 'Release');
const target = join(root, 'prebuilds', `${process.platform}-${process.arch}`);
// node-gyp-build: "<name>.<tags>.node"; glibc is the libc tag (musl builds are tagged .musl).
const files = [
  { from: 'svcpp_node.node', to: process.platform === 'linux' ? 'svcpp.glibc.node' : 'svcpp.node' },
  { from: 'libsvcpp.so', to: 'libsvcpp.so' },
];

for (const { from } of files) {
  if (!existsSync(join(release, from))) throw new Error(`${join(release, from)} is missing: run npm run build:native first`);
}
rmSync(target, { recursive: true, force: true });
mkdirSync(target, { recursive: true });
for (const { from, to } of files) {
  const dest = join(target, to);
  copyFileSync(join(release, from), dest);
  // Debug symbols only; the dynamic symbol table (the ABI) stays. macOS would need re-signing after strip.
  if (process.platform === 'linux') execFileSync('strip', ['--strip-unneeded', dest]);
}

// Smoke-load the copies, not the build tree (the addon's RUNPATH $ORIGIN resolves to the copied libsvcpp.so).
const addon = createRequire(import.meta.url)(join(target, files[0].to));
if (typeof addon.AuthorizationArgs_Init !== 'function') throw new Error('the copied addon does not load');
console.log(`prebuilds: ${files.map((f) => f.to).join(', ')} -> ${target}`);
