/** A platform with the local client on, in a temporary socket directory of the test file, acting for `desk`. */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { RunningPlatform, RpcOptions, StartOptions } from '../../src/index.js';
import { accessTokenFor, startTestPlatform, tempDir } from '../helpers/platform.js';
import { api, fullUser, type SocialUser } from '../helpers/social.js';

export const DESKTOP_USER = 'desk';

export interface RpcPlatform {
  platform: RunningPlatform;
  rpc: NonNullable<RunningPlatform['rpc']>;
  dir: string;
  /** The desktop user with an sdk.social_layer token of the dev app (for HTTP calls made "from the desktop"). */
  desk: SocialUser;
  close(): Promise<void>;
}

export async function startRpcPlatform(rpc: RpcOptions = {}, options: StartOptions = {}): Promise<RpcPlatform> {
  const dir = tempDir();
  const platform = await startTestPlatform({
    config: { users: [{ username: DESKTOP_USER, global_name: 'Desk' }] },
    rpc: { user: DESKTOP_USER, socketDir: dir, applicationsDir: join(dir, 'applications'), ...rpc },
    ...options,
  });
  const token = await accessTokenFor(platform, { clientId: platform.devApp.id, scope: 'sdk.social_layer', user: DESKTOP_USER });
  const desk: SocialUser = { id: platform.rpc!.desktopUserId, username: DESKTOP_USER, token: token.access_token };
  return {
    platform,
    rpc: platform.rpc!,
    dir,
    desk,
    close: async () => {
      await platform.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A new platform friend of the desktop user. */
export async function deskFriend(env: RpcPlatform, options: { clientId?: string } = {}): Promise<SocialUser> {
  const friend = await fullUser(env.platform, options);
  await api(env.platform, env.desk.token, 'PUT', `/users/@me/relationships/${friend.id}`, { type: 1 });
  await api(env.platform, friend.token, 'PUT', `/users/@me/relationships/${env.desk.id}`, { type: 1 });
  return friend;
}
