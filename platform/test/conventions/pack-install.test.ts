/**
 * The platform as a user installs it (README "Install"): `npm pack` of platform/ (its prepack builds dist/), the
 * tarball installed with npm in an empty folder outside the repository, its bin run from there. PostgreSQL's driver
 * (pg-native, compiled against libpq) is an optional peer and must not be installed; a postgres:// database then
 * says which package to add.
 *
 * Offline-friendly: npm's cache is warm (--prefer-offline). better-sqlite3's install script downloads a prebuilt
 * binary from its releases when the machine is online, else compiles SQLite; this machine reaches only the npm
 * registry, so the test hands prebuild-install, as its documented local prebuild, the binary this checkout already
 * built (npm_config_better_sqlite3_local_prebuilds) — what an online install downloads.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { request } from '../support/http.js';
import { tempDir } from '../support/platform.js';

const run = promisify(execFile);
const PLATFORM = fileURLToPath(new URL('../..', import.meta.url));
const VERSION = (JSON.parse(readFileSync(join(PLATFORM, 'package.json'), 'utf8')) as { version: string }).version;

/** A prebuild-install archive of the better-sqlite3 binary this checkout built, named as its releases name them. */
async function localSqlitePrebuild(): Promise<string> {
  const moduleDir = dirname(createRequire(join(PLATFORM, 'package.json')).resolve('better-sqlite3/package.json'));
  const { version } = JSON.parse(readFileSync(join(moduleDir, 'package.json'), 'utf8')) as { version: string };
  const dir = tempDir();
  const name =
    `better-sqlite3-v${version}-node-v${process.versions.modules}-` + `${process.platform}-${process.arch}.tar.gz`;
  await run('tar', ['-czf', join(dir, name), '-C', moduleDir, 'build/Release/better_sqlite3.node']);
  return dir;
}

let project: string;
let bin: string;

beforeAll(async () => {
  const packs = tempDir();
  await run('npm', ['pack', '--pack-destination', packs, '--silent'], { cwd: PLATFORM, maxBuffer: 64 * 1024 * 1024 });
  const tarball = join(
    packs,
    readdirSync(packs).find((file) => file.endsWith('.tgz'))!,
  );
  project = join(tempDir(), 'my-game');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'my-game', version: '1.0.0', private: true }));
  await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], {
    cwd: project,
    env: { ...process.env, npm_config_better_sqlite3_local_prebuilds: await localSqlitePrebuild() },
    maxBuffer: 64 * 1024 * 1024,
  });
  bin = join(project, 'node_modules', '.bin', 'svcpp-platform');
}, 900_000);

describe('the platform installed from its packed tarball', () => {
  it('is installed without the PostgreSQL driver or the sources', () => {
    const installed = join(project, 'node_modules', 'svcpp-platform');
    expect({
      pgNative: existsSync(join(project, 'node_modules', 'pg-native')),
      libpq: existsSync(join(project, 'node_modules', 'libpq')),
      sources: existsSync(join(installed, 'src')),
      compiled: existsSync(join(installed, 'dist', 'index.js')),
      docs: ['README.md', 'PROTOCOL.md'].every((file) => existsSync(join(installed, file))),
    }).toEqual({ pgNative: false, libpq: false, sources: false, compiled: true, docs: true });
  });

  it('its bin prints the help', async () => {
    const { stdout } = await run(bin, ['--help'], { cwd: project });
    expect(stdout).toContain('Usage: svcpp-platform');
  });

  it('its bin starts a platform on port 0 that answers, and stops on SIGTERM', async () => {
    const child = spawn(bin, ['--port', '0', '--db', ':memory:', '--log-format', 'json'], {
      cwd: project,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    let done = false;
    void exited.then(() => (done = true));
    while (!output.includes('public key') && !done) await new Promise((resolve) => setTimeout(resolve, 20));
    try {
      const base = /HTTP\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
      expect(base, output).toBeDefined();
      const landing = await request(`${base}/`, { headers: { accept: 'application/json' } });
      expect(landing.body).toMatchObject({ name: 'svcpp-platform', version: VERSION, database: 'sqlite-memory' });
      expect((await request(`${base}/.well-known/openid-configuration`)).body).toMatchObject({ issuer: base });
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  }, 120_000);

  it('on a postgres:// database without pg-native it says which package to install', async () => {
    const failure = await run(bin, ['--port', '0', '--db', 'postgres://svcpp@127.0.0.1:1/svcpp'], {
      cwd: project,
    }).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toContain('needs the optional package pg-native');
    expect(failure?.stderr).toContain('npm install pg-native@^3.9.0');
  }, 120_000);
});
