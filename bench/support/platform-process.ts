/**
 * The platform for benchmarks, in its own Node process on an ephemeral loopback port, so the benchmark's event loop
 * and heap hold only the client under test. In-memory database, no logging, rate limits out of the way, dev mode on.
 */
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PlatformChildMessage } from './platform-child.js';

export interface PlatformProcess {
  /** `http(s)://127.0.0.1:<port>` */
  httpUrl: string;
  /** `${httpUrl}/api/v10` */
  apiBase: string;
  /** `ws(s)://127.0.0.1:<port>/gateway` */
  gatewayUrl: string;
  /** With TLS: the platform's self-signed certificate (PEM) to trust. */
  caFile?: string;
  devApp: { id: string; clientSecret: string; botToken: string };
  /** The platform process's id (to read its CPU time: bench/support/cpu-time.ts). */
  pid: number;
  /** Stops the platform and waits for its process to exit. */
  close(): Promise<void>;
}

/** How long the child may take to shut down cleanly before it is killed. */
const CLOSE_GRACE_MS = 5000;

export async function startPlatformProcess(options: { tls: boolean }): Promise<PlatformProcess> {
  const dir = options.tls ? mkdtempSync(join(tmpdir(), 'svcpp-bench-')) : undefined;
  const caFile = dir ? join(dir, 'ca.pem') : undefined;
  const child = fork(fileURLToPath(new URL('./platform-child.ts', import.meta.url)), caFile ? ['--tls', caFile] : [], {
    // Resolved here, so the child finds tsx whatever the working directory is.
    execArgv: ['--import', import.meta.resolve('tsx')],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  // Normally the child notices the IPC channel closing when this process dies; an exit handler also covers
  // process.exit() paths in which the channel is still open for a moment.
  const killChild = () => child.kill('SIGKILL');
  process.once('exit', killChild);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const cleanUp = () => {
    process.removeListener('exit', killChild);
    if (dir) rmSync(dir, { recursive: true, force: true });
  };

  let ready: Extract<PlatformChildMessage, { type: 'ready' }>;
  try {
    ready = await new Promise((resolve, reject) => {
      child.once('message', (message: PlatformChildMessage) => {
        if (message.type === 'ready') resolve(message);
        else reject(new Error(`platform child failed to start: ${message.message}`));
      });
      child.once('error', reject);
      child.once('exit', (code, signal) =>
        reject(new Error(`platform child exited before it was ready (code ${code}, signal ${signal})`)),
      );
    });
  } catch (error) {
    child.kill('SIGKILL');
    await exited;
    cleanUp();
    throw error;
  }

  let closing: Promise<void> | undefined;
  return {
    httpUrl: ready.httpUrl,
    apiBase: ready.apiBase,
    gatewayUrl: ready.gatewayUrl,
    ...(caFile ? { caFile } : {}),
    devApp: ready.devApp,
    pid: child.pid!,
    close: () =>
      (closing ??= (async () => {
        // Disconnecting is the child's signal to close the platform and exit.
        if (child.connected) child.disconnect();
        const timer = setTimeout(() => child.kill('SIGKILL'), CLOSE_GRACE_MS);
        await exited;
        clearTimeout(timer);
        cleanUp();
      })()),
  };
}
