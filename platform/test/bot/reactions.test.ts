/**
 * Reactions (PROTOCOL.md §14.4 "Reactions") at the wire, as libraries send them: URL-encoded emoji in the path, raw
 * HTTP, and the MESSAGE_REACTION_* dispatches a bot session with GUILD_MESSAGE_REACTIONS receives.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessTokenFor } from '../support/platform.js';
import { request } from '../support/http.js';
import { PNG } from '../published/bot-checks.js';
import { startBotPlatform, type BotFixture } from './fixture.js';
import { botCall, botSession, INTENTS } from './helpers.js';

const GUILD_MESSAGE_REACTIONS = 1 << 10;
const ADD_REACTIONS = 1n << 6n;
const THUMBS_UP = '👍';
const enc = encodeURIComponent;

describe('reactions', () => {
  let f: BotFixture;
  let bob: Record<string, string>;
  let alice: Record<string, string>;
  const path = (messageId: string, rest = '') => `/channels/${f.generalId}/messages/${messageId}/reactions${rest}`;
  const asUser = (headers: Record<string, string>, method: string, p: string) =>
    request(`${f.platform.apiBase}${p}`, { method, headers });
  const post = async (content: string) => {
    const response = await botCall(f, 'POST', `/channels/${f.generalId}/messages`, { content });
    expect(response.status, response.text).toBe(200);
    return response.body.id as string;
  };

  beforeAll(async () => {
    f = await startBotPlatform();
    const token = async (user: string) => {
      const tokens = await accessTokenFor(f.platform, { clientId: f.platform.devApp.id, scope: 'messages.read', user });
      return { authorization: `Bearer ${tokens.access_token}` };
    };
    bob = await token('bob');
    alice = await token('alice');
  });
  afterAll(() => f.platform.close());

  it('adds a unicode reaction (204, twice is once) and the message carries it with count, count_details and me', async () => {
    const id = await post('react to me');
    for (let i = 0; i < 2; i++) expect((await botCall(f, 'PUT', path(id, `/${enc(THUMBS_UP)}/@me`))).status).toBe(204);
    const asBot = await botCall(f, 'GET', `/channels/${f.generalId}/messages/${id}`);
    expect(asBot.body.reactions).toEqual([
      {
        emoji: { id: null, name: THUMBS_UP },
        count: 1,
        count_details: { burst: 0, normal: 1 },
        burst_colors: [],
        me_burst: false,
        me: true,
      },
    ]);
    const asBob = await asUser(bob, 'GET', `/channels/${f.generalId}/messages/${id}`);
    expect(asBob.body.reactions[0]).toMatchObject({ count: 1, me: false });
    const listed = await botCall(f, 'GET', `/channels/${f.generalId}/messages?limit=1`);
    expect(listed.body[0].reactions[0].count).toBe(1);
  });

  it('dispatches MESSAGE_REACTION_ADD and _REMOVE to a session with GUILD_MESSAGE_REACTIONS, not to one without', async () => {
    const withIntent = await botSession(f, INTENTS.GUILDS | GUILD_MESSAGE_REACTIONS | INTENTS.GUILD_MESSAGES);
    const without = await botSession(f, INTENTS.GUILDS | INTENTS.GUILD_MESSAGES);
    try {
      const id = await post('events');
      await without.next('MESSAGE_CREATE');
      expect((await asUser(bob, 'PUT', path(id, `/${enc(THUMBS_UP)}/@me`))).status).toBe(204);
      expect(await withIntent.next('MESSAGE_REACTION_ADD')).toMatchObject({
        user_id: f.memberId,
        channel_id: f.generalId,
        message_id: id,
        guild_id: f.guildId,
        emoji: { id: null, name: THUMBS_UP },
        member: { user: { id: f.memberId } },
        message_author_id: f.botUserId,
        burst: false,
        type: 0,
      });
      expect((await asUser(bob, 'DELETE', path(id, `/${enc(THUMBS_UP)}/@me`))).status).toBe(204);
      expect(await withIntent.next('MESSAGE_REACTION_REMOVE')).toEqual({
        user_id: f.memberId,
        channel_id: f.generalId,
        message_id: id,
        guild_id: f.guildId,
        emoji: { id: null, name: THUMBS_UP },
        burst: false,
        type: 0,
      });
      // Both sessions get the next message; by then the one without the intent would have had the reaction events.
      await post('marker');
      await without.next('MESSAGE_CREATE');
      expect(without.seen.map((e) => e.t).filter((t) => t.startsWith('MESSAGE_REACTION'))).toEqual([]);
    } finally {
      await withIntent.close();
      await without.close();
    }
  });

  it("takes the application's custom emoji as name:id (and <:name:id>), keeps its registered name, refuses unknown ones with 10014", async () => {
    const emoji = await botCall(f, 'POST', `/applications/${f.appId}/emojis`, { name: 'party_blob', image: PNG });
    expect(emoji.status, emoji.text).toBe(201);
    const id = await post('custom');
    expect((await botCall(f, 'PUT', path(id, `/${enc(`party_blob:${emoji.body.id}`)}/@me`))).status).toBe(204);
    expect((await asUser(bob, 'PUT', path(id, `/${enc(`<:other_name:${emoji.body.id}>`)}/@me`))).status).toBe(204);
    const message = await botCall(f, 'GET', `/channels/${f.generalId}/messages/${id}`);
    expect(message.body.reactions).toEqual([
      expect.objectContaining({ emoji: { id: emoji.body.id, name: 'party_blob' }, count: 2 }),
    ]);
    const users = await botCall(f, 'GET', path(id, `/${enc(`party_blob:${emoji.body.id}`)}`));
    expect(users.body.map((u: { id: string }) => u.id).sort()).toEqual([f.botUserId, f.memberId].sort());
    for (const bad of ['nope:123', 'abc', 'x', '👍👍']) {
      const refused = await botCall(f, 'PUT', path(id, `/${enc(bad)}/@me`));
      expect([refused.status, refused.body.code], bad).toEqual([400, 10014]);
    }
    expect((await botCall(f, 'GET', `/channels/${f.generalId}/messages/${id}`)).body.reactions).toHaveLength(1);
  });

  it('lists who reacted by user id with limit, after and type', async () => {
    const id = await post('who reacted');
    for (const headers of [bob, alice])
      expect((await asUser(headers, 'PUT', path(id, `/${enc(THUMBS_UP)}/@me`))).status).toBe(204);
    expect((await botCall(f, 'PUT', path(id, `/${enc(THUMBS_UP)}/@me`))).status).toBe(204);
    const all = await botCall(f, 'GET', path(id, `/${enc(THUMBS_UP)}`));
    const ids = all.body.map((u: { id: string }) => u.id);
    expect(ids).toEqual([...ids].sort((a: string, b: string) => (BigInt(a) < BigInt(b) ? -1 : 1)));
    expect(ids).toHaveLength(3);
    expect(all.body[0]).toMatchObject({ id: ids[0], username: expect.any(String) });
    const first = await botCall(f, 'GET', path(id, `/${enc(THUMBS_UP)}?limit=1`));
    expect(first.body.map((u: { id: string }) => u.id)).toEqual([ids[0]]);
    const rest = await botCall(f, 'GET', path(id, `/${enc(THUMBS_UP)}?after=${ids[0]}`));
    expect(rest.body.map((u: { id: string }) => u.id)).toEqual(ids.slice(1));
    expect((await botCall(f, 'GET', path(id, `/${enc(THUMBS_UP)}?type=1`))).body).toEqual([]);
    for (const query of ['limit=0', 'limit=101', 'type=2', 'after=x']) {
      const refused = await botCall(f, 'GET', path(id, `/${enc(THUMBS_UP)}?${query}`));
      expect([refused.status, refused.body.code], query).toEqual([400, 50035]);
    }
  });

  it("removes another user's reaction, one emoji's and all, with MANAGE_MESSAGES, and dispatches each", async () => {
    const session = await botSession(f, INTENTS.GUILDS | GUILD_MESSAGE_REACTIONS);
    try {
      const id = await post('moderate');
      await asUser(bob, 'PUT', path(id, `/${enc(THUMBS_UP)}/@me`));
      await asUser(bob, 'PUT', path(id, `/${enc('🎉')}/@me`));
      await asUser(alice, 'PUT', path(id, `/${enc('🎉')}/@me`));
      await asUser(alice, 'PUT', path(id, `/${enc('🔥')}/@me`));
      expect((await botCall(f, 'DELETE', path(id, `/${enc(THUMBS_UP)}/${f.memberId}`))).status).toBe(204);
      expect(await session.next('MESSAGE_REACTION_REMOVE')).toMatchObject({
        user_id: f.memberId,
        emoji: { name: THUMBS_UP },
      });
      expect((await botCall(f, 'DELETE', path(id, `/${enc('🎉')}`))).status).toBe(204);
      expect(await session.next('MESSAGE_REACTION_REMOVE_EMOJI')).toEqual({
        channel_id: f.generalId,
        guild_id: f.guildId,
        message_id: id,
        emoji: { id: null, name: '🎉' },
      });
      expect((await botCall(f, 'GET', `/channels/${f.generalId}/messages/${id}`)).body.reactions).toEqual([
        expect.objectContaining({ emoji: { id: null, name: '🔥' } }),
      ]);
      expect((await botCall(f, 'DELETE', path(id))).status).toBe(204);
      expect(await session.next('MESSAGE_REACTION_REMOVE_ALL')).toEqual({
        channel_id: f.generalId,
        message_id: id,
        guild_id: f.guildId,
      });
      expect((await botCall(f, 'GET', `/channels/${f.generalId}/messages/${id}`)).body.reactions).toBeUndefined();
    } finally {
      await session.close();
    }
  });

  it('needs ADD_REACTIONS for a new emoji but not to join one; MANAGE_MESSAGES to remove others; nothing changes when refused', async () => {
    const id = await post('permissions');
    expect((await botCall(f, 'PUT', path(id, `/${enc(THUMBS_UP)}/@me`))).status).toBe(204);
    const denied = await botCall(f, 'PUT', `/channels/${f.generalId}/permissions/${f.memberId}`, {
      type: 1,
      allow: '0',
      deny: ADD_REACTIONS.toString(),
    });
    expect(denied.status, denied.text).toBe(204);
    try {
      const refused = await asUser(bob, 'PUT', path(id, `/${enc('🎉')}/@me`));
      expect([refused.status, refused.body.code]).toEqual([403, 50013]);
      expect((await asUser(bob, 'PUT', path(id, `/${enc(THUMBS_UP)}/@me`))).status).toBe(204);
      const removeOthers = await asUser(bob, 'DELETE', path(id, `/${enc(THUMBS_UP)}/${f.botUserId}`));
      expect([removeOthers.status, removeOthers.body.code]).toEqual([403, 50013]);
      const clearAll = await asUser(bob, 'DELETE', path(id));
      expect([clearAll.status, clearAll.body.code]).toEqual([403, 50013]);
      const message = await botCall(f, 'GET', `/channels/${f.generalId}/messages/${id}`);
      expect(message.body.reactions).toEqual([
        expect.objectContaining({ emoji: { id: null, name: THUMBS_UP }, count: 2 }),
      ]);
    } finally {
      await botCall(f, 'DELETE', `/channels/${f.generalId}/permissions/${f.memberId}`);
    }
  });

  it('allows at most 20 different emojis on a message (30010)', async () => {
    const id = await post('twenty');
    const emojis = [...'😀😃😄😁😆😅😂🤣😊😇🙂🙃😉😌😍🥰😘😗😙😚'];
    expect(emojis).toHaveLength(20);
    for (const emoji of emojis)
      expect((await botCall(f, 'PUT', path(id, `/${enc(emoji)}/@me`))).status, emoji).toBe(204);
    const refused = await botCall(f, 'PUT', path(id, `/${enc('😋')}/@me`));
    expect([refused.status, refused.body.code]).toEqual([400, 30010]);
    // Joining an emoji already there is still fine.
    expect((await asUser(bob, 'PUT', path(id, `/${enc('😀')}/@me`))).status).toBe(204);
  });

  it('answers 10008 for an unknown message', async () => {
    const unknown = await botCall(f, 'PUT', path('123', `/${enc(THUMBS_UP)}/@me`));
    expect([unknown.status, unknown.body.code]).toEqual([404, 10008]);
  });
});
