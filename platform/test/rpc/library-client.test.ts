/**
 * An independent RPC client library from the npm registry (@xhayper/discord-rpc), unmodified, against the local
 * client: it finds the socket through XDG_RUNTIME_DIR like any game would, sets an activity of each allowed type,
 * and a friend of the desktop user sees it over the gateway.
 */
import { Client } from '@xhayper/discord-rpc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, eventually } from '../support/platform.js';
import { connect, drain, received } from '../support/social.js';
import { deskFriend, LINKS, startRpcPlatform, useRuntimeDir, type RpcPlatform } from './harness.js';

describe.each(LINKS)('@xhayper/discord-rpc against the local client, %s local client', (link) => {
  let env: RpcPlatform;
  let restoreRuntimeDir: () => void = () => undefined;

  beforeAll(async () => {
    env = await startRpcPlatform({}, {}, link);
    restoreRuntimeDir = useRuntimeDir(env.dir);
  });
  afterAll(async () => {
    restoreRuntimeDir();
    await env.close();
  });

  it('connects, sets activities of types 0, 2, 3 and 5, and a friend sees each over the gateway', async () => {
    const app = await createApp(env.platform, { name: 'Library Game', public_client: true });
    const friend = await deskFriend(env);
    const watcher = await connect(env.platform, friend);
    const client = new Client({ clientId: app.id, transport: { type: 'ipc' } });
    await client.connect();
    expect(client.user?.id).toBe(env.desk.id);
    expect(client.user?.username).toBe('desk');
    await drain(env.platform, watcher);
    for (const type of [0, 2, 3, 5]) {
      await client.user!.setActivity({
        type,
        details: `Library type ${type}`,
        state: 'In the menu',
        partyId: 'lib-party',
        partySize: 1,
        partyMax: 2,
      });
      const updates = (await received(env.platform, watcher, 'PRESENCE_UPDATE')) as Array<{
        user: { id: string };
        activities: Array<Record<string, unknown>>;
      }>;
      expect(updates.at(-1)?.user).toEqual({ id: env.desk.id });
      expect(updates.at(-1)?.activities).toEqual([
        expect.objectContaining({
          type,
          details: `Library type ${type}`,
          state: 'In the menu',
          party: { id: 'lib-party', size: [1, 2] },
          application_id: app.id,
          name: 'Library Game',
        }),
      ]);
    }
    await expect(
      client.user!.setActivity({ type: 1, details: 'Streaming', url: 'https://twitch.tv/x' }),
    ).rejects.toMatchObject({ code: 4000 });
    await client.user!.clearActivity();
    const cleared = (await received(env.platform, watcher, 'PRESENCE_UPDATE')) as Array<{ activities: unknown[] }>;
    expect(cleared.at(-1)?.activities).toEqual([]);
    await client.destroy();
    await watcher.client.close();
  });

  it("authorizes through the library against the platform's token endpoint (confidential client, consent approved by the desktop user)", async () => {
    const app = await createApp(env.platform, { name: 'Library OAuth Game' });
    const client = new Client({ clientId: app.id, clientSecret: app.client_secret, transport: { type: 'ipc' } });
    // The library has no public option for the API base (it always exchanges codes at the public service): its REST
    // client is pointed at this platform; everything else is the library's public login().
    (client as unknown as { rest: { options: { api: string } } }).rest.options.api = `${env.platform.httpUrl}/api`;
    const loggingIn = client.login({ scopes: ['identify', 'guilds'] });
    const pending = await eventually(() =>
      env.rpc.consent.pending().find((request) => request.applicationId === app.id),
    );
    env.rpc.consent.approve(pending.id);
    await loggingIn;
    expect(client.user?.id).toBe(env.desk.id);
    expect(client.application?.id).toBe(app.id);
    await client.destroy();
  });
});
