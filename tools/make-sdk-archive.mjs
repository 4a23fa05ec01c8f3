// The SDK archive for engine authors: svcpp-<version>-linux-x64.tar.gz with include/, lib/ (libsvcpp.so's SONAME
// chain, stripped), lib/cmake/svcpp/, lib/pkgconfig/svcpp.pc, examples/ and the licences. CMake's install rules
// (native/sdk/CMakeLists.txt, component svcpp_sdk) lay the tree out; this script only stages and packs it.
// Run after `npm run build:native`: `npm run sdk-archive [-- --out <dir>]` (default: the repository root).
// Prints the archive's path.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const build = join(root, 'build');
const outFlag = process.argv.indexOf('--out');
const outDir = outFlag >= 0 ? resolve(process.argv[outFlag + 1] ?? '.') : root;

if (!existsSync(join(build, 'cmake_install.cmake'))) throw new Error(`no CMake build in ${build}: run npm run build:native first`);
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
