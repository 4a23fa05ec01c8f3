// The SDK archive for engine authors: svcpp-<version>-linux-x64.tar.gz with include/, lib/ (libsvcpp.so's SONAME
// chain, stripped), lib/cmake/svcpp/, lib/pkgconfig/svcpp.pc, examples/ and the licences. CMake's install rules
// (native/sdk/CMakeLists.txt, component svcpp_sdk) lay the tree out; this script only stages and packs it.
// `npm run sdk-archive [-- --out <dir>]` (default: the repository root) builds what the install step installs (the
// svcpp_sdk target, in the cmake-js tree build/ that `npm run demo` and `npm test` use, configuring it when there is
// none) and prints the archive's path.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { claimCMakeTree } from './cmake-tree.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const build = join(root, 'build');
const outFlag = process.argv.indexOf('--out');
const outDir = outFlag >= 0 ? resolve(process.argv[outFlag + 1] ?? '.') : root;

// The install rules copy files and build nothing: after `npm run demo` (which builds only the addon and what it
// links) build/sdk/ is empty and `cmake --install` would fail on the missing libsvcpp.so.<major>.<minor>.
claimCMakeTree(build, root);
execFileSync(process.execPath, [join(root, 'node_modules', 'cmake-js', 'bin', 'cmake-js'), 'compile', '--log-level', 'warn',
  '--parallel', process.env.CMAKE_BUILD_PARALLEL_LEVEL ?? '2', '--out', build, '--target', 'svcpp_sdk'],
{ cwd: root, stdio: ['ignore', 2, 'inherit'] }); // stdout is the archive's path alone
if (!existsSync(join(build, 'cmake_install.cmake'))) throw new Error(`svcpp: no CMake build in ${build} after building svcpp_sdk`);
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
// Only linux-x64 is built today; the name says which ABI the binary is for.
const name = `svcpp-${version}-${process.platform}-${process.arch}`;
const archive = join(outDir, `${name}.tar.gz`);

const stage = mkdtempSync(join(tmpdir(), 'svcpp-sdk-'));
try {
  // --strip: debug symbols go, the dynamic symbol table (the ABI) stays. The install fails if svcpp_sdk is unbuilt.
  execFileSync('cmake', ['--install', build, '--component', 'svcpp_sdk', '--prefix', join(stage, name), '--strip'],
    { stdio: ['ignore', 'ignore', 'inherit'] });
  // One top folder named like the archive; symlinks stay symlinks (the SONAME chain); no owner names from this machine.
  execFileSync('tar', ['-czf', archive, '--owner=0', '--group=0', '--numeric-owner', '--sort=name', '-C', stage, name]);
} finally {
  rmSync(stage, { recursive: true, force: true });
}
console.log(archive);
