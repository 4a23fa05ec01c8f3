/**
 * A platform with the local client on, in a temporary socket directory of the test file, acting for `desk` — the
 * local client either started with the platform (`in-process`) or on its own, signed in as `desk` and talking to
 * the platform over HTTP and the gateway (`standalone`, what `svcpp-platform rpc --platform <url>` runs).
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { pino } from 'pino';
import {
  startStandaloneRpc,
  type RpcServer,
  type RunningPlatform,
  type RpcOptions,
  type StartOptions,
} from '../../src/index.js';
import { accessTokenFor, startTestPlatform, tempDir } from '../support/platform.js';
import { api, fullUser, type SocialUser } from '../support/social.js';

export const DESKTOP_USER = 'desk';

/** How the local client reaches the platform (PROTOCOL.md §12.8). */
export type LinkKind = 'in-process' | 'standalone';
export const LINKS: LinkKind[] = ['in-process', 'standalone'];

export interface RpcPlatform {
  platform: RunningPlatform;
  rpc: RpcServer;
  dir: string;
  /** The desktop user with an sdk.social_layer token of the dev app (for HTTP calls made "from the desktop"). */
  desk: SocialUser;
  close(): Promise<void>;
}

export async function startRpcPlatform(
  rpc: RpcOptions = {},
  options: StartOptions = {},
  link: LinkKind = 'in-process',
): Promise<RpcPlatform> {
  const dir = tempDir();
  const rpcOptions = { user: DESKTOP_USER, socketDir: dir, applicationsDir: join(dir, 'applications'), ...rpc };
  const platform = await startTestPlatform({
    config: { users: [{ username: DESKTOP_USER, global_name: 'Desk' }] },
    ...(link === 'in-process' && { rpc: rpcOptions }),
    ...options,
  });
  const server =
    link === 'in-process'
      ? platform.rpc!
      : await startStandaloneRpc({
          platformUrl: platform.httpUrl,
          credentials: { username: DESKTOP_USER },
          signInApplication: platform.devApp.id,
          socketDir: rpcOptions.socketDir,
          applicationsDir: rpcOptions.applicationsDir,
          ...(rpcOptions.autoApprove !== undefined && { autoApprove: rpcOptions.autoApprove }),
          logger: pino({ level: 'silent' }),
        });
  const token = await accessTokenFor(platform, {
    clientId: platform.devApp.id,
    scope: 'sdk.social_layer',
    user: DESKTOP_USER,
  });
  const desk: SocialUser = { id: server.desktopUserId, username: DESKTOP_USER, token: token.access_token };
  return {
    platform,
    rpc: server,
    dir,
    desk,
    close: async () => {
      if (link !== 'in-process') await server.close();
      await platform.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A new platform friend of the desktop user. */
export async function deskFriend(
  env: Pick<RpcPlatform, 'platform' | 'desk'>,
  options: { clientId?: string } = {},
): Promise<SocialUser> {
  const friend = await fullUser(env.platform, options);
  await api(env.platform, env.desk.token, 'PUT', `/users/@me/relationships/${friend.id}`, { type: 1 });
  await api(env.platform, friend.token, 'PUT', `/users/@me/relationships/${env.desk.id}`, { type: 1 });
  return friend;
}

/**
 * Points XDG_RUNTIME_DIR at the local client's socket directory, where RPC client libraries look for it like any
 * game; returns what puts the previous value back. Test files run in their own processes (vitest pool "forks"), so
 * this reaches only the file's own clients.
 */
export function useRuntimeDir(dir: string): () => void {
  const previous = process.env.XDG_RUNTIME_DIR;
  process.env.XDG_RUNTIME_DIR = dir;
  return () => {
    if (previous === undefined) delete process.env.XDG_RUNTIME_DIR;
    else process.env.XDG_RUNTIME_DIR = previous;
  };
}
