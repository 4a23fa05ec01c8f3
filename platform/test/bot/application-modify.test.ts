/** `PATCH /applications/@me` (PROTOCOL.md §14.1): every published editable field, over real HTTP. */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bot, request } from '../support/http.js';
import { accessTokenFor, authorizeCode, createApp, startTestPlatform, tempDir } from '../support/platform.js';
import { startBotPlatform, type BotFixture } from './fixture.js';
import { botCall } from './helpers.js';

const MESSAGE_CONTENT_LIMITED = 1 << 19;
const PRESENCE_FULL = 1 << 12;

describe('PATCH /applications/@me', () => {
  let f: BotFixture;
  const current = async () =>
    (await botCall(f, 'GET', '/applications/@me')).body as {
      flags: number;
      flags_new: string;
      event_webhooks_url: string | null;
      event_webhooks_status: number;
      install_params?: unknown;
    };

  beforeAll(async () => {
    f = await startBotPlatform();
  });
  afterAll(() => f.platform.close());

  it('toggles a _LIMITED privileged-intent flag; the answer and GET show it', async () => {
    const before = await current();
    const flags = before.flags ^ MESSAGE_CONTENT_LIMITED;
    const answer = await botCall(f, 'PATCH', '/applications/@me', { flags });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toMatchObject({ id: f.appId, flags, flags_new: String(flags) });
    expect((await current()).flags).toBe(flags);
    expect((await botCall(f, 'PATCH', '/applications/@me', { flags: before.flags })).body.flags).toBe(before.flags);
  });

  it('sets and clears the event webhook URL', async () => {
    const set = await botCall(f, 'PATCH', '/applications/@me', { event_webhooks_url: 'https://hooks.example/svcpp' });
    expect(set.body).toMatchObject({ event_webhooks_url: 'https://hooks.example/svcpp', event_webhooks_status: 2 });
    expect((await current()).event_webhooks_url).toBe('https://hooks.example/svcpp');
    expect((await botCall(f, 'PATCH', '/applications/@me', { event_webhooks_url: null })).body).toMatchObject({
      event_webhooks_url: null,
      event_webhooks_status: 1,
    });
  });

  it('refuses other flag bits, a bad URL and the fields not kept here with 50035, changing nothing', async () => {
    const before = await current();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ flags: before.flags ^ PRESENCE_FULL }, 'flags'],
      [{ flags: -1 }, 'flags'],
      [{ flags: 'x' }, 'flags'],
      [{ event_webhooks_url: 'ftp://hooks.example' }, 'event_webhooks_url'],
      [{ event_webhooks_url: 'not a url' }, 'event_webhooks_url'],
    ];
    for (const [body, field] of cases) {
      const answer = await botCall(f, 'PATCH', '/applications/@me', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.code).toBe(50035);
      expect(answer.body.errors[field], JSON.stringify(answer.body)).toBeDefined();
    }
    expect(await current()).toEqual(before);
  });

  it('sets the profile fields; GET shows them; null clears', async () => {
    const icon = 'data:image/png;base64,iVBORw0KGgo=';
    const body = {
      description: 'A bot for tests',
      icon,
      cover_image: 'data:image/jpeg;base64,/9j/4AAQ',
      tags: ['social', 'games'],
      install_params: { scopes: ['bot', 'applications.commands'], permissions: '2048' },
      integration_types_config: {
        '0': { oauth2_install_params: { scopes: ['bot'], permissions: 1024 } },
        '1': { oauth2_install_params: { scopes: ['applications.commands'] } },
      },
      role_connections_verification_url: 'https://game.example/verify',
    };
    const answer = await botCall(f, 'PATCH', '/applications/@me', body);
    expect(answer.status, answer.text).toBe(200);
    const expected = {
      description: 'A bot for tests',
      icon: expect.stringMatching(/^[0-9a-f]{32}$/),
      cover_image: expect.stringMatching(/^[0-9a-f]{32}$/),
      tags: ['social', 'games'],
      install_params: { scopes: ['bot', 'applications.commands'], permissions: '2048' },
      integration_types_config: {
        '0': { oauth2_install_params: { scopes: ['bot'], permissions: '1024' } },
        '1': { oauth2_install_params: { scopes: ['applications.commands'], permissions: '0' } },
      },
      role_connections_verification_url: 'https://game.example/verify',
    };
    expect(answer.body).toMatchObject(expected);
    expect(await current()).toMatchObject(expected);
    expect(answer.body.custom_install_url).toBeUndefined();
    // The same image gives the same hash; another image another one.
    expect((await botCall(f, 'PATCH', '/applications/@me', { icon })).body.icon).toBe(answer.body.icon);
    expect(
      (await botCall(f, 'PATCH', '/applications/@me', { icon: 'data:image/gif;base64,R0lGOD' })).body.icon,
    ).not.toBe(answer.body.icon);

    const cleared = await botCall(f, 'PATCH', '/applications/@me', {
      icon: null,
      cover_image: null,
      tags: null,
      install_params: null,
      integration_types_config: { '1': null },
      role_connections_verification_url: null,
      description: '',
    });
    expect(cleared.body).toMatchObject({
      description: '',
      icon: null,
      tags: [],
      integration_types_config: { '0': { oauth2_install_params: { scopes: ['bot'], permissions: '1024' } }, '1': {} },
      role_connections_verification_url: null,
    });
    expect(cleared.body.install_params).toBeUndefined();
    expect(cleared.body.cover_image).toBeUndefined();
    expect(
      (await botCall(f, 'PATCH', '/applications/@me', { integration_types_config: null })).body
        .integration_types_config,
    ).toEqual({ '0': {}, '1': {} });
  });

  it("the install link is Discord's (install_params) or a custom URL: setting one clears the other, both at once is refused", async () => {
    const custom = await botCall(f, 'PATCH', '/applications/@me', {
      custom_install_url: 'https://game.example/install',
    });
    expect(custom.body.custom_install_url).toBe('https://game.example/install');
    const params = await botCall(f, 'PATCH', '/applications/@me', {
      install_params: { scopes: ['applications.commands'] },
    });
    expect(params.body.install_params).toEqual({ scopes: ['applications.commands'], permissions: '0' });
    expect(params.body.custom_install_url).toBeUndefined();
    const both = await botCall(f, 'PATCH', '/applications/@me', {
      custom_install_url: 'https://game.example/install',
      install_params: { scopes: ['bot'] },
    });
    expect([both.status, both.body.code, both.body.errors.custom_install_url._errors[0].code]).toEqual([
      400,
      50035,
      'INSTALL_LINK_CONFLICT',
    ]);
    expect((await current()).install_params).toEqual({ scopes: ['applications.commands'], permissions: '0' });
    await botCall(f, 'PATCH', '/applications/@me', { install_params: null });
  });

  it('refuses each profile field past its published limit with 50035 on that field, changing nothing', async () => {
    const before = await current();
    const cases: Array<[Record<string, unknown>, string[]]> = [
      [{ description: 'x'.repeat(401) }, ['description']],
      [{ icon: 'https://cdn.example/icon.png' }, ['icon']],
      [{ cover_image: 'data:text/plain;base64,AAAA' }, ['cover_image']],
      [{ tags: ['a', 'b', 'c', 'd', 'e', 'f'] }, ['tags']],
      [{ tags: ['x'.repeat(21)] }, ['tags', '0']],
      [{ tags: ['same', 'same'] }, ['tags']],
      [{ custom_install_url: 'javascript:alert(1)' }, ['custom_install_url']],
      [{ install_params: { scopes: ['identify'] } }, ['install_params', 'scopes', '0']],
      [{ install_params: { scopes: [] } }, ['install_params', 'scopes']],
      [{ install_params: { scopes: ['applications.commands'], permissions: '8' } }, ['install_params', 'permissions']],
      [{ install_params: { scopes: ['bot'], permissions: String(1n << 47n) } }, ['install_params', 'permissions']],
      [{ install_params: { scopes: ['bot'], permissions: 'all' } }, ['install_params', 'permissions']],
      [
        { integration_types_config: { '1': { oauth2_install_params: { scopes: ['bot'] } } } },
        ['integration_types_config', '1', 'oauth2_install_params', 'scopes'],
      ],
      [{ integration_types_config: { '2': {} } }, ['integration_types_config']],
      [{ role_connections_verification_url: 'x'.repeat(2049) }, ['role_connections_verification_url']],
      [{ event_webhooks_status: 3 }, ['event_webhooks_status']],
      [{ event_webhooks_types: ['MESSAGE_CREATE'] }, ['event_webhooks_types', '0']],
      [{ unknown_field: true }, []],
    ];
    for (const [body, path] of cases) {
      const answer = await botCall(f, 'PATCH', '/applications/@me', body);
      expect([answer.status, answer.body.code], JSON.stringify(body)).toEqual([400, 50035]);
      const node = path.reduce((tree: any, key) => tree?.[key], answer.body.errors);
      expect(node?._errors?.[0]?.code, `${JSON.stringify(body)} → ${answer.text}`).toEqual(expect.any(String));
    }
    expect(await current()).toEqual(before);
  });

  it('needs the bot token: a user token is refused, no token 401', async () => {
    const token = (await accessTokenFor(f.platform, { clientId: f.platform.devApp.id, scope: 'identify', user: 'bob' }))
      .access_token;
    const asUser = await request(`${f.platform.apiBase}/applications/@me`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${token}` },
      json: { flags: 0 },
    });
    expect([401, 403]).toContain(asUser.status);
    expect(
      (await request(`${f.platform.apiBase}/applications/@me`, { method: 'PATCH', json: { flags: 0 } })).status,
    ).toBe(401);
  });
});

describe('event webhook status and types decide what reaches the webhook URL', () => {
  it('a disabled status or an unsubscribed type queues nothing; enabled and subscribed, the event goes out', async () => {
    const platform = await startTestPlatform();
    try {
      const app = await createApp(platform, { name: 'Webhook Settings Game', webhook_url: 'http://127.0.0.1:9/hooks' });
      const patch = (json: unknown) =>
        request(`${platform.apiBase}/applications/@me`, { method: 'PATCH', headers: bot(app.bot_token), json });
      const queued = async () =>
        (
          (await request(`${platform.apiBase}/dev/webhooks/outbox`)).body as Array<{
            application_id: string;
            event: { event: { type: string } };
          }>
        )
          .filter((entry) => entry.application_id === app.id)
          .map((entry) => entry.event.event.type);

      expect((await patch({ event_webhooks_types: ['APPLICATION_DEAUTHORIZED'] })).body).toMatchObject({
        event_webhooks_status: 2,
        event_webhooks_types: ['APPLICATION_DEAUTHORIZED'],
      });
      await authorizeCode(platform, { clientId: app.id, scope: 'identify', user: 'dev_user' });
      expect(await queued()).toEqual([]);

      expect((await patch({ event_webhooks_types: null, event_webhooks_status: 1 })).body.event_webhooks_status).toBe(
        1,
      );
      await authorizeCode(platform, { clientId: app.id, scope: 'identify email', user: 'dev_user' });
      expect(await queued()).toEqual([]);

      expect(
        (await patch({ event_webhooks_status: 2, event_webhooks_types: ['APPLICATION_AUTHORIZED'] })).body
          .event_webhooks_status,
      ).toBe(2);
      await authorizeCode(platform, { clientId: app.id, scope: 'identify', user: 'dev_user' });
      expect(await queued()).toEqual(['APPLICATION_AUTHORIZED']);

      // Enabling needs a URL.
      await patch({ event_webhooks_url: null });
      const refused = await patch({ event_webhooks_status: 2 });
      expect([refused.status, refused.body.errors.event_webhooks_status._errors[0].code]).toEqual([
        400,
        'EVENT_WEBHOOKS_URL_REQUIRED',
      ]);
    } finally {
      await platform.close();
    }
  });
});

describe('integration_types_config in the application config', () => {
  it('the configured install params show on GET /applications/@me; a bad value refuses the config', async () => {
    const f = await startBotPlatform({
      application: {
        integration_types_config: { '0': { oauth2_install_params: { scopes: ['bot'], permissions: '3072' } } },
      },
    });
    try {
      expect((await botCall(f, 'GET', '/applications/@me')).body.integration_types_config).toEqual({
        '0': { oauth2_install_params: { scopes: ['bot'], permissions: '3072' } },
        '1': {},
      });
    } finally {
      await f.platform.close();
    }
    await expect(
      startBotPlatform({
        application: { integration_types_config: { '1': { oauth2_install_params: { scopes: ['bot'] } } } },
      }),
    ).rejects.toThrow(/integration_types_config/);
  });
});

describe('privileged-intent toggles and the 10,000-user rule', () => {
  it('below 10,000 users a toggle grants the _LIMITED flag; from 10,000 users (at the next start) the full flag', async () => {
    const GUILD_MEMBERS = 1 << 14;
    const GUILD_MEMBERS_LIMITED = 1 << 15;
    const database = join(tempDir(), 'intents.db');
    const config = { applications: [{ name: 'Growing Game', privileged_intents: { guild_members: true } }] };
    const first = await startTestPlatform({ database, config });
    let appId: string;
    try {
      const app = first.store.applications.findByName('Growing Game')!;
      appId = app.id;
      expect([app.flags & GUILD_MEMBERS, app.flags & GUILD_MEMBERS_LIMITED]).toEqual([0, GUILD_MEMBERS_LIMITED]);
      // 10,000 authorized users (grants), written straight to the store: the setup, not what is tested.
      first.store.transaction(() => {
        for (let i = 0; i < 10_000; i++)
          first.store.grants.upsert({
            applicationId: app.id,
            userId: String(3_000_000_000_000_000_000n + BigInt(i)),
            scopes: ['identify'],
            createdAt: 0,
          });
      });
    } finally {
      await first.close();
    }
    const second = await startTestPlatform({ database, config });
    try {
      const app = second.store.applications.get(appId)!;
      expect([app.flags & GUILD_MEMBERS, app.flags & GUILD_MEMBERS_LIMITED]).toEqual([GUILD_MEMBERS, 0]);
      const me = await request(`${second.apiBase}/applications/@me`, { headers: bot(app.botToken) });
      expect(me.body).toMatchObject({ flags: app.flags, flags_new: String(app.flags) });
    } finally {
      await second.close();
    }
  });
});
