/** GET /guilds/{id}/channels for SDK users (OURS) and the application profiles of a user session's READY. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningPlatform } from '../../src/index.js';
import { GatewayClient } from '../support/gateway-client.js';
import { bearer, bot, request } from '../support/http.js';
import { accessTokenFor, startTestPlatform } from '../support/platform.js';

describe('guild channels', () => {
  let platform: RunningPlatform;
  let guildId: string;
  const token = async (user: string, scope = 'guilds') =>
    (await accessTokenFor(platform, { clientId: platform.devApp.id, scope, user })).access_token;
  const channels = (guildId: string, headers: Record<string, string>) =>
    request(`${platform.apiBase}/guilds/${guildId}/channels`, { headers });

  beforeAll(async () => {
    platform = await startTestPlatform({
      config: {
        users: [{ username: 'owner_olga' }, { username: 'member_max' }, { username: 'outsider_oz' }],
        guilds: [
          {
            name: 'Channel Guild',
            owner: 'owner_olga',
            members: ['member_max'],
            channels: [
              { name: 'voice', type: 2, position: 2 },
              { name: 'general', type: 0, position: 1, parent: 'Text' },
              { name: 'Text', type: 4, position: 0 },
            ],
          },
        ],
      },
    });
    const state = (await request(`${platform.apiBase}/dev/state`)).body as { guilds: { id: string; name: string }[] };
    guildId = state.guilds.find((g) => g.name === 'Channel Guild')!.id;
  });
  afterAll(() => platform.close());

  it("lists the channels sorted by position with the owner's permissions", async () => {
    const response = await channels(guildId, bearer(await token('owner_olga')));
    expect(response.status).toBe(200);
    const [category, general, voice] = response.body as Record<string, unknown>[];
    expect([category?.name, general?.name, voice?.name]).toEqual(['Text', 'general', 'voice']);
    expect(general).toEqual({
      id: expect.any(String),
      type: 0,
      flags: 0,
      guild_id: guildId,
      name: 'general',
      position: 1,
      parent_id: category?.id,
      nsfw: false,
      permission_overwrites: [],
      permissions: '8866461766385663',
      linked_lobby: null,
    });
    expect(category?.parent_id).toBeNull();
  });

  it('gives members the @everyone permission set (no Manage Channels)', async () => {
    const response = await channels(guildId, bearer(await token('member_max')));
    expect(response.status).toBe(200);
    const permissions = BigInt((response.body as { permissions: string }[])[0]?.permissions ?? '0');
    expect(permissions & (1n << 4n)).toBe(0n);
    expect(permissions & ((1n << 10n) | (1n << 11n))).toBe((1n << 10n) | (1n << 11n));
  });

  it('answers 403 50001 to non-members and 404 10004 for unknown or malformed guild ids', async () => {
    const outsider = bearer(await token('outsider_oz'));
    expect((await channels(guildId, outsider)).body).toEqual({ code: 50001, message: 'Missing Access' });
    expect((await channels(guildId, outsider)).status).toBe(403);
    const unknown = await channels('123', outsider);
    expect([unknown.status, unknown.body.code]).toEqual([404, 10004]);
    expect((await channels('not-a-snowflake', outsider)).status).toBe(404);
  });

  it('needs a Bearer token with the guilds scope (implied by sdk.social_layer)', async () => {
    const noScope = await channels(guildId, bearer(await token('owner_olga', 'identify')));
    expect([noScope.status, noScope.body.code]).toEqual([403, 50026]);
    expect((await channels(guildId, bearer(await token('owner_olga', 'openid sdk.social_layer')))).status).toBe(200);
    expect((await channels(guildId, bot(platform.devApp.botToken))).status).toBe(403);
    expect((await channels(guildId, {})).status).toBe(401);
  });
});

describe('application profiles in READY', () => {
  let platform: RunningPlatform;
  beforeAll(async () => {
    platform = await startTestPlatform();
  });
  afterAll(() => platform.close());

  async function readyUser(accessToken: string): Promise<Record<string, unknown>> {
    const client = new GatewayClient({
      url: platform.gatewayUrl,
      token: `Bearer ${accessToken}`,
      autoReconnect: false,
    });
    try {
      return ((await client.connect()) as { user: Record<string, unknown> }).user;
    } finally {
      await client.close();
    }
  }

  it("lists the provisional account's identity of the session's application", async () => {
    const issued = await request(`${platform.apiBase}/partner-sdk/token/bot`, {
      headers: bot(platform.devApp.botToken),
      json: { external_user_id: 'player-42', preferred_global_name: 'Player 42' },
    });
    expect(issued.status).toBe(200);
    const user = await readyUser(issued.body.access_token);
    expect(user.application_profiles).toEqual([
      {
        provider_type: 'DISCORD_BOT_ISSUED_ACCESS_TOKEN',
        provider_id: null,
        provider_issued_user_id: 'player-42',
        username: 'Player 42',
        avatar_hash: null,
        metadata: null,
      },
    ]);
  });

  it('is empty for a full account without identities', async () => {
    const { access_token } = await accessTokenFor(platform, {
      clientId: platform.devApp.id,
      scope: 'openid sdk.social_layer',
      user: 'dev_user',
    });
    expect((await readyUser(access_token)).application_profiles).toEqual([]);
  });
});
