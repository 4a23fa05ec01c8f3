/**
 * A private Redis server for tests and benchmarks of several platform nodes (the broker, `--broker redis://…`):
 * Debian's `redis-server` on a free loopback port, no persistence (`--save ''`, no AOF), its files in a temporary
 * directory that is deleted when it stops.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { freeLoopbackPort } from './ports.js';

export interface TemporaryRedis {
  /** `redis://127.0.0.1:<port>` */
  readonly url: string;
  stop(): Promise<void>;
}

export async function startTemporaryRedis(): Promise<TemporaryRedis> {
  const dir = mkdtempSync(join(tmpdir(), 'svcpp-redis-'));
  const port = await freeLoopbackPort();
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const spawnFailed = new Promise<never>((_, reject) =>
    child.once('error', (error) =>
      reject(
        new Error(
          `redis-server could not start (install Debian's redis-server, scripts/install-deps.sh): ${error.message}`,
        ),
      ),
    ),
  );
  const ready = (async () => {
    for await (const line of createInterface({ input: child.stdout! })) {
      if (line.includes('Ready to accept connections')) return;
    }
    throw new Error('redis-server exited before accepting connections');
  })();
  await Promise.race([ready, spawnFailed]);
  child.stdout!.resume();
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
