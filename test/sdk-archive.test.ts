/**
 * The SDK archive for engine authors (tools/make-sdk-archive.mjs): made from the real build, extracted into an
 * empty folder, then consumed the two ways engines build — CMake's find_package and pkg-config — by a C99 program
 * (the archive's own examples/quickstart.c) and a C++17 one (fixtures/sdk-consumer), which run against the archived
 * library. Also: the SONAME chain, the stripped exports, svcpp.h's hygiene and the licences of everything linked in.
 * The script builds the svcpp_sdk target itself (it runs after `npm run demo` too, which does not build it).
 */
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withPackageLock } from './pack/package.js';
import { linkedComponents } from './support/linked-components.js';
import { noticeRows } from './support/third-party-notices.js';
import { abi, consumerOutput } from './support/sdk-consumer.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
const header = readFileSync(join(root, 'native/include/svcpp.h'), 'utf8');
const soname = `libsvcpp.so.${abi('MAJOR')}`;
const expectedOutput = consumerOutput(version);

const work = mkdtempSync(join(tmpdir(), 'svcpp-sdk-archive-'));
const sdk = join(work, 'extracted', `svcpp-${version}-linux-x64`);
afterAll(() => rmSync(work, { recursive: true, force: true }));

const run = (cmd: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) =>
  execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...options });
const dynamicTags = (file: string, tag: string) =>
  [...run('readelf', ['-d', file]).matchAll(new RegExp(`\\(${tag}\\)\\s+.*\\[(.*)\\]`, 'g'))].map((m) => m[1]);

/** A consumer project in a fresh folder: the fixture's files plus the archive's C example. */
function consumerProject(name: string): string {
  const dir = join(work, name);
  cpSync(join(root, 'test/fixtures/sdk-consumer'), dir, { recursive: true });
  copyFileSync(join(sdk, 'examples/quickstart.c'), join(dir, 'quickstart.c'));
  return dir;
}

beforeAll(() => {
  // As `npm run demo` leaves the tree: the addon and libsvcpp.so built, the engine SDK's library (build/sdk/) not.
  // The archive script must build it itself (issue 40, item 11: `file INSTALL cannot find … libsvcpp.so.1.0`).
  const archive = withPackageLock(() => {
    rmSync(join(root, 'build', 'sdk'), { recursive: true, force: true });
    return run(process.execPath, [join(root, 'tools/make-sdk-archive.mjs'), '--out', work]).trim();
  });
  expect(basename(archive)).toBe(`svcpp-${version}-linux-x64.tar.gz`);
  mkdirSync(join(work, 'extracted'));
  run('tar', ['-xzf', archive, '-C', join(work, 'extracted')]);
}, 900_000); // linking svcpp_sdk (LTO) takes minutes on a loaded 2-core machine

