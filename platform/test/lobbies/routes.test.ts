/** Lobby HTTP routes (PROTOCOL.md §10.5): happy paths, auth, validation and limits. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../support/platform.js';
import { bot } from '../support/http.js';
import { startLobbyHarness, type LobbyHarness } from './harness.js';

let h: LobbyHarness;
beforeAll(async () => {
  h = await startLobbyHarness({ lobbyLimits: { maxMembers: 3, maxLobbiesPerUser: 2 } });
});
afterAll(() => h.close());

const secret = () => `secret-${Math.random().toString(36).slice(2)}`;

describe('create or join by secret (PUT /lobbies)', () => {
  it('creates, joins with metadata, overwrites on re-call, and returns the same lobby after leaving', async () => {
    const [alice, bob] = [await h.user('alice'), await h.user('bob')];
    const s = secret();
    const created = await h.call('PUT', '/lobbies', alice.auth, {
      secret: s,
      lobby_metadata: { mode: 'duel' },
      member_metadata: { role: 'host' },
    });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      id: expect.any(String),
      application_id: h.platform.devApp.id,
      metadata: { mode: 'duel' },
      flags: 0,
      members: [
        {
          id: alice.id,
          metadata: { role: 'host' },
          flags: 0,
          connected: false,
          user: expect.objectContaining({ id: alice.id, username: alice.username }),
        },
      ],
    });
    const lobbyId = created.body.id as string;

    const joined = await h.call('PUT', '/lobbies', bob.auth, { secret: s, lobby_metadata: { mode: 'ffa' } });
    expect(joined.body.id).toBe(lobbyId);
    expect(joined.body.metadata).toEqual({ mode: 'ffa' });
    expect(joined.body.members.map((m: { id: string }) => m.id)).toEqual([alice.id, bob.id]);

    const again = await h.call('PUT', '/lobbies', alice.auth, { secret: s, member_metadata: { role: 'spectator' } });
    expect(again.body.metadata).toEqual({ mode: 'ffa' });
    expect(again.body.members[0].metadata).toEqual({ role: 'spectator' });

    expect((await h.call('DELETE', `/lobbies/${lobbyId}/members/@me`, bob.auth)).status).toBe(204);
    expect((await h.call('GET', `/lobbies/${lobbyId}`, h.bot)).body.members.map((m: { id: string }) => m.id)).toEqual([
      alice.id,
    ]);
    expect((await h.call('PUT', '/lobbies', bob.auth, { secret: s })).body.id).toBe(lobbyId);
  });

  it('a bot creates or finds the lobby without joining it', async () => {
    const s = secret();
    const first = await h.call('PUT', '/lobbies', h.bot, {
      secret: s,
      lobby_metadata: { a: '1' },
      idle_timeout_seconds: 60,
    });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      members: [],
      metadata: { a: '1' },
      idle_timeout_seconds: 60,
      override_event_webhooks_url: null,
    });
    expect((await h.call('PUT', '/lobbies', h.bot, { secret: s })).body.id).toBe(first.body.id);
  });

  it('stops being joinable after 30 days; the lobby survives and the secret starts a new one', async () => {
    let now = Date.now();
    const clockHarness = await startLobbyHarness({ now: () => now });
    try {
      const alice = await clockHarness.user('alice');
      const s = secret();
      const old = (await clockHarness.call('PUT', '/lobbies', alice.auth, { secret: s })).body.id as string;
      now += 30 * 86_400_000;
      const fresh = await clockHarness.call('PUT', '/lobbies', alice.auth, { secret: s });
      expect(fresh.body.id).not.toBe(old);
      expect((await clockHarness.call('GET', `/lobbies/${old}`, clockHarness.bot)).status).toBe(200);
    } finally {
      await clockHarness.close();
    }
  });

  it('validates the secret, metadata and idle timeout with field errors and changes nothing', async () => {
    const alice = await h.user('alice');
    const cases: Array<[unknown, unknown]> = [
      [{}, { secret: { _errors: [{ code: 'BASE_TYPE_REQUIRED', message: 'This field is required' }] } }],
      [
        { secret: 'x'.repeat(251) },
        { secret: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 250 or fewer in length.' }] } },
      ],
      [
        { secret: 's', lobby_metadata: Object.fromEntries(Array.from({ length: 26 }, (_, i) => [`k${i}`, 'v'])) },
        { lobby_metadata: { _errors: [{ code: 'DICT_TYPE_MAX_KEYS', message: 'Must have 25 or fewer keys.' }] } },
      ],
      [
        { secret: 's', member_metadata: { k: 'v'.repeat(1025) } },
        {
          member_metadata: {
            k: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 1024 or fewer in length.' }] },
          },
        },
      ],
      [
        { secret: 's', lobby_metadata: { ['k'.repeat(1025)]: 'v' } },
        {
          lobby_metadata: {
            [`${'k'.repeat(128)}…`]: {
              _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 1024 or fewer in length.' }],
            },
          },
        },
      ],
      [
        { secret: 's', idle_timeout_seconds: 4 },
        {
          idle_timeout_seconds: {
            _errors: [{ code: 'NUMBER_TYPE_MIN', message: 'int value should be greater than or equal to 5.' }],
          },
        },
      ],
      [
        { secret: 's', idle_timeout_seconds: 604_801 },
        {
          idle_timeout_seconds: {
            _errors: [{ code: 'NUMBER_TYPE_MAX', message: 'int value should be less than or equal to 604800.' }],
          },
        },
      ],
    ];
    for (const [body, errors] of cases) {
      const response = await h.call('PUT', '/lobbies', alice.auth, body);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ code: 50035, message: 'Invalid Form Body', errors });
    }
    expect(h.platform.store.lobbies.countForUser(alice.id, h.platform.devApp.id)).toBe(0);
  });

  it('refuses a full lobby (30050) and a user over the lobby limit (30051) without creating anything', async () => {
    const users = [await h.user('p'), await h.user('p'), await h.user('p'), await h.user('p')];
    const s = secret();
    for (const user of users.slice(0, 3))
      expect((await h.call('PUT', '/lobbies', user.auth, { secret: s })).status).toBe(200);
    const full = await h.call('PUT', '/lobbies', users[3]!.auth, { secret: s });
    expect([full.status, full.body]).toEqual([
      400,
      { code: 30050, message: 'Maximum number of lobby members reached (3)' },
    ]);

    const busy = users[3]!;
    await h.call('PUT', '/lobbies', busy.auth, { secret: secret() });
    await h.call('PUT', '/lobbies', busy.auth, { secret: secret() });
    const third = secret();
    const over = await h.call('PUT', '/lobbies', busy.auth, { secret: third });
    expect([over.status, over.body.code]).toEqual([400, 30051]);
    expect(h.platform.store.lobbies.findBySecret(h.platform.devApp.id, third)).toBeUndefined();
  });

  it('needs lobbies.write for Bearer tokens and a valid credential', async () => {
    const noScope = await h.user('noscope', 'identify');
    const response = await h.call('PUT', '/lobbies', noScope.auth, { secret: 's' });
    expect([response.status, response.body]).toEqual([
      403,
      { code: 50026, message: 'Missing required OAuth2 scope: lobbies.write' },
    ]);
    expect((await h.call('PUT', '/lobbies', {}, { secret: 's' })).status).toBe(401);
  });
});

describe('bot-managed lobbies', () => {
  it('POST creates with members; GET, PATCH (members replace the set) and idempotent DELETE', async () => {
    const [a, b, c] = [await h.user('a'), await h.user('b'), await h.user('c')];
    const created = await h.call('POST', '/lobbies', h.bot, {
      metadata: { map: 'dust' },
      members: [{ id: a.id, metadata: { team: 'red' }, flags: 1 }, { id: b.id }],
      idle_timeout_seconds: 30,
      flags: 1,
      override_event_webhooks_url: 'https://example.com/hook',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      metadata: { map: 'dust' },
      flags: 1,
      idle_timeout_seconds: 30,
      override_event_webhooks_url: 'https://example.com/hook',
      members: [
        { id: a.id, metadata: { team: 'red' }, flags: 1 },
        { id: b.id, metadata: {}, flags: 0 },
      ],
    });
    const id = created.body.id as string;
    expect((await h.call('GET', `/lobbies/${id}`, h.bot)).body).toEqual(created.body);

    const patched = await h.call('PATCH', `/lobbies/${id}`, h.bot, {
      metadata: null,
      members: [{ id: b.id, metadata: { team: 'blue' } }, { id: c.id }],
      override_event_webhooks_url: null,
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      metadata: {},
      override_event_webhooks_url: null,
      members: [{ id: b.id, metadata: { team: 'blue' } }, { id: c.id }],
    });

    expect((await h.call('DELETE', `/lobbies/${id}`, h.bot)).status).toBe(204);
    expect((await h.call('GET', `/lobbies/${id}`, h.bot)).body).toEqual({ code: 10031, message: 'Unknown Lobby' });
    expect((await h.call('DELETE', `/lobbies/${id}`, h.bot)).status).toBe(204);
  });

  it("POST and PATCH keep each member's additional_name (never dropped) and validate it", async () => {
    const [a, b] = [await h.user('a'), await h.user('b')];
    const created = await h.call('POST', '/lobbies', h.bot, {
      members: [{ id: a.id, additional_name: 'Medic' }, { id: b.id }],
    });
    expect(created.status).toBe(201);
    expect(created.body.members).toEqual([
      expect.objectContaining({ id: a.id, additional_name: 'Medic' }),
      expect.not.objectContaining({ additional_name: expect.anything() }),
    ]);
    const id = created.body.id as string;
    const patched = await h.call('PATCH', `/lobbies/${id}`, h.bot, {
      members: [{ id: a.id }, { id: b.id, additional_name: 'Scout' }],
    });
    // PATCH members: absent keeps, a value sets (like PUT …/members/{id}).
    expect(patched.body.members).toEqual([
      expect.objectContaining({ id: a.id, additional_name: 'Medic' }),
      expect.objectContaining({ id: b.id, additional_name: 'Scout' }),
    ]);
    const cleared = await h.call('PATCH', `/lobbies/${id}`, h.bot, {
      members: [{ id: a.id, additional_name: null }, { id: b.id }],
    });
    expect(cleared.body.members[0].additional_name).toBeUndefined();
    const tooLong = await h.call('POST', '/lobbies', h.bot, {
      members: [{ id: a.id, additional_name: 'x'.repeat(81) }],
    });
    expect(tooLong.body.errors).toEqual({
      members: {
        0: {
          additional_name: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 80 or fewer in length.' }] },
        },
      },
    });
  });

  it('refuses > 25 members, unknown users (10013) and bad URLs, creating nothing', async () => {
    const before = h.platform.store.lobbies.listIdleExpired(Number.MAX_SAFE_INTEGER).length;
    const many = await h.call('POST', '/lobbies', h.bot, { members: Array.from({ length: 26 }, () => ({ id: '1' })) });
    expect(many.body.errors).toEqual({
      members: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 25 or fewer in length.' }] },
    });
    const unknown = await h.call('POST', '/lobbies', h.bot, { members: [{ id: '12345' }] });
    expect([unknown.status, unknown.body]).toEqual([404, { code: 10013, message: 'Unknown User' }]);
    const url = await h.call('POST', '/lobbies', h.bot, { override_event_webhooks_url: 'ftp://example.com' });
    expect(url.body.errors.override_event_webhooks_url._errors[0].code).toBe('URL_TYPE_INVALID_URL');
    expect(h.platform.store.lobbies.listIdleExpired(Number.MAX_SAFE_INTEGER).length).toBe(before);
  });

  it("is bot-only, and other applications' bots see 10031", async () => {
    const alice = await h.user('alice');
    const created = await h.call('POST', '/lobbies', h.bot, {});
    const user = await h.call('GET', `/lobbies/${created.body.id}`, alice.auth);
    expect([user.status, user.body.code]).toEqual([403, 20002]);
    const other = await createApp(h.platform, { name: 'Other Lobby Game' });
    const foreign = await h.call('GET', `/lobbies/${created.body.id}`, bot(other.bot_token));
    expect([foreign.status, foreign.body.code]).toEqual([404, 10031]);
    expect((await h.call('GET', '/lobbies/not-an-id', h.bot)).status).toBe(404);
  });
});

describe('members', () => {
  it('PUT upserts (additional_name: null clears, absent keeps) and DELETE is idempotent', async () => {
    const a = await h.user('a');
    const lobby = (await h.call('POST', '/lobbies', h.bot, {})).body.id as string;
    const put = await h.call('PUT', `/lobbies/${lobby}/members/${a.id}`, h.bot, {
      metadata: { k: 'v' },
      flags: 1,
      additional_name: 'Captain',
    });
    expect(put.body).toEqual({
      id: a.id,
      metadata: { k: 'v' },
      flags: 1,
      additional_name: 'Captain',
      connected: false,
      user: expect.objectContaining({ id: a.id }),
    });
    expect((await h.call('PUT', `/lobbies/${lobby}/members/${a.id}`, h.bot, { flags: 0 })).body).toMatchObject({
      additional_name: 'Captain',
      metadata: { k: 'v' },
      flags: 0,
    });
    expect(
      (await h.call('PUT', `/lobbies/${lobby}/members/${a.id}`, h.bot, { additional_name: null })).body.additional_name,
    ).toBeUndefined();
    const badName = await h.call('PUT', `/lobbies/${lobby}/members/${a.id}`, h.bot, { additional_name: '' });
    expect(badName.body.errors.additional_name._errors[0].code).toBe('BASE_TYPE_MIN_LENGTH');
    const badFlags = await h.call('PUT', `/lobbies/${lobby}/members/${a.id}`, h.bot, { flags: 2 });
    expect(badFlags.body.errors.flags._errors[0].code).toBe('NUMBER_TYPE_MAX');
    expect((await h.call('PUT', `/lobbies/${lobby}/members/999`, h.bot, {})).body.code).toBe(10013);
    expect((await h.call('DELETE', `/lobbies/${lobby}/members/${a.id}`, h.bot)).status).toBe(204);
    expect((await h.call('DELETE', `/lobbies/${lobby}/members/${a.id}`, h.bot)).status).toBe(204);
    expect((await h.call('DELETE', `/lobbies/1/members/${a.id}`, h.bot)).body.code).toBe(10031);
  });

  it('bulk upserts and removes, skips members over a limit, and refuses > 25 entries or unknown users', async () => {
    const [a, b, c, d] = [await h.user('a'), await h.user('b'), await h.user('c'), await h.user('d')];
    const lobby = (await h.call('POST', '/lobbies', h.bot, { members: [{ id: a.id }] })).body.id as string;
    const bulk = await h.call('POST', `/lobbies/${lobby}/members/bulk`, h.bot, [
      { id: b.id, metadata: { x: '1' }, additional_name: 'B' },
      { id: c.id },
      { id: d.id },
      { id: a.id, remove_member: true },
    ]);
    expect(bulk.status).toBe(200);
    // The limit is 3 members: d does not fit when its turn comes and is dropped silently.
    expect(bulk.body.map((m: { id: string }) => m.id)).toEqual([b.id, c.id]);
    expect(bulk.body[0]).toMatchObject({ metadata: { x: '1' }, additional_name: 'B' });
    expect((await h.call('GET', `/lobbies/${lobby}`, h.bot)).body.members.map((m: { id: string }) => m.id)).toEqual([
      b.id,
      c.id,
    ]);

    const tooMany = await h.call(
      'POST',
      `/lobbies/${lobby}/members/bulk`,
      h.bot,
      Array.from({ length: 26 }, () => ({ id: a.id })),
    );
    expect([tooMany.status, tooMany.body.code, tooMany.body.errors._errors[0].code]).toEqual([
      400,
      50035,
      'BASE_TYPE_MAX_LENGTH',
    ]);
    const unknown = await h.call('POST', `/lobbies/${lobby}/members/bulk`, h.bot, [{ id: a.id }, { id: '4242' }]);
    expect([unknown.status, unknown.body.code]).toEqual([404, 10013]);
    expect(h.platform.store.lobbies.member(lobby, a.id)).toBeUndefined();
  });

  it('leaving needs membership by secret: bot-added members get 403 50001', async () => {
    const a = await h.user('a');
    const lobby = (await h.call('POST', '/lobbies', h.bot, { members: [{ id: a.id }] })).body.id as string;
    const leave = await h.call('DELETE', `/lobbies/${lobby}/members/@me`, a.auth);
    expect([leave.status, leave.body]).toEqual([403, { code: 50001, message: 'Missing Access' }]);
    expect(h.platform.store.lobbies.member(lobby, a.id)).toBeDefined();
    const stranger = await h.user('s');
    expect((await h.call('DELETE', `/lobbies/${lobby}/members/@me`, stranger.auth)).body.code).toBe(50001);
    expect((await h.call('DELETE', `/lobbies/${lobby}/members/@me`, h.bot)).body.code).toBe(20001);
  });
});

describe('rate limits', () => {
  it('counts lobbies.write per application, shared by every user of the game', async () => {
    const limited = await startLobbyHarness({ rateLimits: { 'lobbies.write': { limit: 2, windowSeconds: 60 } } });
    try {
      const [a, b] = [await limited.user('a'), await limited.user('b')];
      expect((await limited.call('PUT', '/lobbies', a.auth, { secret: 'one' })).headers['x-ratelimit-remaining']).toBe(
        '1',
      );
      expect((await limited.call('POST', '/lobbies', limited.bot, {})).status).toBe(201);
      const over = await limited.call('PUT', '/lobbies', b.auth, { secret: 'two' });
      expect(over.status).toBe(429);
      expect(over.body).toMatchObject({ message: 'You are being rate limited.', global: false });
      expect(over.headers['x-ratelimit-scope']).toBe('shared');
      expect(limited.platform.store.lobbies.findBySecret(limited.platform.devApp.id, 'two')).toBeUndefined();
    } finally {
      await limited.close();
    }
  });
});
