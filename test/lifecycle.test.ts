// Process-level lifecycle: each step runs in its own Node process and must end with exit code 0 on its own.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BACKENDS } from './backends.js';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
const runNode = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  spawnSync(process.execPath, ['--import', 'tsx', ...args], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
    timeout: 60_000,
  });

describe.each(BACKENDS)('lifecycle over %s', (backend) => {
  it('exits by itself with code 0 after close() (no process.exit)', () => {
    const child = runNode([fixture('clean-exit.ts'), backend]);
    expect(child.stderr).toBe('');
    expect(child.stdout).toBe('application id set to 99\n');
    expect(child.signal).toBeNull();
    expect(child.status).toBe(0);
  });

  it('loads, works and closes inside worker_threads; the worker exits 0', () => {
    const child = runNode([fixture('run-worker.ts')], { SVCPP_TEST_BACKEND: backend });
    expect(child.stderr).toBe('');
    expect(child.stdout.trim().split('\n')).toEqual([
      JSON.stringify({ message: 'application id set to 7', scopes: 'openid sdk.social_layer', verifier: 43 }),
      'worker exit 0',
    ]);
    expect(child.status).toBe(0);
  });
});

// A worker terminated with its client open: the N-API pump's wakeup handle closes at the environment's teardown
// (native/SEMANTICS.md "Pump batches (N-API)"), or Node aborts when the worker's loop closes; koffi unloads the
// library at that teardown, which libsvcpp.so survives because it is never unmapped (-z nodelete: the open client's
// I/O thread keeps running its code).
describe.each(BACKENDS)('lifecycle over %s: environment teardown', (backend) => {
  it('a worker terminated with its client open (never closed) ends it; the process exits 0', () => {
    const child = runNode([fixture('terminate-worker.ts')], { SVCPP_TEST_BACKEND: backend });
    expect(child.stderr).toBe('');
    expect(child.stdout.trim().split('\n')).toEqual(
      Array(3).fill(['application id set to 11', 'worker terminated 1']).flat(),
    );
    expect(child.signal).toBeNull();
    expect(child.status).toBe(0);
  });
});
