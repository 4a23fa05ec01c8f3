import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningPlatform } from '../../src/index.js';
import { bearer, request } from '../support/http.js';
import { createApp, startTestPlatform } from '../support/platform.js';
import {
  api,
  befriend as befriendOn,
  connect,
  drain,
  fieldCodes,
  fullUser,
  received,
  tokenFor,
  type SocialUser,
} from '../support/social.js';

describe('presence (PROTOCOL.md §10.2)', () => {
  let platform: RunningPlatform;
  const setPresence = (user: SocialUser, body: unknown, token = user.token) =>
    api(platform, token, 'POST', '/users/@me/presence', body);
  const befriend = (a: SocialUser, b: SocialUser, game = false) => befriendOn(platform, a, b, game);

  beforeAll(async () => {
    platform = await startTestPlatform();
  });
  afterAll(() => platform.close());

  it('a platform friend sees the presence with the normalised activity; a stranger does not', async () => {
    const [a, friend, stranger] = [await fullUser(platform), await fullUser(platform), await fullUser(platform)];
    await befriend(a, friend);
    const aSession = await connect(platform, a);
    const friendSession = await connect(platform, friend);
    const strangerSession = await connect(platform, stranger);
    await drain(platform, aSession);
    await drain(platform, friendSession);
    const response = await setPresence(a, {
      status: 'dnd',
      activity: {
        type: 0,
        state: 'In a match',
        timestamps: { start: 1_700_000_000 },
        party: { id: 'party-1', size: [1, 4] },
        buttons: [{ label: 'Site', url: 'https://example.com' }],
      },
    });
    expect(response.status, response.text).toBe(204);
    const expected = {
      user: { id: a.id },
      status: 'dnd',
      activities: [
        {
          type: 0,
          name: 'svcpp Dev App',
          state: 'In a match',
          timestamps: { start: 1_700_000_000_000 },
          party: { id: 'party-1', size: [1, 4] },
          buttons: [{ label: 'Site', url: 'https://example.com' }],
          application_id: platform.devApp.id,
          created_at: expect.any(Number),
        },
      ],
      client_status: { desktop: 'dnd' },
    };
    expect(await received(platform, friendSession, 'PRESENCE_UPDATE')).toEqual([expected]);
    expect(await received(platform, aSession, 'PRESENCE_UPDATE')).toEqual([expected]);
    expect(await received(platform, strangerSession, 'PRESENCE_UPDATE')).toEqual([]);
    for (const s of [aSession, friendSession, strangerSession]) await s.client.close();
  });

  it('game friends get it only on sessions of that application', async () => {
    const other = await createApp(platform, { name: 'Presence Other Game', public_client: true });
    const [a, b] = [await fullUser(platform), await fullUser(platform)];
    await befriend(a, b, true);
    const aSession = await connect(platform, a);
    const bDev = await connect(platform, b);
    const bOther = await connect(platform, b, await tokenFor(platform, b, other.id));
    await drain(platform, bDev);
    await drain(platform, bOther);
    expect((await setPresence(a, { status: 'idle' })).status).toBe(204);
    expect(await received(platform, bDev, 'PRESENCE_UPDATE')).toEqual([
      expect.objectContaining({ user: { id: a.id }, status: 'idle' }),
    ]);
    expect(await received(platform, bOther, 'PRESENCE_UPDATE')).toEqual([]);
    for (const s of [aSession, bDev, bOther]) await s.client.close();
  });

  it('online when the first session appears, offline when the last one goes; READY presences lists online friends', async () => {
    const [a, b] = [await fullUser(platform), await fullUser(platform)];
    await befriend(a, b);
    const bSession = await connect(platform, b);
    expect(bSession.ready.presences).toEqual([]);
    const aSession = await connect(platform, a);
    expect(await received(platform, bSession, 'PRESENCE_UPDATE')).toEqual([
      { user: { id: a.id }, status: 'online', activities: [], client_status: { desktop: 'online' } },
    ]);
    const later = await connect(platform, b);
    expect(later.ready.presences).toEqual([expect.objectContaining({ user: { id: a.id }, status: 'online' })]);
    await aSession.client.close(1000);
    await expect
      .poll(async () => received(platform, bSession, 'PRESENCE_UPDATE'))
      .toEqual([{ user: { id: a.id }, status: 'offline', activities: [], client_status: {} }]);
    await bSession.client.close();
    await later.client.close();
  });

  it("an application's activity is cleared when the user's last session of that application goes", async () => {
    const other = await createApp(platform, { name: 'Presence Clear Game', public_client: true });
    const [a, b] = [await fullUser(platform), await fullUser(platform)];
    await befriend(a, b);
    const bSession = await connect(platform, b);
    const aDev = await connect(platform, a);
    const otherToken = await tokenFor(platform, a, other.id);
    const aOther = await connect(platform, a, otherToken);
    await setPresence(a, { activity: { type: 0, name: 'Dev game' } });
    await setPresence(a, { activity: { type: 0, name: 'Other game' } }, otherToken);
    await drain(platform, bSession);
    await aOther.client.close(1000);
    await expect
      .poll(async () =>
        ((await received(platform, bSession, 'PRESENCE_UPDATE')) as { activities: { name: string }[] }[]).map((p) =>
          p.activities.map((x) => x.name),
        ),
      )
      .toEqual([['Dev game']]);
    await aDev.client.close();
    await bSession.client.close();
  });

  it('invisible is offline to friends and invisible to oneself', async () => {
    const [a, b] = [await fullUser(platform), await fullUser(platform)];
    await befriend(a, b);
    const aSession = await connect(platform, a);
    const bSession = await connect(platform, b);
    await drain(platform, aSession);
    await drain(platform, bSession);
    await setPresence(a, { status: 'invisible', activity: { type: 0 } });
    expect(await received(platform, bSession, 'PRESENCE_UPDATE')).toEqual([
      { user: { id: a.id }, status: 'offline', activities: [], client_status: {} },
    ]);
    expect(await received(platform, aSession, 'PRESENCE_UPDATE')).toEqual([
      expect.objectContaining({ status: 'invisible', activities: [expect.objectContaining({ type: 0 })] }),
    ]);
    await aSession.client.close();
    await bSession.client.close();
  });

  it('gateway op 3 is the same operation; an activity breaking the rules closes with 4001', async () => {
    const [a, b] = [await fullUser(platform), await fullUser(platform)];
    await befriend(a, b);
    const bSession = await connect(platform, b);
    const aSession = await connect(platform, a);
    await drain(platform, bSession);
    aSession.client.send(3, {
      since: null,
      afk: false,
      status: 'idle',
      activities: [{ name: 'Op3', type: 0, state: 'Lobby' }],
    });
    await expect
      .poll(async () => received(platform, bSession, 'PRESENCE_UPDATE'))
      .toEqual([
        expect.objectContaining({
          status: 'idle',
          activities: [expect.objectContaining({ name: 'Op3', state: 'Lobby', application_id: platform.devApp.id })],
        }),
      ]);
    aSession.client.send(3, {
      since: null,
      afk: false,
      status: 'online',
      activities: [{ name: 'Streaming', type: 1 }],
    });
    expect((await aSession.client.expectClose()).code).toBe(4001);
    await bSession.client.close();
  });

  it('validates the activity with field errors and changes nothing', async () => {
    const [a, b] = [await fullUser(platform), await fullUser(platform)];
    await befriend(a, b);
    const aSession = await connect(platform, a);
    const bSession = await connect(platform, b);
    await drain(platform, bSession);
    const cases: [unknown, string[], string][] = [
      [{ activity: { type: 1 } }, ['activity', 'type'], 'BASE_TYPE_CHOICES'],
      [{ activity: { type: 0, state: 'x' } }, ['activity', 'state'], 'BASE_TYPE_MIN_LENGTH'],
      [{ activity: { type: 0, details: 'x'.repeat(129) } }, ['activity', 'details'], 'BASE_TYPE_MAX_LENGTH'],
      [
        { activity: { type: 0, party: { id: 'p1', size: [0, 4] } } },
        ['activity', 'party', 'size', '0'],
        'NUMBER_TYPE_MIN',
      ],
      [
        { activity: { type: 0, party: { id: 'p1', privacy: 2 } } },
        ['activity', 'party', 'privacy'],
        'BASE_TYPE_CHOICES',
      ],
      [{ activity: { type: 0, secrets: { join: 'j' } } }, ['activity', 'secrets', 'join'], 'BASE_TYPE_MIN_LENGTH'],
      [
        {
          activity: {
            type: 0,
            buttons: [
              { label: 'a', url: 'u' },
              { label: 'b', url: 'u' },
              { label: 'c', url: 'u' },
            ],
          },
        },
        ['activity', 'buttons'],
        'BASE_TYPE_MAX_LENGTH',
      ],
      [
        { activity: { type: 0, assets: { large_image: 'x'.repeat(301) } } },
        ['activity', 'assets', 'large_image'],
        'BASE_TYPE_MAX_LENGTH',
      ],
      [{ activity: { type: 0, status_display_type: 3 } }, ['activity', 'status_display_type'], 'NUMBER_TYPE_MAX'],
      [{ status: 'offline' }, ['status'], 'BASE_TYPE_CHOICES'],
    ];
    for (const [body, path, code] of cases) {
      const response = await setPresence(a, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.code).toBe(50035);
      expect(fieldCodes(response.body, ...path), JSON.stringify(body)).toEqual([code]);
    }
    expect(await received(platform, bSession, 'PRESENCE_UPDATE')).toEqual([]);
    await aSession.client.close();
    await bSession.client.close();
  });

  it("join secrets reach only the user's own sessions: no friend dispatch, READY or HTTP read carries them", async () => {
    const [a, friend, gameFriend, later] = [
      await fullUser(platform),
      await fullUser(platform),
      await fullUser(platform),
      await fullUser(platform),
    ];
    await befriend(a, friend);
    await befriend(a, gameFriend, true);
    const aSession = await connect(platform, a);
    const friendSession = await connect(platform, friend);
    const gameFriendSession = await connect(platform, gameFriend);
    for (const s of [aSession, friendSession, gameFriendSession]) await drain(platform, s);
    const party = { id: 'party-secret', size: [1, 4] };
    const httpSecrets = { join: 'join-over-http', spectate: 'spectate-over-http', match: 'match-over-http' };
    expect((await setPresence(a, { activity: { type: 0, state: 'Lobby', party, secrets: httpSecrets } })).status).toBe(
      204,
    );
    aSession.client.send(3, {
      since: null,
      afk: false,
      status: 'online',
      activities: [{ name: 'Op3', type: 0, party, secrets: { join: 'join-over-op3' } }],
    });
    // Someone who becomes a friend now is introduced to the current presence; a friend's new session gets it in READY.
    const laterSession = await connect(platform, later);
    await drain(platform, laterSession);
    await befriend(a, later);
    const friendLater = await connect(platform, friend);
    const secrets = [...Object.values(httpSecrets), 'join-over-op3'];

    const own = (
      (await received(platform, aSession, 'PRESENCE_UPDATE')) as {
        user: { id: string };
        activities: { secrets?: unknown }[];
      }[]
    ).filter((p) => p.user.id === a.id);
    expect(own.map((p) => p.activities[0]!.secrets)).toEqual([httpSecrets, { join: 'join-over-op3' }]);
    expect(friendLater.ready.presences).toEqual([
      expect.objectContaining({ user: { id: a.id }, activities: [expect.objectContaining({ name: 'Op3', party })] }),
    ]);
    const seenByOthers: unknown[] = [friendLater.ready];
    for (const session of [friendSession, gameFriendSession, laterSession]) {
      const updates = await received(platform, session, 'PRESENCE_UPDATE');
      // They do see the activity and its party — only the secrets are the owner's.
      expect(updates.at(-1)).toMatchObject({
        user: { id: a.id },
        activities: [expect.objectContaining({ name: 'Op3', party })],
      });
      seenByOthers.push(...updates);
    }
    for (const route of platform.routes.filter((r) => r.method === 'GET' && r.url.startsWith('/api/'))) {
      const path = route.url.replace(/:\w+/g, a.id);
      seenByOthers.push((await request(`${platform.httpUrl}${path}`, { headers: bearer(friend.token) })).text);
    }
    const text = JSON.stringify(seenByOthers);
    for (const secret of secrets) expect(text).not.toContain(secret);
    for (const s of [aSession, friendSession, gameFriendSession, laterSession, friendLater]) await s.client.close();
  });

  it('needs activities.write', async () => {
    const a = await fullUser(platform, { scope: 'identify' });
    const response = await setPresence(a, { status: 'idle' });
    expect(response.status).toBe(403);
    expect(response.body.code).toBe(50026);
  });

  it('presence.update is limited per user (429 from the shared limiter)', async () => {
    const limited = await startTestPlatform({ rateLimits: { 'presence.update': { limit: 2, windowSeconds: 20 } } });
    try {
      const a = await fullUser(limited);
      const second = await tokenFor(limited, a, limited.devApp.id);
      expect((await api(limited, a.token, 'POST', '/users/@me/presence', { status: 'idle' })).status).toBe(204);
      expect((await api(limited, second, 'POST', '/users/@me/presence', { status: 'idle' })).status).toBe(204);
      const third = await api(limited, a.token, 'POST', '/users/@me/presence', { status: 'idle' });
      expect(third.status).toBe(429);
      expect(third.body).toEqual({
        message: 'You are being rate limited.',
        retry_after: expect.any(Number),
        global: false,
      });
    } finally {
      await limited.close();
    }
  });
});
