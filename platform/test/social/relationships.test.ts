import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningPlatform } from '../../src/index.js';
import { request } from '../support/http.js';
import { createApp, startTestPlatform } from '../support/platform.js';
import {
  api,
  connect,
  drain,
  fieldCodes,
  fullUser,
  provisionalUser,
  received,
  tokenFor,
  type SocialUser,
} from '../support/social.js';

describe('relationships (PROTOCOL.md §10.1)', () => {
  let platform: RunningPlatform;
  const rel = (user: SocialUser) => api(platform, user.token, 'GET', '/users/@me/relationships');
  const put = (user: SocialUser, other: { id: string }, body: unknown) =>
    api(platform, user.token, 'PUT', `/users/@me/relationships/${other.id}`, body);
  const del = (user: SocialUser, other: { id: string }, query: string) =>
    api(platform, user.token, 'DELETE', `/users/@me/relationships/${other.id}?${query}`);
  const types = async (user: SocialUser) =>
    Object.fromEntries(
      ((await rel(user)).body as { id: string; type: number; game_type: number }[]).map((r) => [
        r.id,
        [r.type, r.game_type],
      ]),
    );

  beforeAll(async () => {
    platform = await startTestPlatform({ socialLimits: { platformFriends: 2, spamRequestThreshold: 3 } });
  });
  afterAll(() => platform.close());

  it('request by username, accept by PUT, list both sides', async () => {
    const [a, b] = [await fullUser(platform), await fullUser(platform)];
    const sent = await api(platform, a.token, 'POST', '/users/@me/relationships', {
      username: b.username.toUpperCase(),
    });
    expect(sent.status, sent.text).toBe(204);
    expect(await types(a)).toEqual({ [b.id]: [4, 0] });
    const incoming = (await rel(b)).body;
    expect(incoming).toEqual([
      {
        id: a.id,
        type: 3,
        game_type: 0,
        is_spam_request: false,
        since: expect.stringMatching(/Z$/),
        user: expect.objectContaining({ id: a.id, username: a.username }),
      },
    ]);
    expect((await put(b, a, { type: 1 })).status).toBe(204);
    expect(await types(a)).toEqual({ [b.id]: [1, 0] });
    expect(await types(b)).toEqual({ [a.id]: [1, 0] });
  });

  it('game axis is per application and independent of the platform axis', async () => {
    const other = await createApp(platform, { name: 'Rel Other Game', public_client: true });
    const [a, b] = [await fullUser(platform), await fullUser(platform)];
    expect((await put(a, b, { type: 1, game: true })).status).toBe(204);
    expect((await put(b, a, { type: 1, game: true })).status).toBe(204);
    expect(await types(a)).toEqual({ [b.id]: [0, 1] });
    const aOther = { ...a, token: await tokenFor(platform, a, other.id) };
    expect(await types(aOther)).toEqual({});
  });

  it('dispatches RELATIONSHIP_ADD/REMOVE: platform axis to every application, game axis to that application only', async () => {
    const other = await createApp(platform, { name: 'Rel Dispatch Game', public_client: true });
    const [a, b] = [await fullUser(platform), await fullUser(platform)];
    const bDev = await connect(platform, b);
    const bOther = await connect(platform, b, await tokenFor(platform, b, other.id));
    expect((await put(a, b, { type: 1 })).status).toBe(204);
    const expected = {
      id: a.id,
      axis: 'platform',
      type: 3,
      is_spam_request: false,
      user: expect.objectContaining({ id: a.id }),
    };
    expect(await received(platform, bDev, 'RELATIONSHIP_ADD')).toEqual([expected]);
    expect(await received(platform, bOther, 'RELATIONSHIP_ADD')).toEqual([expected]);

    expect((await put(a, b, { type: 1, game: true })).status).toBe(204);
    expect(await received(platform, bDev, 'RELATIONSHIP_ADD')).toEqual([
      { ...expected, axis: 'game', application_id: platform.devApp.id },
    ]);
    expect(await received(platform, bOther, 'RELATIONSHIP_ADD')).toEqual([]);

    expect((await del(a, b, 'action=cancel&game=true')).status).toBe(204);
    expect(await received(platform, bDev, 'RELATIONSHIP_REMOVE')).toEqual([
      { ...expected, axis: 'game', application_id: platform.devApp.id, type: 0 },
    ]);
    expect(await received(platform, bOther, 'RELATIONSHIP_REMOVE')).toEqual([]);
    await bDev.client.close();
    await bOther.client.close();
  });

  it('READY carries relationships only with relationships.read', async () => {
    const [a, b] = [await fullUser(platform), await fullUser(platform)];
    await put(a, b, { type: 1 });
    const withScope = await connect(platform, b);
    expect(withScope.ready.relationships).toEqual([expect.objectContaining({ id: a.id, type: 3, game_type: 0 })]);
    expect(withScope.ready.game_relationships).toEqual([]);
    const narrow = await connect(platform, b, await tokenFor(platform, b, platform.devApp.id, 'identify'));
    expect(narrow.ready.relationships).toEqual([]);
    await withScope.client.close();
    await narrow.client.close();
  });

  it('refuses a token without relationships.read', async () => {
    const a = await fullUser(platform, { scope: 'identify' });
    const response = await rel(a);
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ code: 50026, message: 'Missing required OAuth2 scope: relationships.read' });
  });

  it('refuses bots', async () => {
    const response = await request(`${platform.apiBase}/users/@me/relationships`, {
      headers: { authorization: `Bot ${platform.devApp.botToken}` },
    });
    expect(response.status).toBe(403);
    expect(response.body.code).toBe(20001);
  });

  it('self → 80001, unknown username → 80004, unknown id → 10013', async () => {
    const a = await fullUser(platform);
    expect((await put(a, a, { type: 1 })).body).toMatchObject({ code: 80001 });
    const unknown = await api(platform, a.token, 'POST', '/users/@me/relationships', { username: 'nobody_here' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe(80004);
    const byId = await put(a, { id: '123' }, { type: 1 });
    expect(byId.status).toBe(404);
    expect(byId.body.code).toBe(10013);
    expect(await types(a)).toEqual({});
  });

  it('validates bodies and queries', async () => {
    const [a, b] = [await fullUser(platform), await fullUser(platform)];
    const badType = await put(a, b, { type: 3 });
    expect(badType.status).toBe(400);
    expect(fieldCodes(badType.body, 'type')).toEqual(['BASE_TYPE_CHOICES']);
    const gameBlock = await put(a, b, { type: 2, game: true });
    expect(fieldCodes(gameBlock.body, 'game')).toEqual(['BASE_TYPE_CHOICES']);
    const noAction = await del(a, b, '');
    expect(fieldCodes(noAction.body, 'action')).toEqual(['BASE_TYPE_REQUIRED']);
    const noUsername = await api(platform, a.token, 'POST', '/users/@me/relationships', {});
    expect(fieldCodes(noUsername.body, 'username')).toEqual(['BASE_TYPE_REQUIRED']);
    expect(await types(a)).toEqual({});
  });

  it('already friends → 80007; repeating a pending request changes nothing', async () => {
    const [a, b] = [await fullUser(platform), await fullUser(platform)];
    await put(a, b, { type: 1 });
    expect((await put(a, b, { type: 1 })).status).toBe(204);
    expect(await types(b)).toEqual({ [a.id]: [3, 0] });
    await put(b, a, { type: 1 });
    const again = await put(a, b, { type: 1 });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ code: 80007, message: 'You are already friends with that user' });
  });

  it('each DELETE action needs its state (80012, nothing changed)', async () => {
    const [a, b] = [await fullUser(platform), await fullUser(platform)];
    await put(a, b, { type: 1 });
    for (const action of ['reject', 'remove', 'unblock']) {
      const response = await del(a, b, `action=${action}`);
      expect(response.status, action).toBe(400);
      expect(response.body).toEqual({ code: 80012, message: 'Invalid relationship transition' });
    }
    expect((await del(b, a, 'action=cancel')).body.code).toBe(80012);
    expect((await del(a, b, 'action=unblock&game=true')).body.code).toBe(80012);
    expect(await types(a)).toEqual({ [b.id]: [4, 0] });
    expect((await del(b, a, 'action=reject')).status).toBe(204);
    expect(await types(a)).toEqual({});
    expect(await types(b)).toEqual({});
  });

  it('remove on the platform axis also removes the game axis', async () => {
    const [a, b] = [await fullUser(platform), await fullUser(platform)];
    for (const game of [false, true]) {
      await put(a, b, { type: 1, game });
      await put(b, a, { type: 1, game });
    }
    expect(await types(a)).toEqual({ [b.id]: [1, 1] });
    expect((await del(a, b, 'action=remove&game=true')).status).toBe(204);
    expect(await types(a)).toEqual({ [b.id]: [1, 0] });
    await put(a, b, { type: 1, game: true });
    expect((await del(a, b, 'action=remove')).status).toBe(204);
    expect(await types(a)).toEqual({});
    expect(await types(b)).toEqual({});
  });

  it('block removes both axes both ways; the blocked side disappears; requests then fail with 80000', async () => {
    const [a, b] = [await fullUser(platform), await fullUser(platform)];
    for (const game of [false, true]) {
      await put(a, b, { type: 1, game });
      await put(b, a, { type: 1, game });
    }
    const bSession = await connect(platform, b);
    await drain(platform, bSession);
    expect((await put(a, b, { type: 2 })).status).toBe(204);
    expect(await types(a)).toEqual({ [b.id]: [2, 0] });
    expect(await types(b)).toEqual({});
    const removed = (await received(platform, bSession, 'RELATIONSHIP_REMOVE')) as { axis: string }[];
    expect(removed.map((r) => r.axis).sort()).toEqual(['game', 'platform']);
    for (const [from, to] of [
      [a, b],
      [b, a],
    ]) {
      const response = await put(from!, to!, { type: 1 });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ code: 80000, message: 'Friend request blocked' });
    }
    expect((await del(a, b, 'action=unblock')).status).toBe(204);
    expect(await types(a)).toEqual({});
    await bSession.client.close();
  });

  it('provisional accounts: no platform axis (80011), game relationships and blocks work', async () => {
    const [p, a] = [await provisionalUser(platform), await fullUser(platform)];
    const refused = await put(p, a, { type: 1 });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe(80011);
    expect((await put(a, p, { type: 1 })).body.code).toBe(80011);
    expect(await types(p)).toEqual({});
    expect((await put(p, a, { type: 1, game: true })).status).toBe(204);
    expect(await types(a)).toEqual({ [p.id]: [0, 3] });
    expect((await put(p, a, { type: 2 })).status).toBe(204);
    expect(await types(p)).toEqual({ [a.id]: [2, 0] });
    expect(await types(a)).toEqual({});
  });

  it('friend limit → 30014 for either side, nothing changed', async () => {
    const [a, b, c, d] = [
      await fullUser(platform),
      await fullUser(platform),
      await fullUser(platform),
      await fullUser(platform),
    ];
    for (const other of [b, c]) {
      await put(a, other, { type: 1 });
      await put(other, a, { type: 1 });
    }
    const send = await put(a, d, { type: 1 });
    expect(send.status).toBe(400);
    expect(send.body.code).toBe(30014);
    await put(d, a, { type: 1 });
    const accept = await put(a, d, { type: 1 });
    expect(accept.body.code).toBe(30014);
    expect(await types(d)).toEqual({ [a.id]: [4, 0] });
  });

  it('spam: flagged senders (dev route) and senders over the threshold', async () => {
    const [spammer, target] = [await fullUser(platform), await fullUser(platform)];
    const flag = await request(`${platform.apiBase}/dev/users/${spammer.id}/spam`, { json: { spammer: true } });
    expect(flag.body).toEqual({ id: spammer.id, spammer: true });
    await put(spammer, target, { type: 1 });
    expect((await rel(target)).body[0].is_spam_request).toBe(true);
    expect((await rel(spammer)).body[0].is_spam_request).toBe(false);

    const busy = await fullUser(platform);
    const targets = [
      await fullUser(platform),
      await fullUser(platform),
      await fullUser(platform),
      await fullUser(platform),
    ];
    for (const t of targets) await put(busy, t, { type: 1 });
    const flags = await Promise.all(targets.map(async (t) => (await rel(t)).body[0].is_spam_request));
    expect(flags).toEqual([false, false, false, true]);
    const unknown = await request(`${platform.apiBase}/dev/users/1/spam`, { json: { spammer: true } });
    expect(unknown.status).toBe(404);
  });

  it('rate limit: relationships per user', async () => {
    const limited = await startTestPlatform({ rateLimits: { relationships: { limit: 2, windowSeconds: 60 } } });
    try {
      const a = await fullUser(limited);
      const second = { ...a, token: await tokenFor(limited, a, limited.devApp.id) };
      expect((await api(limited, a.token, 'GET', '/users/@me/relationships')).status).toBe(200);
      expect((await api(limited, second.token, 'GET', '/users/@me/relationships')).status).toBe(200);
      const third = await api(limited, a.token, 'GET', '/users/@me/relationships');
      expect(third.status).toBe(429);
      expect(third.headers['x-ratelimit-scope']).toBe('user');
    } finally {
      await limited.close();
    }
  });
});
