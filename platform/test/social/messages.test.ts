import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningPlatform } from '../../src/index.js';
import { bot, request } from '../support/http.js';
import { createApp, devState, startTestPlatform, testClock, type AppCredentials } from '../support/platform.js';
import {
  api,
  befriend as befriendOn,
  connect,
  drain,
  fieldCodes,
  fullUser,
  provisionalUser,
  received,
  tokenFor,
  type SocialUser,
} from '../support/social.js';
import { signatureIsValid, startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

describe('direct messages (PROTOCOL.md §10.4)', () => {
  let platform: RunningPlatform;
  let hooks: WebhookReceiver;
  let game: AppCredentials;
  const clock = testClock();
  const send = (from: SocialUser, to: { id: string }, body: unknown) =>
    api(platform, from.token, 'POST', `/users/${to.id}/messages`, body);
  const history = (user: SocialUser, other: { id: string }, query = '') =>
    api(platform, user.token, 'GET', `/users/@me/dms/${other.id}/messages${query}`);
  const befriend = (a: SocialUser, b: SocialUser, game = false) => befriendOn(platform, a, b, game);
  /** Users whose tokens belong to `game` (which has a webhook URL). */
  const gameUser = async () => fullUser(platform, { clientId: game.id });

  beforeAll(async () => {
    hooks = await startWebhookReceiver();
    platform = await startTestPlatform({
      now: clock.now,
      webhookRetry: { baseMs: 10, maxMs: 50 },
      socialLimits: {
        messageContentMax: 20,
        metadataMaxKeys: 2,
        moderationMetadataMaxKeys: 1,
        historyLimitMax: 3,
        historyLimitDefault: 2,
      },
    });
    game = await createApp(platform, { name: 'DM Game', public_client: true, webhook_url: hooks.url });
  });
  afterAll(async () => {
    await platform.close();
    await hooks.close();
  });

  it('ephemeral between strangers: each side sees the other id as channel; MESSAGE_CREATE to both; signed webhook', async () => {
    const [a, b] = [await gameUser(), await gameUser()];
    const aSession = await connect(platform, a);
    const bSession = await connect(platform, b);
    await drain(platform, aSession);
    await drain(platform, bSession);
    const response = await send(a, b, { content: 'hello', metadata: { k: 'v' } });
    expect(response.status, response.text).toBe(201);
    const message = response.body;
    expect(message).toEqual({
      id: expect.stringMatching(/^\d+$/),
      type: 0,
      content: 'hello',
      channel_id: b.id,
      channel_type: 18,
      author: expect.objectContaining({ id: a.id, username: a.username }),
      recipient_id: b.id,
      timestamp: new Date(clock.now()).toISOString(),
      edited_timestamp: null,
      metadata: { k: 'v' },
      moderation_metadata: {},
      application_id: game.id,
      sent_from_game: true,
      flags: 0,
    });
    expect(await received(platform, aSession, 'MESSAGE_CREATE')).toEqual([message]);
    expect(await received(platform, bSession, 'MESSAGE_CREATE')).toEqual([{ ...message, channel_id: a.id }]);
    const hook = await hooks.waitForEvent('GAME_DIRECT_MESSAGE_CREATE', (h) => h.body.event.data.id === message.id);
    expect(signatureIsValid(game.public_key, hook)).toBe(true);
    expect(hook.body).toMatchObject({
      application_id: game.id,
      type: 1,
      event: { data: { ...message, channel: { id: b.id, type: 18, recipients: [{ id: a.id }, { id: b.id }] } } },
    });
    expect((await history(b, a)).body).toEqual([{ ...message, channel_id: a.id }]);
    await aSession.client.close();
    await bSession.client.close();
  });

  it('persistent between friends (one channel id for both); ephemeral between provisional game friends', async () => {
    const [a, b] = [await gameUser(), await gameUser()];
    await befriend(a, b);
    const first = (await send(a, b, { content: 'one' })).body;
    const second = (await send(b, a, { content: 'two' })).body;
    expect(first.channel_type).toBe(1);
    expect(first.channel_id).toBe(second.channel_id);
    expect([a.id, b.id]).not.toContain(first.channel_id);

    const gameBot = (await devState(platform)).applications.find((x: { id: string }) => x.id === game.id).bot_token;
    const [p, q] = [await provisionalUser(platform, gameBot), await provisionalUser(platform, gameBot)];
    await befriend(p, q, true);
    const provisional = (await send(p, q, { content: 'hi' })).body;
    expect(provisional).toMatchObject({ channel_type: 18, channel_id: q.id });
    const mixed = await gameUser();
    await befriend(p, mixed, true);
    expect((await send(p, mixed, { content: 'hi' })).body.channel_type).toBe(1);
  });

  it('edit and delete: author only (50005), MESSAGE_UPDATE/DELETE to both, webhooks', async () => {
    const [a, b] = [await gameUser(), await gameUser()];
    const message = (await send(a, b, { content: 'draft' })).body;
    const bSession = await connect(platform, b);
    await drain(platform, bSession);
    const notMine = await api(platform, b.token, 'PATCH', `/users/${a.id}/messages/${message.id}`, {
      content: 'hacked',
    });
    expect(notMine.status).toBe(403);
    expect(notMine.body).toEqual({ code: 50005, message: 'Cannot edit a message authored by another user' });
    expect((await api(platform, b.token, 'DELETE', `/users/${a.id}/messages/${message.id}`)).status).toBe(403);
    clock.advance(1000);
    const edited = await api(platform, a.token, 'PATCH', `/users/${b.id}/messages/${message.id}`, { content: 'final' });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ content: 'final', edited_timestamp: new Date(clock.now()).toISOString() });
    expect(await received(platform, bSession, 'MESSAGE_UPDATE')).toEqual([{ ...edited.body, channel_id: a.id }]);
    await hooks.waitForEvent('GAME_DIRECT_MESSAGE_UPDATE', (h) => h.body.event.data.id === message.id);
    expect((await api(platform, a.token, 'DELETE', `/users/${b.id}/messages/${message.id}`)).status).toBe(204);
    expect(await received(platform, bSession, 'MESSAGE_DELETE')).toEqual([{ id: message.id, channel_id: a.id }]);
    const deleted = await hooks.waitForEvent('GAME_DIRECT_MESSAGE_DELETE', (h) => h.body.event.data.id === message.id);
    expect(deleted.body.event.data).toMatchObject({ id: message.id, channel_id: b.id });
    const gone = await api(platform, a.token, 'PATCH', `/users/${b.id}/messages/${message.id}`, { content: 'again' });
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ code: 10008, message: 'Unknown Message' });
    expect((await history(a, b)).body).toEqual([]);
    await bSession.client.close();
  });

  it('blocked either way → 403 50007; unknown user → 404 10013; self → 50007; nothing stored', async () => {
    const [a, b] = [await gameUser(), await gameUser()];
    await api(platform, b.token, 'PUT', `/users/@me/relationships/${a.id}`, { type: 2 });
    for (const [from, to] of [
      [a, b],
      [b, a],
    ]) {
      const response = await send(from!, to!, { content: 'hi' });
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ code: 50007, message: 'Cannot send messages to this user' });
    }
    expect((await send(a, a, { content: 'me' })).body.code).toBe(50007);
    const unknown = await send(a, { id: '42' }, { content: 'hi' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe(10013);
    expect((await history(a, b)).body).toEqual([]);
  });

  it('content and metadata limits with field errors', async () => {
    const [a, b] = [await gameUser(), await gameUser()];
    const cases: [unknown, string[], string][] = [
      [{}, ['content'], 'BASE_TYPE_REQUIRED'],
      [{ content: '' }, ['content'], 'BASE_TYPE_MIN_LENGTH'],
      [{ content: 'x'.repeat(21) }, ['content'], 'BASE_TYPE_MAX_LENGTH'],
      [{ content: 'ok', metadata: { a: '1', b: '2', c: '3' } }, ['metadata'], 'DICT_TYPE_MAX_KEYS'],
      // The error names a long key by its first 128 characters (errors never repeat more of the request).
      [
        { content: 'ok', metadata: { ['k'.repeat(1025)]: 'v' } },
        ['metadata', `${'k'.repeat(128)}…`],
        'BASE_TYPE_MAX_LENGTH',
      ],
      [{ content: 'ok', metadata: { k: 'v'.repeat(1025) } }, ['metadata', 'k'], 'BASE_TYPE_MAX_LENGTH'],
      [{ content: 'ok', metadata: { k: 1 } }, ['metadata', 'k'], 'STRING_TYPE_CONVERT'],
      [{ content: 'ok', metadata: [] }, ['metadata'], 'DICT_TYPE_CONVERT'],
    ];
    for (const [body, path, code] of cases) {
      const response = await send(a, b, body);
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(fieldCodes(response.body, ...path), JSON.stringify(body).slice(0, 80)).toEqual([code]);
    }
    expect((await history(a, b)).body).toEqual([]);
  });

  it('history: newest first, limit (default/max), before, 72 h window; summaries', async () => {
    const [a, b, c] = [await gameUser(), await gameUser(), await gameUser()];
    const old = (await send(a, b, { content: 'old' })).body;
    clock.advance(72 * 3_600_000 + 1);
    const ids: string[] = [];
    for (const content of ['m1', 'm2', 'm3', 'm4'])
      ids.push((await send(content === 'm2' ? b : a, content === 'm2' ? a : b, { content })).body.id);
    await send(a, c, { content: 'to c' });
    expect(((await history(a, b)).body as { content: string }[]).map((m) => m.content)).toEqual(['m4', 'm3']);
    expect(((await history(a, b, '?limit=3')).body as { content: string }[]).map((m) => m.content)).toEqual([
      'm4',
      'm3',
      'm2',
    ]);
    expect(
      ((await history(a, b, `?limit=3&before=${ids[2]}`)).body as { content: string }[]).map((m) => m.content),
    ).toEqual(['m2', 'm1']);
    expect(fieldCodes((await history(a, b, '?limit=4')).body, 'limit')).toEqual(['NUMBER_TYPE_MAX']);
    expect(fieldCodes((await history(a, b, '?limit=0')).body, 'limit')).toEqual(['NUMBER_TYPE_MIN']);
    expect(fieldCodes((await history(a, b, '?before=abc')).body, 'before')).toEqual(['NUMBER_TYPE_COERCE']);
    const summaries = await api(platform, a.token, 'GET', '/users/@me/dms');
    expect(summaries.body).toEqual([
      { user_id: c.id, last_message_id: expect.any(String) },
      { user_id: b.id, last_message_id: ids[3] },
    ]);
    const tooOld = await api(platform, a.token, 'PATCH', `/users/${b.id}/messages/${old.id}`, { content: 'x' });
    expect(tooOld.body.code).toBe(10008);
  });

  it('siblings see DMs; other applications do not', async () => {
    const child = await createApp(platform, { name: 'DM Game Child', public_client: true, parent: game.id });
    const stranger = await createApp(platform, { name: 'DM Unrelated', public_client: true });
    const [a, b] = [await gameUser(), await gameUser()];
    const message = (await send(a, b, { content: 'family' })).body;
    const bChild = await connect(platform, b, await tokenFor(platform, b, child.id));
    const bStranger = await connect(platform, b, await tokenFor(platform, b, stranger.id));
    await drain(platform, bChild);
    await drain(platform, bStranger);
    const childToken = await tokenFor(platform, b, child.id);
    expect(
      ((await api(platform, childToken, 'GET', `/users/@me/dms/${a.id}/messages`)).body as { id: string }[]).map(
        (m) => m.id,
      ),
    ).toEqual([message.id]);
    const strangerToken = await tokenFor(platform, b, stranger.id);
    expect((await api(platform, strangerToken, 'GET', `/users/@me/dms/${a.id}/messages`)).body).toEqual([]);
    const update = await api(platform, a.token, 'PATCH', `/users/${b.id}/messages/${message.id}`, {
      content: 'edited',
    });
    expect(update.status).toBe(200);
    expect(await received(platform, bChild, 'MESSAGE_UPDATE')).toHaveLength(1);
    expect(await received(platform, bStranger, 'MESSAGE_UPDATE')).toEqual([]);
    await bChild.client.close();
    await bStranger.client.close();
  });

  it('moderation metadata (Bot): MESSAGE_UPDATE to both, no webhook; limits; own application only', async () => {
    const [a, b] = [await gameUser(), await gameUser()];
    const message = (await send(a, b, { content: 'mod me' })).body;
    const state = (await devState(platform)).applications as { id: string; bot_token: string }[];
    const gameBot = state.find((x) => x.id === game.id)!.bot_token;
    const url = (appId: string, id = message.id) =>
      `${platform.apiBase}/applications/${appId}/messages/${id}/moderation-metadata`;
    const aSession = await connect(platform, a);
    await drain(platform, aSession);
    const ok = await request(url(game.id), { method: 'PUT', headers: bot(gameBot), json: { flagged: 'no' } });
    expect(ok.status, ok.text).toBe(204);
    expect(await received(platform, aSession, 'MESSAGE_UPDATE')).toEqual([
      expect.objectContaining({ id: message.id, moderation_metadata: { flagged: 'no' }, channel_id: b.id }),
    ]);
    const tooMany = await request(url(game.id), { method: 'PUT', headers: bot(gameBot), json: { a: '1', b: '2' } });
    expect(tooMany.status).toBe(400);
    expect(fieldCodes(tooMany.body)).toEqual(['DICT_TYPE_MAX_KEYS']);
    const longValue = await request(url(game.id), {
      method: 'PUT',
      headers: bot(gameBot),
      json: { a: 'v'.repeat(2001) },
    });
    expect(fieldCodes(longValue.body, 'a')).toEqual(['BASE_TYPE_MAX_LENGTH']);
    const otherApp = await request(url(platform.devApp.id), { method: 'PUT', headers: bot(gameBot), json: {} });
    expect(otherApp.status).toBe(403);
    expect(otherApp.body.code).toBe(50001);
    const devMessageUrl = url(platform.devApp.id);
    expect(
      (await request(devMessageUrl, { method: 'PUT', headers: bot(platform.devApp.botToken), json: {} })).body.code,
    ).toBe(10008);
    const userToken = await request(url(game.id), {
      method: 'PUT',
      headers: { authorization: `Bearer ${a.token}` },
      json: {},
    });
    expect(userToken.body.code).toBe(20002);
    expect(((await history(a, b)).body as { moderation_metadata: unknown }[])[0]!.moderation_metadata).toEqual({
      flagged: 'no',
    });
    const outbox = (await request(`${platform.apiBase}/dev/webhooks/outbox`)).body as {
      event: { event: { type: string; data: { id: string } } };
    }[];
    expect(outbox.filter((e) => e.event?.event?.data?.id === message.id).map((e) => e.event.event.type)).toEqual([
      'GAME_DIRECT_MESSAGE_CREATE',
    ]);
    await aSession.client.close();
  });

  it('moderation metadata on the published path names the two users; a pair the message is not between is 10008', async () => {
    const [a, b, c] = [await gameUser(), await gameUser(), await gameUser()];
    const message = (await send(a, b, { content: 'pub path' })).body;
    const state = (await devState(platform)).applications as { id: string; bot_token: string }[];
    const gameBot = state.find((x) => x.id === game.id)!.bot_token;
    const url = (u1: string, u2: string) =>
      `${platform.apiBase}/partner-sdk/dms/${u1}/${u2}/messages/${message.id}/moderation-metadata`;
    expect(
      (await request(url(b.id, a.id), { method: 'PUT', headers: bot(gameBot), json: { flagged: 'yes' } })).status,
    ).toBe(204);
    expect(((await history(a, b)).body as { moderation_metadata: unknown }[])[0]!.moderation_metadata).toEqual({
      flagged: 'yes',
    });
    expect((await request(url(a.id, c.id), { method: 'PUT', headers: bot(gameBot), json: {} })).body.code).toBe(10008);
  });

  it('dm.send is limited per user and application', async () => {
    const limited = await startTestPlatform({ rateLimits: { 'dm.send': { limit: 1, windowSeconds: 7200 } } });
    try {
      const [a, b] = [await fullUser(limited), await fullUser(limited)];
      expect((await api(limited, a.token, 'POST', `/users/${b.id}/messages`, { content: 'one' })).status).toBe(201);
      const second = await api(limited, a.token, 'POST', `/users/${b.id}/messages`, { content: 'two' });
      expect(second.status).toBe(429);
      expect((await api(limited, b.token, 'POST', `/users/${a.id}/messages`, { content: 'back' })).status).toBe(201);
    } finally {
      await limited.close();
    }
  });
});
