import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningPlatform } from '../../src/index.js';
import { bearer, bot, request } from '../support/http.js';
import { accessTokenFor, devState, startTestPlatform, type AppCredentials } from '../support/platform.js';

describe('users', () => {
  let platform: RunningPlatform;
  let premiumApp: AppCredentials;
  let publisher: AppCredentials;
  let guildIds: string[];
  const token = async (scope: string, clientId = platform.devApp.id, user = 'erin') =>
    (
      await accessTokenFor(platform, {
        clientId,
        scope,
        user,
        ...(clientId === premiumApp?.id ? { clientSecret: premiumApp.client_secret } : {}),
      })
    ).access_token;
  const get = (path: string, headers: Record<string, string>) => request(`${platform.apiBase}${path}`, { headers });

  beforeAll(async () => {
    platform = await startTestPlatform({
      config: {
        users: [
          {
            username: 'erin',
            global_name: 'Erin',
            email: 'erin@example.com',
            premium_type: 2,
            primary_guild: 'Tagged Guild',
            connections: [
              { type: 'steam', id: '765', name: 'erin_steam' },
              { type: 'xbox', id: 'x1', name: 'erin_xbox', publisher_application: 'Publisher App' },
            ],
          },
        ],
        guilds: [
          { name: 'Tagged Guild', tag: 'ERIN', banner: 'banner_hash_1', owner: 'erin', features: ['GUILD_TAGS'] },
          { name: 'Second Guild', banner: null, members: ['erin', 'dev_user'] },
          { name: 'Third Guild', members: ['erin'] },
        ],
        applications: [
          { name: 'Publisher App' },
          { name: 'Premium Partner', identify_premium_approved: true, redirect_uris: ['http://127.0.0.1/callback'] },
        ],
      },
    });
    const { applications } = await devState(platform);
    premiumApp = applications.find((a: AppCredentials & { name: string }) => a.name === 'Premium Partner');
    publisher = applications.find((a: AppCredentials & { name: string }) => a.name === 'Publisher App');
    guildIds = (await get('/users/@me/guilds', bearer(await token('guilds')))).body.map((g: { id: string }) => g.id);
  });
  afterAll(() => platform.close());

  describe('GET /users/@me', () => {
    it('returns the user object with primary_guild and the is_provisional marker', async () => {
      const response = await get('/users/@me', bearer(await token('identify')));
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        username: 'erin',
        global_name: 'Erin',
        discriminator: '0',
        is_provisional: false,
        primary_guild: { identity_enabled: true, tag: 'ERIN', identity_guild_id: guildIds[0] },
      });
      expect(response.body.email).toBeUndefined();
    });

    it('adds email and verified with the email scope', async () => {
      const response = await get('/users/@me', bearer(await token('identify email')));
      expect(response.body.email).toBe('erin@example.com');
      expect(response.body.verified).toBe(true);
    });

    it('reports premium_type 0 unless the app is approved for identify.premium and the token holds it', async () => {
      expect((await get('/users/@me', bearer(await token('identify')))).body.premium_type).toBe(0);
      expect((await get('/users/@me', bearer(await token('identify', premiumApp.id)))).body.premium_type).toBe(0);
      expect(
        (await get('/users/@me', bearer(await token('identify identify.premium', premiumApp.id)))).body.premium_type,
      ).toBe(2);
    });

    it('needs identify (50026), which the sdk.* scopes imply', async () => {
      const response = await get('/users/@me', bearer(await token('guilds')));
      expect(response.status).toBe(403);
      expect(response.body.code).toBe(50026);
      expect((await get('/users/@me', bearer(await token('openid sdk.social_layer_presence')))).status).toBe(200);
    });

    it('answers a bot with its own user', async () => {
      const response = await get('/users/@me', bot(platform.devApp.botToken));
      expect(response.body.bot).toBe(true);
    });
  });

  describe('GET /users/{id}', () => {
    it('returns the public user object to bots and users', async () => {
      const me = (await get('/users/@me', bearer(await token('identify')))).body;
      const response = await get(`/users/${me.id}`, bot(platform.devApp.botToken));
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ id: me.id, username: 'erin', primary_guild: { tag: 'ERIN' } });
      expect(response.body.email).toBeUndefined();
      expect(response.body.premium_type).toBeUndefined();
      expect((await get(`/users/${me.id}`, bearer(await token('identify')))).status).toBe(200);
    });

    it('answers 10013 for unknown and malformed ids, 401 without credentials', async () => {
      for (const id of ['12345', 'not-an-id']) {
        const response = await get(`/users/${id}`, bot(platform.devApp.botToken));
        expect(response.status).toBe(404);
        expect(response.body).toEqual({ code: 10013, message: 'Unknown User' });
      }
      expect((await get('/users/12345', {})).status).toBe(401);
    });
  });

  describe('GET /users/@me/guilds', () => {
    it('needs the guilds scope (50026) and includes banner for each guild', async () => {
      const denied = await get('/users/@me/guilds', bearer(await token('identify')));
      expect(denied.status).toBe(403);
      expect(denied.body.code).toBe(50026);
      const response = await get('/users/@me/guilds', bearer(await token('guilds')));
      expect(response.body).toHaveLength(3);
      for (const guild of response.body) expect(guild).toHaveProperty('banner');
      expect(response.body[0]).toMatchObject({
        name: 'Tagged Guild',
        banner: 'banner_hash_1',
        owner: true,
        features: ['GUILD_TAGS'],
      });
      expect(response.body[1]).toMatchObject({ name: 'Second Guild', banner: null, owner: false });
      expect(typeof response.body[0].permissions).toBe('string');
    });

    it('paginates with before/after/limit and counts with with_counts', async () => {
      const auth = bearer(await token('guilds'));
      expect((await get(`/users/@me/guilds?after=${guildIds[0]}`, auth)).body.map((g: { id: string }) => g.id)).toEqual(
        guildIds.slice(1),
      );
      expect(
        (await get(`/users/@me/guilds?before=${guildIds[2]}&limit=1`, auth)).body.map((g: { id: string }) => g.id),
      ).toEqual([guildIds[1]]);
      expect((await get('/users/@me/guilds?limit=2', auth)).body).toHaveLength(2);
      const counted = await get('/users/@me/guilds?with_counts=true', auth);
      expect(counted.body[1].approximate_member_count).toBe(2);
      expect((await get('/users/@me/guilds', auth)).body[1].approximate_member_count).toBeUndefined();
    });

    it('validates the query', async () => {
      const response = await get(
        '/users/@me/guilds?limit=500&before=abc&with_counts=maybe',
        bearer(await token('guilds')),
      );
      expect(response.status).toBe(400);
      expect(response.body.errors.limit._errors[0].code).toBe('NUMBER_TYPE_MAX');
      expect(response.body.errors.before._errors[0].code).toBe('NUMBER_TYPE_COERCE');
      expect(response.body.errors.with_counts._errors[0].code).toBe('BASE_TYPE_CHOICES');
    });

    it("lists a bot's guilds without scopes", async () => {
      const response = await get('/users/@me/guilds', bot(platform.devApp.botToken));
      expect(response.status).toBe(200);
      expect(response.body).toEqual([]);
    });
  });

  describe('GET /users/@me/connections', () => {
    it('needs the connections scope and never returns publisher connections', async () => {
      const denied = await get('/users/@me/connections', bearer(await token('identify')));
      expect(denied.body.code).toBe(50026);
      const response = await get('/users/@me/connections', bearer(await token('connections')));
      expect(response.status).toBe(200);
      expect(response.body).toEqual([
        {
          type: 'steam',
          id: '765',
          name: 'erin_steam',
          verified: true,
          visibility: 1,
          friend_sync: false,
          show_activity: true,
          two_way_link: false,
          revoked: false,
          integrations: [],
        },
      ]);
      expect(publisher.id).toBeTruthy();
    });
  });

  it('validates dev user creation', async () => {
    const response = await request(`${platform.apiBase}/dev/users`, {
      json: { username: 'Bad Name', premium_type: 9, primary_guild: 'No Such Guild' },
    });
    expect(response.status).toBe(400);
    expect(response.body.errors.username._errors[0].code).toBe('STRING_TYPE_REGEX');
    expect(response.body.errors.premium_type._errors[0].code).toBe('NUMBER_TYPE_MAX');
    const unknownGuild = await request(`${platform.apiBase}/dev/users`, {
      json: { username: 'guildless', primary_guild: 'No Such Guild' },
    });
    expect(unknownGuild.body.errors.primary_guild._errors[0].code).toBe('UNKNOWN_GUILD');
    expect(
      (await request(`${platform.apiBase}/dev/state`)).body.users.some(
        (u: { username: string }) => u.username === 'guildless',
      ),
    ).toBe(false);
  });

  it('validates guild tags (1–4 characters) in the configuration', async () => {
    const response = await request(`${platform.apiBase}/dev/guilds`, { json: { name: 'Long Tag', tag: 'TOOLONG' } });
    expect(response.status).toBe(400);
    expect(response.body.errors.tag._errors[0].code).toBe('BASE_TYPE_MAX_LENGTH');
    const empty = await request(`${platform.apiBase}/dev/guilds`, { json: { name: 'Empty Tag', tag: '' } });
    expect(empty.body.errors.tag._errors[0].code).toBe('BASE_TYPE_MIN_LENGTH');
  });
});
