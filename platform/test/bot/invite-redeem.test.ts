/**
 * Redeeming a guild invite (PROTOCOL.md §14.7) through `POST /invites/{code}`: the user joins with the invite's
 * roles, `uses` counts, bots get GUILD_MEMBER_ADD; used-up, targeted-at-others, unknown and malformed invites are
 * 10006; the token needs `guilds.join`; bots and provisional accounts are refused. Over real HTTP and WebSocket.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../support/http.js';
import { accessTokenFor } from '../support/platform.js';
import { startBotPlatform, type BotFixture } from './fixture.js';
import { botCall, botMultipart, botSession, INTENTS } from './helpers.js';

describe('redeeming a guild invite', () => {
  let f: BotFixture;
  let users = 0;
  /** A new full account and a token of it with `scope`. */
  const newUser = async (scope = 'guilds.join') => {
    const username = `redeemer_${++users}`;
    const created = await botCall(f, 'POST', '/dev/users', { username });
    expect(created.status, created.text).toBe(201);
    const token = (await accessTokenFor(f.platform, { clientId: f.platform.devApp.id, scope, user: username }))
      .access_token;
    return { id: created.body.id as string, auth: { authorization: `Bearer ${token}` } };
  };
  const redeem = (code: string, headers: Record<string, string>) =>
    request(`${f.platform.apiBase}/invites/${code}`, { method: 'POST', headers });
  const invite = async (body: Record<string, unknown> = {}) => {
    const response = await botCall(f, 'POST', `/channels/${f.generalId}/invites`, body);
    expect(response.status, response.text).toBe(200);
    return response.body.code as string;
  };
  const uses = async (code: string) =>
    ((await botCall(f, 'GET', `/channels/${f.generalId}/invites`)).body as Array<{ code: string; uses: number }>).find(
      (i) => i.code === code,
    )?.uses;

  beforeAll(async () => {
    f = await startBotPlatform();
  });
  afterAll(() => f.platform.close());

  it("joins the guild with the invite's roles, counts the use and sends GUILD_MEMBER_ADD; a member redeeming again uses nothing", async () => {
    const role = await botCall(f, 'POST', `/guilds/${f.guildId}/roles`, { name: 'Invited' });
    const code = await invite({ max_uses: 2, role_ids: [role.body.id] });
    const session = await botSession(f, INTENTS.GUILDS | INTENTS.GUILD_MEMBERS);
    try {
      const user = await newUser();
      const joined = await redeem(code, user.auth);
      expect(joined.status, joined.text).toBe(200);
      expect(joined.body).toEqual({
        code,
        guild: { id: f.guildId, name: 'Bot Guild', icon: null },
        channel: { id: f.generalId, name: 'general', type: 0, guild_id: f.guildId },
      });
      expect(await session.next('GUILD_MEMBER_ADD')).toMatchObject({
        guild_id: f.guildId,
        user: { id: user.id },
        roles: [role.body.id],
      });
      expect((await botCall(f, 'GET', `/guilds/${f.guildId}/members/${user.id}`)).body.roles).toEqual([role.body.id]);
      expect(await uses(code)).toBe(1);
      expect((await redeem(code, user.auth)).status).toBe(200);
      expect(await uses(code)).toBe(1);
    } finally {
      await session.close();
    }
  });

  it('a used-up invite, one for other target users, an unknown or a malformed code: 404 10006, and nobody joins', async () => {
    const once = await invite({ max_uses: 1 });
    expect((await redeem(once, (await newUser()).auth)).status).toBe(200);
    const late = await newUser();
    const targeted = await botMultipart(f, 'POST', `/channels/${f.generalId}/invites`, [
      { name: 'payload_json', type: 'application/json', body: '{}' },
      { name: 'target_users_file', filename: 'users.csv', type: 'text/csv', body: `user_id\n${f.ownerId}\n` },
    ]);
    expect(targeted.status, targeted.text).toBe(200);
    for (const code of [once, targeted.body.code as string, 'nope123', 'bad!code']) {
      const answer = await redeem(code, late.auth);
      expect(answer.status, code).toBe(404);
      expect(answer.body).toEqual({ code: 10006, message: 'Unknown Invite' });
    }
    expect((await botCall(f, 'GET', `/guilds/${f.guildId}/members/${late.id}`)).status).toBe(404);
  });

  it('needs a user token with guilds.join (50026); a bot is refused (20001); no token 401', async () => {
    const code = await invite();
    const withoutScope = await newUser('identify');
    const refused = await redeem(code, withoutScope.auth);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ code: 50026, message: 'Missing required OAuth2 scope: guilds.join' });
    expect((await botCall(f, 'GET', `/guilds/${f.guildId}/members/${withoutScope.id}`)).status).toBe(404);
    const asBot = await botCall(f, 'POST', `/invites/${code}`);
    expect(asBot.status).toBe(403);
    expect(asBot.body.code).toBe(20001);
    expect((await redeem(code, {})).status).toBe(401);
    expect(await uses(code)).toBe(0);
  });
});
