/**
 * Where the local client listens (PROTOCOL.md §12.1): `discord-ipc-{0..9}` in the first set of
 * `XDG_RUNTIME_DIR`, `TMPDIR`, `TMP`, `TEMP`, else `/tmp` — the directory every published client searches — or the
 * named pipe `\\?\pipe\discord-ipc-{n}` on Windows. The first free slot is taken; a socket file that nobody listens
 * on (left by a crashed process) is replaced.
 */
import { chmodSync, existsSync, unlinkSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';

export const IPC_SLOTS = 10;

export function defaultSocketDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.XDG_RUNTIME_DIR || env.TMPDIR || env.TMP || env.TEMP || '/tmp';
}

export function ipcPath(slot: number, dir: string, platform: NodeJS.Platform = process.platform): string {
  return platform === 'win32' ? `\\\\?\\pipe\\discord-ipc-${slot}` : join(dir, `discord-ipc-${slot}`);
}

/** Whether something accepts connections at `path` (a live local client) rather than a stale file. */
function listening(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createConnection(path);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
}

function listenOn(server: net.Server, path: string): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      if (error.code === 'EADDRINUSE') resolve(false);
      else reject(error);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve(true);
    };
    server.once('error', onError);
    server.once('listening', onListening);
    // The socket must never be reachable by other users, not even between bind and chmod: bind under a umask that
    // leaves 0600 (process.umask cannot be changed in worker threads; the chmod below still applies there).
    let previous: number | undefined;
    try {
      previous = process.umask(0o177);
    } catch {
      previous = undefined;
    }
    try {
      server.listen(path);
    } finally {
      if (previous !== undefined) process.umask(previous);
    }
  });
}

/** Listens on the first free `discord-ipc-{n}` and returns its path; throws when all ten are taken. */
export async function listenOnFirstFreeSlot(
  server: net.Server,
  dir: string,
  platform: NodeJS.Platform = process.platform,
): Promise<string> {
  for (let slot = 0; slot < IPC_SLOTS; slot++) {
    const path = ipcPath(slot, dir, platform);
    if (platform !== 'win32' && existsSync(path)) {
      if (await listening(path)) continue;
      unlinkSync(path);
    }
    if (!(await listenOn(server, path))) continue;
    if (platform !== 'win32') chmodSync(path, 0o600);
    return path;
  }
  throw new Error(`every local RPC slot discord-ipc-0..${IPC_SLOTS - 1} in ${dir} is taken`);
}
