/** Get Current User Guild Member (PROTOCOL.md §14.5): the caller's own member object, over real HTTP. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bot, request } from '../support/http.js';
import { accessTokenFor } from '../support/platform.js';
import { startBotPlatform, type BotFixture } from './fixture.js';

describe('GET /users/@me/guilds/{guild.id}/member', () => {
  let f: BotFixture;
  const get = (guildId: string, headers: Record<string, string>) =>
    request(`${f.platform.apiBase}/users/@me/guilds/${guildId}/member`, { headers });
  const bearer = async (user: string, scope: string) => {
    const tokens = await accessTokenFor(f.platform, { clientId: f.platform.devApp.id, scope, user });
    return { authorization: `Bearer ${tokens.access_token}` };
  };

  beforeAll(async () => {
    f = await startBotPlatform();
  });
  afterAll(() => f.platform.close());

  it("answers the caller's own member object with its private fields", async () => {
    const response = await get(f.guildId, await bearer('bob', 'guilds.members.read'));
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({
      user: { id: f.memberId, username: 'bob' },
      roles: [],
      nick: null,
      deaf: false,
      mute: false,
      joined_at: expect.any(String),
    });
  });

  it('a guild the user is not in, an unknown or malformed id: 404 10004, alike', async () => {
    const outsider = (await request(`${f.platform.apiBase}/dev/users`, { json: { username: 'outsider' } })).body as {
      id: string;
    };
    expect(outsider.id).toMatch(/^\d+$/);
    const headers = await bearer('outsider', 'guilds.members.read');
    for (const id of [f.guildId, '123456789', 'not-a-guild']) {
      const response = await get(id, headers);
      expect(response.status, id).toBe(404);
      expect(response.body).toEqual({ code: 10004, message: 'Unknown Guild' });
    }
  });

  it('needs a Bearer token with guilds.members.read: other scopes 50026, bots 20001, nothing 401', async () => {
    const without = await get(f.guildId, await bearer('bob', 'identify guilds'));
    expect(without.status).toBe(403);
    expect(without.body).toEqual({ code: 50026, message: 'Missing required OAuth2 scope: guilds.members.read' });
    const asBot = await get(f.guildId, bot(f.botToken));
    expect(asBot.status).toBe(403);
    expect(asBot.body.code).toBe(20001);
    expect((await get(f.guildId, {})).status).toBe(401);
  });
});
