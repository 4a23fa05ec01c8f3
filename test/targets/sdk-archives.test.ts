/**
 * The engine SDK archives of the cross targets (tools/make-sdk-archive.mjs --target): svcpp-<v>-windows-x64.zip and
 * svcpp-<v>-linux-arm64.tar.gz, made from the target's tree (scripts/build-target.sh), extracted into an empty folder
 * and consumed as an engine's build would: a C99 program (the archive's examples/quickstart.c) and a C++17 one
 * (test/fixtures/sdk-consumer) through CMake's find_package with the target's cross compiler — and on arm64 through
 * pkg-config too — then run under Wine (the DLL beside the program, as a game ships it) and qemu-user.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { root, withPackageLock } from '../pack/package.js';
import { abi, consumerOutput } from '../support/sdk-consumer.js';

const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
const expectedOutput = consumerOutput(version);

const work = mkdtempSync(join(tmpdir(), 'svcpp-cross-sdk-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const run = (cmd: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) =>
  execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...options });
/** A program's output as Wine or qemu hands it back (a Windows program writes CRLF). */
const lines = (text: string) => text.replaceAll('\r\n', '\n').trim();

/** Makes the target's archive, extracts it into an empty folder, returns the SDK's folder. */
function extractedSdk(target: 'win32-x64' | 'linux-arm64', file: string): string {
  const archive = withPackageLock(() =>
    run(process.execPath, [join(root, 'tools/make-sdk-archive.mjs'), '--target', target, '--out', work]).trim(),
  );
  expect(basename(archive)).toBe(file);
  const into = join(work, `extracted-${target}`);
  mkdirSync(into);
  if (file.endsWith('.zip')) run('unzip', ['-q', archive, '-d', into]);
  else run('tar', ['-xzf', archive, '-C', into]);
  return join(into, file.replace(/\.(zip|tar\.gz)$/, ''));
}

/** The consumer fixture with the archive's C example, configured for `target` against `sdk` and built. */
function buildConsumers(target: string, sdk: string): string {
  const project = join(work, `consumer-${target}`);
  cpSync(join(root, 'test/fixtures/sdk-consumer'), project, { recursive: true });
  copyFileSync(join(sdk, 'examples/quickstart.c'), join(project, 'quickstart.c'));
  const build = join(project, 'build');
  run('cmake', [
    '-S',
    project,
    '-B',
    build,
    '-G',
    'Ninja',
    `-DCMAKE_TOOLCHAIN_FILE=${join(root, 'cmake/toolchains', `${target}.cmake`)}`,
    `-DCMAKE_PREFIX_PATH=${sdk}`,
  ]);
  // The package found is the extracted one, not a build tree.
  expect(readFileSync(join(build, 'CMakeCache.txt'), 'utf8')).toContain(
    `svcpp_DIR:PATH=${join(sdk, 'lib/cmake/svcpp')}`,
  );
  run('cmake', ['--build', build]);
  return build;
}

describe('the Windows x64 SDK archive', () => {
  it('holds svcpp.dll, both import libraries and the CMake package; its C99 and C++17 consumers run under Wine', () => {
    const sdk = extractedSdk('win32-x64', `svcpp-${version}-windows-x64.zip`);
    for (const file of [
      'bin/svcpp.dll',
      'lib/svcpp.lib',
      'lib/libsvcpp.dll.a',
      'include/svcpp.h',
      'include/svcpp.hpp',
      'lib/cmake/svcpp/svcpp-config.cmake',
      'examples/quickstart.c',
      'LICENSE',
      'THIRD_PARTY_NOTICES.md',
    ]) {
      expect(existsSync(join(sdk, file)), file).toBe(true);
    }
    // The archive's DLL exports exactly the committed list and imports only Windows' own DLLs.
    run('bash', [
      join(root, 'native/tests/check-dll.sh'),
      join(sdk, 'bin/svcpp.dll'),
      join(root, 'native/capi/exported-symbols.txt'),
    ]);
    const build = buildConsumers('win32-x64', sdk);
    // As a game ships it: svcpp.dll beside the program (Windows looks there first).
    copyFileSync(join(sdk, 'bin/svcpp.dll'), join(build, 'svcpp.dll'));
    for (const program of ['consumer_c.exe', 'consumer_cpp.exe']) {
      expect(lines(run('bash', [join(root, 'scripts/wine-run.sh'), join(build, program)])), program).toBe(
        expectedOutput,
      );
    }
  }, 600_000);
});

describe('the Linux arm64 SDK archive', () => {
  const qemu = (program: string, libDir: string) =>
    run('qemu-aarch64', ['-L', '/usr/aarch64-linux-gnu', '-E', `LD_LIBRARY_PATH=${libDir}`, program]);

  it('builds and runs its C99 and C++17 consumers with find_package and with pkg-config under qemu-user', () => {
    const sdk = extractedSdk('linux-arm64', `svcpp-${version}-linux-arm64.tar.gz`);
    expect(
      run('aarch64-linux-gnu-readelf', ['-d', join(sdk, `lib/libsvcpp.so.${abi('MAJOR')}.${abi('MINOR')}`)]),
    ).toContain(`[libsvcpp.so.${abi('MAJOR')}]`);
    const build = buildConsumers('linux-arm64', sdk);
    for (const program of ['consumer_c', 'consumer_cpp']) {
      expect(lines(qemu(join(build, program), join(sdk, 'lib'))), `find_package: ${program}`).toBe(expectedOutput);
    }
    const project = join(work, 'consumer-linux-arm64');
    const env = { ...process.env, PKG_CONFIG_PATH: join(sdk, 'lib/pkgconfig') };
    const flags = run('pkg-config', ['--cflags', '--libs', 'svcpp'], { env }).trim().split(/\s+/);
    const strict = ['-Wall', '-Wextra', '-pedantic', '-Werror'];
    run('aarch64-linux-gnu-gcc', [
      '-std=c99',
      ...strict,
      join(project, 'quickstart.c'),
      ...flags,
      '-o',
      join(project, 'pc_c'),
    ]);
    run('aarch64-linux-gnu-g++', [
      '-std=c++17',
      ...strict,
      join(project, 'consumer.cpp'),
      ...flags,
      '-o',
      join(project, 'pc_cpp'),
    ]);
    for (const program of ['pc_c', 'pc_cpp']) {
      expect(lines(qemu(join(project, program), join(sdk, 'lib'))), `pkg-config: ${program}`).toBe(expectedOutput);
    }
  }, 600_000);
});
