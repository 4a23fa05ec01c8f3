import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { testDatabase } from '../support/database.js';
import { tempDir } from '../support/platform.js';

const BIN = fileURLToPath(new URL('../../bin/svcpp-platform.mjs', import.meta.url));
/** The repository root: `npx svcpp-platform` there finds the workspace's bin, as in a user's project. */
const REPOSITORY = fileURLToPath(new URL('../../..', import.meta.url));
/** How long a test waits for the platform to exit before it gives up on it (a bound on the wait, not a speed check). */
const EXIT_WAIT_MS = 15_000;

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

function exitOf(child: ChildProcess): Promise<Exit> {
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

/** The exit, or 'still running' after EXIT_WAIT_MS — then the process is killed so the test never leaks it. */
async function exitWithin(child: ChildProcess, exited: Promise<Exit>): Promise<Exit | 'still running'> {
  let timer: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([
    exited,
    new Promise<'still running'>((resolve) => (timer = setTimeout(() => resolve('still running'), EXIT_WAIT_MS))),
  ]);
  clearTimeout(timer);
  if (outcome === 'still running') child.kill('SIGKILL');
  return outcome;
}

async function waitFor(read: () => string, text: string, exited: Promise<Exit>): Promise<void> {
  let done = false;
  void exited.then(() => (done = true));
  while (!read().includes(text)) {
    if (done) throw new Error(`the platform exited early:\n${read()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function platformArgs(dir: string, extra: string[] = []): string[] {
  return [BIN, '--port', '0', '--db', testDatabase(join(dir, 'platform.db')), ...extra];
}

/** Port of the printed HTTP address. */
function portOf(output: string): number {
  return Number(/HTTP\s+http:\/\/127\.0\.0\.1:(\d+)/.exec(output)![1]);
}

/**
 * A request the server is still reading when shutdown starts: headers sent, body announced but never sent. The
 * server's `100 Continue` proves the request reached the router, so closing the server has to wait for it.
 */
async function holdRequestOpen(port: number): Promise<net.Socket> {
  const socket = net.connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.write(
      `POST /api/v10/partner-sdk/token/bot HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
        'Content-Length: 100\r\nExpect: 100-continue\r\n\r\n',
    );
    socket.once('data', (chunk: Buffer) =>
      chunk.toString().startsWith('HTTP/1.1 100') ? resolve() : reject(new Error(chunk.toString())),
    );
  });
  socket.on('error', () => undefined);
  return socket;
}

/** Resolves once the platform no longer accepts connections (its HTTP server has stopped listening). */
async function untilRefused(port: number): Promise<void> {
  for (;;) {
    const refused = await new Promise<boolean>((resolve) => {
      const probe = net.connect(port, '127.0.0.1');
      probe.once('connect', () => {
        probe.destroy();
        resolve(false);
      });
      probe.once('error', () => resolve(true));
    });
    if (refused) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Ids of the processes whose command line contains `text` (Linux /proc). */
function processesMentioning(text: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(text)) pids.push(Number(entry));
    } catch {
      // The process ended while the list was read.
    }
  }
  return pids;
}

/** Whether the port stops accepting connections within EXIT_WAIT_MS. */
async function refusedWithin(port: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([
    untilRefused(port).then(() => true),
    new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), EXIT_WAIT_MS))),
  ]);
  clearTimeout(timer);
  return outcome;
}

/** The processes mentioning `text` still alive after EXIT_WAIT_MS (none as soon as they are all gone). */
async function survivorsMentioning(text: string): Promise<number[]> {
  const deadline = Date.now() + EXIT_WAIT_MS;
  let left = processesMentioning(text);
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    left = processesMentioning(text);
  }
  return left;
}

const held: net.Socket[] = [];
afterEach(() => held.splice(0).forEach((socket) => socket.destroy()));

/** The CLI with `--shutdown-timeout <seconds>`, started, and one request it cannot finish (so close() waits). */
async function startWithHeldRequest(shutdownSeconds: string) {
  const platform = spawn(process.execPath, platformArgs(tempDir(), ['--shutdown-timeout', shutdownSeconds]), {
    env: { ...process.env, SVCPP_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let errors = '';
  platform.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  platform.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const exited = exitOf(platform);
  await waitFor(() => output, 'public key', exited);
  const port = portOf(output);
  held.push(await holdRequestOpen(port));
  return { platform, exited, port, errors: () => errors };
}

describe('command-line shutdown', () => {
  it('exits after SIGTERM when the process reading its stdout is gone', async () => {
    // A launcher piping the platform's output into another process: the reader echoes it back to the test.
    const reader = spawn(process.execPath, ['-e', 'process.stdin.pipe(process.stdout)'], {
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    const platform = spawn(process.execPath, platformArgs(tempDir()), {
      env: { ...process.env, SVCPP_LOG_LEVEL: 'info' },
      stdio: ['ignore', reader.stdin!, 'ignore'],
    });
    // Only the reader holds the read end of the platform's stdout now: killing it breaks the pipe.
    reader.stdin!.destroy();
    let output = '';
    reader.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = exitOf(platform);
    await waitFor(() => output, 'public key', exited);

    const readerGone = exitOf(reader);
    reader.kill('SIGKILL');
    await readerGone;
    platform.kill('SIGTERM');

    expect(await exitWithin(platform, exited)).toEqual({ code: 0, signal: null });
  });

  it('kill <pid of npx svcpp-platform> stops the platform (the npm shell in between does not forward the signal)', async () => {
    const dir = tempDir();
    // The certificate path names this test's temporary folder, so the platform's process can be found by it.
    const marker = join(dir, 'marker-ca.pem');
    const npx = spawn(
      'npx',
      ['svcpp-platform', '--port', '0', '--db', testDatabase(join(dir, 'platform.db')), '--cert-out', marker],
      {
        cwd: REPOSITORY,
        env: { ...process.env, SVCPP_LOG_LEVEL: 'warn' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    npx.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    npx.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = exitOf(npx);
    await waitFor(() => output, 'public key', exited);
    const port = portOf(output);
    expect(processesMentioning(marker).filter((pid) => pid !== npx.pid).length).toBeGreaterThan(0);

    npx.kill('SIGTERM');
    const freed = await refusedWithin(port);
    await exitWithin(npx, exited);
    const left = await survivorsMentioning(marker);
    for (const pid of left) process.kill(pid, 'SIGKILL');
    expect({ freed, left }).toEqual({ freed: true, left: [] });
  }, 90_000);

  it('a second signal forces the exit while a shutdown is stuck', async () => {
    const { platform, exited, port, errors } = await startWithHeldRequest('600');
    platform.kill('SIGTERM');
    // The first signal was taken (the server stopped listening) but the shutdown waits for the held request.
    await untilRefused(port);
    platform.kill('SIGTERM');
    expect(await exitWithin(platform, exited)).toEqual({ code: 128 + 15, signal: null });
    expect(errors()).toContain('second signal');
  });

  it('a stuck shutdown ends at --shutdown-timeout', async () => {
    const { platform, exited, errors } = await startWithHeldRequest('1');
    platform.kill('SIGTERM');
    expect(await exitWithin(platform, exited)).toEqual({ code: 1, signal: null });
    expect(errors()).toContain('did not finish within 1 s');
  });
});
