/**
 * The platform's local client (its local RPC server) running under Wine's Node, listening where a Windows local
 * client does — the named pipe `\\?\pipe\discord-ipc-{n}` — and reaching the platform on this machine over HTTPS and
 * the gateway as the desktop user. The SDK under Wine then finds it there (test/targets/local-rpc.mjs).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { root } from '../pack/package.js';
import { foreignNode, foreignPath } from './foreign-sdk.js';

const WINE = process.env.WINE ?? '/usr/lib/wine/wine64';
/** Loaded into every Node process the tests run under Wine (its header says which Wine limitation it covers). */
export const WINE_SHIM = join(root, 'test', 'targets', 'wine-keepalive.cjs');

export const wineEnv = (): NodeJS.ProcessEnv => ({
  ...process.env,
  WINEPREFIX: process.env.SVCPP_WINEPREFIX ?? join(homedir(), '.cache', 'svcpp', 'wine'),
  WINEDEBUG: '-all',
});

/** Bundles the local client's CLI into one ESM file under `dir`; answers its path. */
function bundleLocalClient(dir: string): string {
  const outfile = join(dir, 'local-client.mjs');
  buildSync({
    entryPoints: [join(root, 'test', 'targets', 'local-client-entry.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    logLevel: 'warning',
    // Bundled CommonJS dependencies (pino) call require(); an ESM bundle has none of its own.
    banner: {
      js:
        "import { createRequire as svcppCreateRequire } from 'node:module'; " +
        'const require = svcppCreateRequire(import.meta.url);',
    },
  });
  return outfile;
}

export interface WineLocalClient {
  /** The pipe it listens on, as it announced it. */
  path: string;
  /** Its log (stderr, JSON lines) so far. */
  log(): string;
  stop(): Promise<void>;
}

/** Starts the local client under Wine as `user` of the platform at `platformUrl` and waits until it listens. */
export async function startWineLocalClient(options: {
  dir: string;
  platformUrl: string;
  user: string;
  applicationId: string;
  caFile: string;
  timeoutMs: number;
}): Promise<WineLocalClient> {
  mkdirSync(options.dir, { recursive: true });
  const script = bundleLocalClient(options.dir);
  const stdoutFile = join(options.dir, 'local-client.stdout');
  const stderrFile = join(options.dir, 'local-client.stderr');
  // Files, not pipes: Wine gives a program whose stdout is a pipe EBADF.
  const out = openSync(stdoutFile, 'w');
  const err = openSync(stderrFile, 'w');
  const child: ChildProcess = spawn(
    WINE,
    [
      foreignNode('win32-x64'),
      '--require',
      foreignPath('win32-x64', WINE_SHIM),
      foreignPath('win32-x64', script),
      options.platformUrl,
      options.user,
      options.applicationId,
    ],
    {
      env: { ...wineEnv(), NODE_EXTRA_CA_CERTS: foreignPath('win32-x64', options.caFile), SVCPP_LOG_LEVEL: 'info' },
      stdio: ['ignore', out, err],
    },
  );
  closeSync(out);
  closeSync(err);
  const log = () => readFileSync(stderrFile, 'utf8');
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  };
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    const listening = readFileSync(stdoutFile, 'utf8')
      .split('\n')
      .find((line) => line.includes('"event":"listening"'));
    if (listening) return { path: String((JSON.parse(listening) as { path: string }).path), log, stop };
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`the local client under Wine did not start listening (exit ${child.exitCode}): ${log()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
