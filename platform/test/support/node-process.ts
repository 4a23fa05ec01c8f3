/**
 * Starts platform nodes as child processes (support/platform-node.ts under tsx), for tests and benchmarks of several
 * nodes on one database (and one broker).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { StartOptions } from '../../src/index.js';

export interface PlatformNode {
  apiBase: string;
  /** http(s)://host:port (for /oauth2/authorize). */
  httpUrl: string;
  gatewayUrl: string;
  /** The development application (one per database: the same on every node). */
  devApp: { id: string };
  /** SIGTERM and wait for the exit (a graceful close). */
  stop(): Promise<void>;
  /** SIGKILL: the node vanishes without closing anything. */
  kill(): Promise<void>;
}

const SCRIPT = fileURLToPath(new URL('./platform-node.ts', import.meta.url));

export async function startNodeProcess(options: StartOptions): Promise<PlatformNode> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', SCRIPT], {
    env: { ...process.env, PLATFORM_NODE_OPTIONS: JSON.stringify(options) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  // Log lines (errors only, on stdout) may come first; the node announces itself with one JSON line of its own.
  let announced: { apiBase?: string; gatewayUrl?: string; devAppId?: string } = {};
  while (announced.apiBase === undefined) {
    const line = await lines.next();
    if (line.done) throw new Error('the platform node exited before listening');
    announced = JSON.parse(line.value) as typeof announced;
  }
  void (async () => {
    for await (const line of { [Symbol.asyncIterator]: () => lines }) process.stderr.write(`platform node: ${line}\n`);
  })();
  const signal = async (name: NodeJS.Signals) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(name);
    await exited;
  };
  return {
    apiBase: announced.apiBase,
    httpUrl: new URL(announced.apiBase).origin,
    gatewayUrl: announced.gatewayUrl!,
    devApp: { id: announced.devAppId! },
    stop: () => signal('SIGTERM'),
    kill: () => signal('SIGKILL'),
  };
}
