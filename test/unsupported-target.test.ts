/**
 * Where svcpp ships no binary (macOS, Linux on musl, Windows on Arm), loading fails at once with a typed error that
 * names the system and the supported targets, and the install script says so instead of compiling for minutes.
 * The systems are simulated in a child process (test/fixtures/fake-system.cjs redefines process.platform, arch and
 * the C library Node reports), so the package's own lookup runs exactly as it would there.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { SUPPORTED_TARGETS, SvcppUnsupportedTargetError } from '../lib/index.js';
import { targetFor } from '../lib/targets.js';
import { root } from './pack/package.js';

const fakeSystem = join(root, 'test', 'fixtures', 'fake-system.cjs');
const UNSUPPORTED = [
  { env: { FAKE_PLATFORM: 'darwin', FAKE_ARCH: 'arm64' }, target: 'darwin-arm64', remedy: 'CoreAudio' },
  { env: { FAKE_PLATFORM: 'darwin', FAKE_ARCH: 'x64' }, target: 'darwin-x64', remedy: 'CoreAudio' },
  { env: { FAKE_LIBC: 'musl' }, target: `linux-${process.arch}-musl`, remedy: '--build-from-source' },
  { env: { FAKE_PLATFORM: 'win32', FAKE_ARCH: 'arm64' }, target: 'win32-arm64', remedy: 'no toolchain' },
] as const;

/**
 * Runs `script` (ESM, TypeScript imports through tsx) as the simulated system; answers what it printed as JSON. The
 * system is faked once tsx's compiler is running (it would otherwise look for its own binary for the faked system).
 */
function runAs(env: Record<string, string>, script: string): Record<string, unknown> {
  const prelude =
    "await import('./lib/targets.ts'); " +
    `(await import('node:module')).createRequire(import.meta.url)(${JSON.stringify(fakeSystem)});`;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', prelude + script], {
    cwd: root,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  return JSON.parse(out) as Record<string, unknown>;
}

describe('the supported targets', () => {
  it('maps each shipped system to its prebuild folder and library file', () => {
    expect(SUPPORTED_TARGETS.map((t) => [t.name, t.libraryFile])).toEqual([
      ['linux-x64', 'libsvcpp.so'],
      ['linux-arm64', 'libsvcpp.so'],
      ['win32-x64', 'svcpp.dll'],
    ]);
    expect(targetFor({ platform: 'linux', arch: 'arm64', libc: 'glibc' }).name).toBe('linux-arm64');
    expect(targetFor({ platform: 'win32', arch: 'x64' }).libraryFile).toBe('svcpp.dll');
    expect(targetFor().name).toBe(`${process.platform}-${process.arch}`); // this machine is one of them
  });

  it('refuses every other system with ERR_SVCPP_UNSUPPORTED_TARGET, naming it', () => {
    for (const system of [
      { platform: 'darwin', arch: 'arm64' },
      { platform: 'linux', arch: 'x64', libc: 'musl' as const },
      { platform: 'win32', arch: 'arm64' },
      { platform: 'freebsd', arch: 'x64' },
      { platform: 'linux', arch: 'riscv64', libc: 'glibc' as const },
    ]) {
      let thrown: unknown;
      try {
        targetFor(system);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(SvcppUnsupportedTargetError);
      expect(thrown).toMatchObject({
        code: 'ERR_SVCPP_UNSUPPORTED_TARGET',
        supported: ['linux-x64', 'linux-arm64', 'win32-x64'],
      });
      expect((thrown as Error).message).toContain((thrown as SvcppUnsupportedTargetError).target);
    }
  });
});

describe.each(UNSUPPORTED)('a $target user', ({ env, target, remedy }) => {
  it('gets the typed error at the first Client, naming the system, the supported targets and what to do', () => {
    const seen = runAs(
      env,
      `
      const { Client } = await import('./lib/index.ts');
      try { new Client(); console.log(JSON.stringify({ loaded: true })); }
      catch (e) {
        const { name, code, target, supported, message } = e;
        console.log(JSON.stringify({ name, code, target, supported, message }));
      }`,
    );
    expect(seen).toMatchObject({
      name: 'SvcppUnsupportedTargetError',
      code: 'ERR_SVCPP_UNSUPPORTED_TARGET',
      target,
      supported: ['linux-x64', 'linux-arm64', 'win32-x64'],
    });
    expect(seen.message).toContain(`no native binary for ${target}`);
    expect(seen.message).toContain('linux-x64 (glibc), linux-arm64 (glibc), win32-x64');
    expect(seen.message).toContain(remedy);
  });

  it('gets the same words from the install script, which compiles nothing and lets the install succeed', () => {
    // The installed package's layout: scripts/install-native.cjs beside dist/cjs/lib/targets.js (bundled here from
    // lib/targets.ts, as the package's build would compile it). No node-gyp-build is reachable from there: had the
    // script gone on to build, it would fail.
    const dir = mkdtempSync(join(tmpdir(), 'svcpp-unsupported-'));
    try {
      mkdirSync(join(dir, 'scripts'));
      copyFileSync(join(root, 'scripts', 'install-native.cjs'), join(dir, 'scripts', 'install-native.cjs'));
      buildSync({
        entryPoints: [join(root, 'lib', 'targets.ts')],
        bundle: true,
        format: 'cjs',
        platform: 'node',
        outfile: join(dir, 'dist', 'cjs', 'lib', 'targets.js'),
        logLevel: 'silent',
      });
      const { INIT_CWD: _, npm_config_build_from_source: __, ...inherited } = process.env;
      const install = spawnSync(
        process.execPath,
        ['--require', fakeSystem, join(dir, 'scripts', 'install-native.cjs')],
        {
          cwd: dir,
          env: { ...inherited, ...env },
          encoding: 'utf8',
        },
      );
      expect(install.status).toBe(0);
      expect(install.stderr).toContain(`no native binary for ${target}`);
      expect(install.stderr).toContain('nothing was built');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
