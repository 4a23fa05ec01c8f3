/**
 * --db and --broker from the flag, the environment (SVCPP_DB / SVCPP_BROKER) or the config file ("database" /
 * "broker"), in that order of precedence (src/config/deployment.ts): the resolution itself, and the command line
 * taking each source — a broker nobody listens on fails the start naming its URL (without its password), which shows
 * which source was used; a database from the environment or the config file is the file the platform creates.
 */
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { resolveDeployment } from '../../src/config/deployment.js';
import { tempDir } from '../support/platform.js';

const BIN = fileURLToPath(new URL('../../bin/svcpp-platform.mjs', import.meta.url));

/** A loopback port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Runs the command line until it exits, or until its banner shows (then stops it); its output and exit code. */
function runCli(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  // SVCPP_DB / SVCPP_BROKER of the caller's environment must not leak in: unset unless the test sets them.
  const { SVCPP_DB: _db, SVCPP_BROKER: _broker, ...inherited } = process.env;
  const child = spawn(process.execPath, [BIN, '--port', '0', ...args], { env: { ...inherited, ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    if (stdout.includes('API base')) child.kill('SIGTERM');
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}

describe('deployment settings: --db and --broker', () => {
  it('the flag wins over the environment, the environment over the config file, the file over the default', () => {
    const file = { database: 'file.db', broker: 'redis://file:6379', users: [] };
    const env = { SVCPP_DB: 'env.db', SVCPP_BROKER: 'redis://env:6379' };
    expect(resolveDeployment({ flags: { db: 'flag.db', broker: 'redis://flag:6379' }, env, file })).toMatchObject({
      database: 'flag.db',
      broker: 'redis://flag:6379',
      from: { database: 'flag', broker: 'flag' },
    });
    expect(resolveDeployment({ flags: {}, env, file })).toMatchObject({
      database: 'env.db',
      broker: 'redis://env:6379',
      from: { database: 'env', broker: 'env' },
    });
    expect(resolveDeployment({ flags: {}, env: {}, file })).toMatchObject({
      database: 'file.db',
      broker: 'redis://file:6379',
      from: { database: 'config file', broker: 'config file' },
    });
    expect(resolveDeployment({ flags: {}, env: {} })).toEqual({
      database: 'svcpp-platform.db',
      broker: undefined,
      from: { database: 'default', broker: 'none' },
      config: undefined,
    });
  });

  it('hands the rest of the config file on as the platform config, without the two keys', () => {
    const settings = resolveDeployment({
      flags: {},
      env: {},
      file: { database: 'x.db', users: [{ username: 'zed' }] },
    });
    expect(settings.config).toEqual({ users: [{ username: 'zed' }] });
  });

  it('refuses a config-file value that is not a non-empty string, an empty variable, and a file that is not an object', () => {
    expect(() => resolveDeployment({ flags: {}, env: {}, file: { broker: 6379 } })).toThrow(/config file: "broker"/);
    expect(() => resolveDeployment({ flags: {}, env: {}, file: { database: '' } })).toThrow(/config file: "database"/);
    expect(() => resolveDeployment({ flags: {}, env: { SVCPP_BROKER: '' } })).toThrow(/SVCPP_BROKER is set but empty/);
    expect(() => resolveDeployment({ flags: {}, env: {}, file: [] })).toThrow(/expected a JSON object/);
  });

  it('the command line takes the broker from the config file', async () => {
    const dir = tempDir();
    const port = await closedPort();
    const config = join(dir, 'platform.json');
    writeFileSync(config, JSON.stringify({ broker: `redis://svcpp:s3cret-pw@127.0.0.1:${port}` }));
    const run = await runCli(['--db', ':memory:', '--config', config]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`cannot reach the broker at redis://svcpp:***@127.0.0.1:${port}`);
    expect(run.stderr).not.toContain('s3cret-pw');
  }, 60_000);

  it('the command line takes the broker from SVCPP_BROKER, and --broker over it', async () => {
    const port = await closedPort();
    const fromEnv = await runCli(['--db', ':memory:'], { SVCPP_BROKER: `redis://127.0.0.1:${port}` });
    expect(fromEnv.code).toBe(1);
    expect(fromEnv.stderr).toContain(`cannot reach the broker at redis://127.0.0.1:${port}`);
    const flagWins = await runCli(['--db', ':memory:', '--broker', 'http://127.0.0.1:1'], {
      SVCPP_BROKER: `redis://127.0.0.1:${port}`,
    });
    expect(flagWins.code).toBe(1);
    expect(flagWins.stderr).toContain('unsupported broker URL scheme "http:"');
  }, 60_000);

  it('the command line takes the database from SVCPP_DB and from the config file', async () => {
    const dir = tempDir();
    const fromEnv = join(dir, 'from-env.db');
    expect((await runCli([], { SVCPP_DB: fromEnv })).stdout).toContain('API base');
    expect(existsSync(fromEnv)).toBe(true);

    const fromFile = join(dir, 'from-file.db');
    const config = join(dir, 'platform.json');
    writeFileSync(config, JSON.stringify({ database: fromFile, users: [{ username: 'from_config' }] }));
    expect((await runCli(['--config', config])).stdout).toContain('API base');
    expect(existsSync(fromFile)).toBe(true);
  }, 60_000);

  it('an empty SVCPP_DB fails the start with a clear message', async () => {
    const run = await runCli([], { SVCPP_DB: '' });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('SVCPP_DB is set but empty');
  }, 60_000);
});