describe('the SDK archive', () => {
  it('holds the headers, a SONAME chain of the stripped library, the CMake and pkg-config files and the examples', () => {
    for (const file of [
      'include/svcpp.h',
      'include/svcpp.hpp',
      'lib/cmake/svcpp/svcpp-config.cmake',
      'lib/cmake/svcpp/svcpp-config-version.cmake',
      'lib/pkgconfig/svcpp.pc',
      'examples/quickstart.c',
      'examples/provisional_login.cpp',
      'examples/lobby_chat.cpp',
      'examples/reference_style_friends.cpp',
    ]) {
      expect(existsSync(join(sdk, file)), file).toBe(true);
    }
    expect(readFileSync(join(sdk, 'include/svcpp.h'), 'utf8')).toBe(header);
    // libsvcpp.so (for the linker) -> libsvcpp.so.<abi major> (the SONAME, what programs load) -> the file.
    const lib = join(sdk, 'lib');
    expect(readlinkSync(join(lib, 'libsvcpp.so'))).toBe(soname);
    expect(readlinkSync(join(lib, soname))).toBe(`${soname}.${abi('MINOR')}`);
    const file = join(lib, `${soname}.${abi('MINOR')}`);
    expect(statSync(file).isFile()).toBe(true);
    expect(dynamicTags(file, 'SONAME')).toEqual([soname]);
    // Stripped of its symbol table, but the dynamic one (the ABI) is exactly the committed export list.
    expect(run('readelf', ['-S', '-W', file])).not.toContain('.symtab');
    const exported = run('nm', ['-D', '--defined-only', file])
      .split('\n')
      .filter(Boolean)
      .map((l) => l.split(' ').pop())
      .sort();
    const committed = readFileSync(join(root, 'native/capi/exported-symbols.txt'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .sort();
    expect(exported).toEqual(committed);
  });

  it('builds and runs a C99 and a C++17 consumer with find_package(svcpp) from anywhere it is extracted', () => {
    const project = consumerProject('cmake-consumer');
    const build = join(project, 'build');
    run('cmake', ['-S', project, '-B', build, '-G', 'Ninja', `-DCMAKE_PREFIX_PATH=${sdk}`]);
    // The package found is the extracted one, not a build tree or a system copy.
    expect(readFileSync(join(build, 'CMakeCache.txt'), 'utf8')).toContain(
      `svcpp_DIR:PATH=${join(sdk, 'lib/cmake/svcpp')}`,
    );
    run('cmake', ['--build', build]);
    for (const program of ['consumer_c', 'consumer_cpp']) {
      const binary = join(build, program);
      expect(dynamicTags(binary, 'NEEDED')).toContain(soname);
      // CMake gives build-tree binaries an RPATH to the imported library's folder: no environment needed.
      expect(run(binary, []).trim()).toBe(expectedOutput);
    }
  });

  it('builds and runs the same consumers with pkg-config (a relocatable svcpp.pc)', () => {
    const project = consumerProject('pkg-config-consumer');
    const env = { ...process.env, PKG_CONFIG_PATH: join(sdk, 'lib/pkgconfig') };
    expect(run('pkg-config', ['--modversion', 'svcpp'], { env }).trim()).toBe(version);
    const flags = run('pkg-config', ['--cflags', '--libs', 'svcpp'], { env }).trim().split(/\s+/);
    expect(flags.slice(0, 2).map((flag) => realpathSync(flag.slice(2)))).toEqual([
      join(sdk, 'include'),
      join(sdk, 'lib'),
    ]);
    const strict = ['-Wall', '-Wextra', '-pedantic', '-Werror'];
    run('cc', ['-std=c99', ...strict, join(project, 'quickstart.c'), ...flags, '-o', join(project, 'consumer_c')]);
    run('c++', ['-std=c++17', ...strict, join(project, 'consumer.cpp'), ...flags, '-o', join(project, 'consumer_cpp')]);
    const runEnv = { ...process.env, LD_LIBRARY_PATH: join(sdk, 'lib') };
    for (const program of ['consumer_c', 'consumer_cpp']) {
      expect(dynamicTags(join(project, program), 'NEEDED')).toContain(soname);
      expect(run(join(project, program), [], { env: runEnv }).trim()).toBe(expectedOutput);
    }
  });

  it('ships LICENSE and a notice for every library compiled into its libsvcpp', () => {
    expect(readFileSync(join(sdk, 'LICENSE'), 'utf8')).toBe(readFileSync(join(root, 'LICENSE'), 'utf8'));
    const rows = noticeRows(join(sdk, 'THIRD_PARTY_NOTICES.md'));
    // The archived library's own link (build.ninja output of svcpp_sdk), not the npm package's.
    const target = `sdk/${basename(realpathSync(join(root, 'build/sdk/libsvcpp.so')))}`;
    const components = linkedComponents(join(root, 'build'), [target]);
    // OpenSSL and Opus are built for svcpp from Debian's source packages, unpacked in the build's cache
    // (openssl-3.0.x).
    expect(components.map((c) => c.name)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^openssl-3\./), 'opus-1.3.1']),
    );
    for (const { name } of components) {
      expect(rows.get(name), `THIRD_PARTY_NOTICES.md row for ${name}`).toBeTruthy();
      const notice = join(sdk, rows.get(name)!);
      expect(existsSync(notice) && statSync(notice).size > 0, `${name}: ${rows.get(name)}`).toBe(true);
    }
  });
});

describe("the archive's svcpp.h", () => {
  it('declares no reserved identifier (none with __, none starting with _ and a capital)', () => {
    const code = readFileSync(join(sdk, 'include/svcpp.h'), 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, ' ')
      .replace(/\/\/.*$/gm, ' ')
      .replace(/"(?:\\.|[^"\\])*"/g, '""');
    const reserved = new Set(
      [...code.matchAll(/\b[A-Za-z_]\w*\b/g)].map((m) => m[0]).filter((id) => /__|^_[A-Z_]/.test(id)),
    );
    // Only the compiler's and platform's own names may appear, used (tested or applied) and never defined.
    const implementationNames = ['_WIN32', '__attribute__', '__cdecl', '__cplusplus', '__declspec'];
    expect([...reserved].filter((id) => !implementationNames.includes(id))).toEqual([]);
    expect(code).not.toMatch(/#\s*define\s+(_[A-Z_]|\w*__)/);
  });

  it('compiles alone under -std=c99 -pedantic -Wall -Wextra -Werror', () => {
    const unit = join(work, 'header-alone.c');
    writeFileSync(unit, '#include "svcpp.h"\n');
    run('cc', [
      '-std=c99',
      '-pedantic',
      '-Wall',
      '-Wextra',
      '-Werror',
      '-fsyntax-only',
      `-I${join(sdk, 'include')}`,
      unit,
    ]);
  });
});
