// The SDK archive for engine authors: svcpp-<version>-linux-x64.tar.gz with include/, lib/ (libsvcpp.so's SONAME
// chain, stripped), lib/cmake/svcpp/, lib/pkgconfig/svcpp.pc, examples/ and the licences. CMake's install rules
// (native/sdk/CMakeLists.txt, component svcpp_sdk) lay the tree out; this script only stages and packs it.
// `npm run sdk-archive [-- --out <dir>]` (default: the repository root) builds what the install step installs (the
// svcpp_sdk target, in the cmake-js tree build/ that `npm run demo` and `npm test` use, configuring it when there is
// none) and prints the archive's path.
// `--target win32-x64|linux-arm64`: a cross target's archive from its tree build-<target>/ (scripts/build-target.sh
// configures it): svcpp-<version>-windows-x64.zip (bin/svcpp.dll, lib/svcpp.lib for MSVC, lib/libsvcpp.dll.a for
// MinGW, the CMake package) or svcpp-<version>-linux-arm64.tar.gz (as the x64 one).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { claimCMakeTree } from './cmake-tree.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const flag = (name) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
};
const outDir = resolve(flag('--out') ?? root);
const target = flag('--target');
/** What differs per target: its CMake tree, the archive's system name (engines say windows), how it is packed. */
const CROSS = {
  'win32-x64': { system: 'windows-x64', format: 'zip' },
  'linux-arm64': { system: 'linux-arm64', format: 'tar.gz' },
};
if (target !== undefined && !CROSS[target])
  throw new Error(`svcpp: --target is one of ${Object.keys(CROSS).join(', ')}`);
const build = join(root, target ? `build-${target}` : 'build');

if (target) {
  // The cross tree scripts/build-target.sh made; the install step needs svcpp_sdk built in it.
  if (!existsSync(join(build, 'CMakeCache.txt')))
    throw new Error(`svcpp: no ${build}; run: bash scripts/build-target.sh ${target}`);
  execFileSync('cmake', ['--build', build, '--target', 'svcpp_sdk'], { stdio: ['ignore', 2, 'inherit'] });
} else {
  // The install rules copy files and build nothing: after `npm run demo` (which builds only the addon and what it
  // links) build/sdk/ is empty and `cmake --install` would fail on the missing libsvcpp.so.<major>.<minor>.
  claimCMakeTree(build, root);
  execFileSync(
    process.execPath,
    [
      join(root, 'node_modules', 'cmake-js', 'bin', 'cmake-js'),
      'compile',
      '--log-level',
      'warn',
      '--parallel',
      process.env.CMAKE_BUILD_PARALLEL_LEVEL ?? '2',
      '--out',
      build,
      '--target',
      'svcpp_sdk',
    ],
    { cwd: root, stdio: ['ignore', 2, 'inherit'] },
  ); // stdout is the archive's path alone
}
if (!existsSync(join(build, 'cmake_install.cmake')))
  throw new Error(`svcpp: no CMake build in ${build} after building svcpp_sdk`);
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
// The name says which system and CPU the binary is for.
const name = `svcpp-${version}-${target ? CROSS[target].system : `${process.platform}-${process.arch}`}`;
const format = target ? CROSS[target].format : 'tar.gz';
const archive = join(outDir, `${name}.${format}`);

const stage = mkdtempSync(join(tmpdir(), 'svcpp-sdk-'));
try {
  // --strip: debug symbols go, the dynamic symbol table (the ABI) stays. The install fails if svcpp_sdk is unbuilt.
  execFileSync('cmake', ['--install', build, '--component', 'svcpp_sdk', '--prefix', join(stage, name), '--strip'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  // One top folder named like the archive; symlinks stay symlinks (the SONAME chain); no owner names from this machine.
  // Windows has no symlinks to keep (the DLL is one file): a zip, which every Windows tool opens.
  rmSync(archive, { force: true });
  if (format === 'zip') execFileSync('zip', ['-q', '-r', '-X', archive, name], { cwd: stage });
  else
    execFileSync('tar', [
      '-czf',
      archive,
      '--owner=0',
      '--group=0',
      '--numeric-owner',
      '--sort=name',
      '-C',
      stage,
      name,
    ]);
} finally {
  rmSync(stage, { recursive: true, force: true });
}
console.log(archive);
