/**
 * The developer portal over real HTTP (PROTOCOL.md §15): sign-in, the session cookie, every form's bad input shown
 * and changing nothing, anti-forgery refusals, redirects without a session, secrets shown once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningPlatform } from '../../src/index.js';
import type { ApplicationRecord } from '../../src/store/types.js';
import { RawClient } from '../gateway/client.js';
import { bot, request } from '../support/http.js';
import { startTestPlatform } from '../support/platform.js';
import { connect, fullUser } from '../support/social.js';
import { signatureIsValid, startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { csrfToken, fieldError, PortalClient, shownSecrets } from './client.js';

let platform: RunningPlatform;
let receiver: WebhookReceiver;
let counter = 0;

beforeAll(async () => {
  platform = await startTestPlatform();
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver.close();
  await platform.close();
});

const record = (id: string): ApplicationRecord => platform.store.applications.get(id)!;

/** A signed-in client and a new application (created through the portal) to change. */
async function withApplication(): Promise<{ client: PortalClient; app: ApplicationRecord; page: string }> {
  const client = new PortalClient(platform);
  await client.signInAsDeveloper();
  const name = `Portal App ${process.pid} ${++counter}`;
  const created = await client.submit('/developers/applications', '/developers/applications', { name, parent_id: '' });
  expect(created.status, created.text.slice(0, 500)).toBe(303);
  const app = platform.store.applications.findByName(name)!;
  return { client, app, page: `/developers/applications/${app.id}` };
}

/** Every portal route as the router has it (HEAD twins left out), with a real application id in place of :id. */
function portalRoutes(id: string): Array<{ method: string; path: string }> {
  return platform.routes
    .filter((route) => route.method !== 'HEAD' && route.url.startsWith('/developers'))
    .map((route) => ({ method: route.method, path: route.url.replace(':id', id) }));
}

describe('portal sign-in', () => {
  it('serves a labelled sign-in form with a login anti-forgery cookie (HttpOnly, SameSite=Strict, not Secure over plain HTTP)', async () => {
    const client = new PortalClient(platform);
    const page = await client.get('/developers/login');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.text).toContain('<label for="login-username">Username</label>');
    expect(page.text).toContain('<label for="login-password">Password</label>');
    expect(page.text).toContain('<html lang="en">');
    expect(page.text).toContain('<a class="skip" href="#main">');
    const cookie = client.setCookies.find((line) => line.startsWith('svcpp_portal_login='))!;
    expect(cookie.split('; ').slice(1)).toEqual([
      'Path=/developers/login',
      'HttpOnly',
      'SameSite=Strict',
      'Max-Age=3600',
    ]);
  });

  it('signs in with the dev token in development mode: a session cookie scoped to /developers, HttpOnly and SameSite=Strict', async () => {
    const client = new PortalClient(platform);
    const response = await client.signIn('developer', platform.devToken);
    expect([response.status, response.headers.location]).toEqual([303, '/developers/applications']);
    const cookie = client.setCookies.find((line) => line.startsWith('svcpp_portal_session='))!;
    expect(cookie.split('; ').slice(1)).toEqual(['Path=/developers', 'HttpOnly', 'SameSite=Strict', 'Max-Age=28800']);
    expect((await client.get('/developers/applications')).status).toBe(200);
    expect((await client.get('/developers')).headers.location).toBe('/developers/applications');
  });

  it('refuses a wrong password or username with 401 and the error shown, and starts no session', async () => {
    for (const [username, password] of [
      ['developer', 'not-the-token'],
      ['someone', platform.devToken],
    ] as const) {
      const client = new PortalClient(platform);
      const response = await client.signIn(username, password);
      expect(response.status).toBe(401);
      expect(fieldError(response.text, 'login-password')).toBe('Wrong username or password.');
      expect(response.text).toContain('role="alert"');
      expect(client.cookies.has('svcpp_portal_session')).toBe(false);
      expect((await client.get('/developers/applications')).headers.location).toBe('/developers/login');
    }
  });

  it('refuses an empty form with 400 and the error shown', async () => {
    const client = new PortalClient(platform);
    const page = await client.get('/developers/login');
    const response = await client.postRaw('/developers/login', {
      csrf: csrfToken(page.text),
      username: '',
      password: '',
    });
    expect(response.status).toBe(400);
    expect(fieldError(response.text, 'login-password')).toBe('Enter your username and password.');
  });

  it("refuses a sign-in without the login form's anti-forgery token (a foreign page signing the browser in) with 403", async () => {
    const client = new PortalClient(platform);
    // No login cookie at all (a cross-site form post carries none: SameSite=Strict), then a mismatching one.
    const bare = await client.postRaw('/developers/login', {
      csrf: 'x',
      username: 'developer',
      password: platform.devToken,
    });
    expect(bare.status).toBe(403);
    await client.get('/developers/login');
    const forged = await client.postRaw('/developers/login', {
      csrf: 'forged',
      username: 'developer',
      password: platform.devToken,
    });
    expect(forged.status).toBe(403);
    expect(forged.text).toContain('nothing was changed');
    expect(client.cookies.has('svcpp_portal_session')).toBe(false);
  });

  it('stops checking passwords after 10 failures from one address (429), even for the right one', async () => {
    const own = await startTestPlatform();
    try {
      const client = new PortalClient(own);
      for (let i = 0; i < 10; i++) expect((await client.signIn('developer', `guess-${i}`)).status).toBe(401);
      const blocked = await client.signIn('developer', own.devToken);
      expect(blocked.status).toBe(429);
      expect(fieldError(blocked.text, 'login-password')).toBe('Too many failed sign-ins. Wait a minute and try again.');
      expect(client.cookies.has('svcpp_portal_session')).toBe(false);
    } finally {
      await own.close();
    }
  });

  it('signs out: the session ends on the server, not only in the browser', async () => {
    const client = new PortalClient(platform);
    await client.signInAsDeveloper();
    const session = client.cookies.get('svcpp_portal_session')!;
    const out = await client.submit('/developers/applications', '/developers/logout');
    expect([out.status, out.headers.location]).toEqual([303, '/developers/login']);
    const replay = await request(`${platform.httpUrl}/developers/applications`, {
      headers: { cookie: `svcpp_portal_session=${session}` },
    });
    expect([replay.status, replay.headers.location]).toEqual([303, '/developers/login']);
  });
});

describe('portal access rules', () => {
  it('redirects every page and form to the sign-in page without a session, changing nothing', async () => {
    const before = record(platform.devApp.id);
    const count = platform.store.applications.list().length;
    const open = new Set(['/developers/login', '/developers/portal.css']);
    const routes = portalRoutes(platform.devApp.id).filter((route) => !open.has(route.path));
    expect(routes.length).toBeGreaterThan(15);
    for (const route of routes) {
      const response = await request(`${platform.httpUrl}${route.path}`, {
        method: route.method,
        ...(route.method === 'POST' && {
          form: {
            csrf: 'x',
            name: 'Sneaky',
            redirect_uri: 'https://evil.example/cb',
            webhook_url: 'https://evil.example/',
          },
        }),
      });
      expect([route.method, route.path, response.status, response.headers.location]).toEqual([
        route.method,
        route.path,
        303,
        '/developers/login',
      ]);
    }
    expect(record(platform.devApp.id)).toEqual(before);
    expect(platform.store.applications.list().length).toBe(count);
  });

  it("refuses every form without the session's anti-forgery token, or with another one, with 403 and changes nothing", async () => {
    const { client, app } = await withApplication();
    const before = record(app.id);
    const count = platform.store.applications.list().length;
    const forms = portalRoutes(app.id).filter((route) => route.method === 'POST' && route.path !== '/developers/login');
    expect(forms.length).toBeGreaterThan(10);
    const form = {
      name: 'Forged',
      parent_id: '',
      redirect_uri: 'https://evil.example/cb',
      webhook_url: 'https://evil.example/',
      type: 'OIDC',
      issuer: 'https://evil.example',
      client_id: 'x',
      public_client: 'on',
    };
    for (const route of forms) {
      for (const csrf of [undefined, 'not-the-token']) {
        const response = await client.postRaw(route.path, csrf === undefined ? form : { ...form, csrf });
        expect([route.path, response.status]).toEqual([route.path, 403]);
        expect(response.text).toContain('nothing was changed');
      }
    }
    expect(record(app.id)).toEqual(before);
    expect(platform.store.applications.list().length).toBe(count);
    // Still signed in: the refusals did not end the session.
    expect((await client.get('/developers/applications')).status).toBe(200);
  });

  it('answers an unknown application with 404', async () => {
    const client = new PortalClient(platform);
    await client.signInAsDeveloper();
    for (const id of ['1', 'abc']) {
      const response = await client.get(`/developers/applications/${id}/oauth2`);
      expect(response.status).toBe(404);
      expect(response.text).toContain('There is no such application.');
    }
  });

  it("answers a JSON post to a portal form with the platform's 50035 body", async () => {
    const client = new PortalClient(platform);
    await client.signInAsDeveloper();
    const response = await request(`${platform.httpUrl}/developers/applications`, {
      json: { name: 'json app' },
      headers: { cookie: `svcpp_portal_session=${client.cookies.get('svcpp_portal_session')}` },
    });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe(50035);
  });
});

describe('portal forms', () => {
  it('creates an application and shows its client secret and bot token once', async () => {
    const client = new PortalClient(platform);
    await client.signInAsDeveloper();
    const name = `Created ${process.pid}`;
    const created = await client.submit('/developers/applications', '/developers/applications', {
      name,
      parent_id: '',
    });
    expect(created.status).toBe(303);
    const app = platform.store.applications.findByName(name)!;
    expect(created.headers.location).toBe(`/developers/applications/${app.id}`);
    const first = await client.get(created.headers.location!);
    expect(shownSecrets(first.text)).toEqual({ 'Client secret': app.clientSecret, 'Bot token': app.botToken });
    expect(first.text).toContain(`<code data-field="application-id">${app.id}</code>`);
    const again = await client.get(created.headers.location!);
    expect(shownSecrets(again.text)).toEqual({});
    expect(again.text).not.toContain(app.clientSecret);
    expect(again.text).not.toContain(app.botToken);
    // The shown bot token is the application's real credential.
    expect(
      (await request(`${platform.apiBase}/users/@me`, { headers: bot(shownSecrets(first.text)['Bot token']!) })).status,
    ).toBe(200);
    expect((await client.get('/developers/applications')).text).toContain(name);
  });

  it('refuses a bad application name or a taken one with the error shown and creates nothing', async () => {
    const client = new PortalClient(platform);
    await client.signInAsDeveloper();
    const count = platform.store.applications.list().length;
    const cases: Array<[Record<string, string>, string, string]> = [
      [{ name: 'x', parent_id: '' }, 'create-name', 'Must be 2 or more in length.'],
      [{ name: 'y'.repeat(65), parent_id: '' }, 'create-name', 'Must be 64 or fewer in length.'],
      [{ parent_id: '' }, 'create-name', 'This field is required'],
      [
        { name: platform.store.applications.get(platform.devApp.id)!.name, parent_id: '' },
        'create-name',
        'An application with this name exists.',
      ],
      [{ name: 'Orphan', parent_id: '42' }, 'create-parent-id', 'Unknown parent application.'],
    ];
    for (const [form, field, message] of cases) {
      const response = await client.submit('/developers/applications', '/developers/applications', form);
      expect([form, response.status, fieldError(response.text, field)]).toEqual([form, 400, message]);
      expect(response.text).toContain('Nothing was changed.');
    }
    expect(platform.store.applications.list().length).toBe(count);
  });

  it('sets and clears a parent; refuses unknown parents, grandchildren and parents becoming children', async () => {
    const parent = await withApplication();
    const child = await withApplication();
    const other = await withApplication();
    const set = await child.client.submit(child.page, `${child.page}/parent`, { parent_id: parent.app.id });
    expect([set.status, set.headers.location]).toEqual([303, child.page]);
    expect(record(child.app.id).parentId).toBe(parent.app.id);
    expect((await parent.client.get(parent.page)).text).toContain(
      `<a href="/developers/applications/${child.app.id}">${child.app.name}</a>`,
    );

    const refusals: Array<[typeof other, string, string]> = [
      [other, '99999', 'Unknown parent application.'],
      [other, other.app.id, 'Unknown parent application.'],
      [other, child.app.id, 'A child application cannot be a parent.'],
      [parent, other.app.id, 'This application is a parent: it cannot become a child.'],
    ];
    for (const [target, parentId, message] of refusals) {
      const before = record(target.app.id);
      const response = await target.client.submit(target.page, `${target.page}/parent`, { parent_id: parentId });
      expect([response.status, fieldError(response.text, 'parent-parent-id')]).toEqual([400, message]);
      expect(record(target.app.id)).toEqual(before);
    }

    expect((await child.client.submit(child.page, `${child.page}/parent`, { parent_id: '' })).status).toBe(303);
    expect(record(child.app.id).parentId).toBeNull();
  });

  it('resets the client secret: the new one is shown once and is the only one that works', async () => {
    const { client, app, page } = await withApplication();
    const response = await client.submit(`${page}/oauth2`, `${page}/oauth2/client-secret`);
    expect([response.status, response.headers.location]).toEqual([303, `${page}/oauth2`]);
    const shown = shownSecrets((await client.get(`${page}/oauth2`)).text)['Client secret']!;
    expect(shown).not.toBe(app.clientSecret);
    expect(record(app.id).clientSecret).toBe(shown);
    expect((await client.get(`${page}/oauth2`)).text).not.toContain(shown);
    const token = (secret: string) =>
      request(`${platform.apiBase}/oauth2/token`, {
        form: { grant_type: 'client_credentials', scope: 'identify', client_id: app.id, client_secret: secret },
      });
    expect((await token(app.clientSecret)).status).toBe(401);
  });

  it("turns the public client flag on and off and refuses a value other than a checkbox's", async () => {
    const { client, app, page } = await withApplication();
    expect(
      (await client.submit(`${page}/oauth2`, `${page}/oauth2/public-client`, { public_client: 'on' })).status,
    ).toBe(303);
    expect(record(app.id).publicClient).toBe(true);
    expect((await client.get(`${page}/oauth2`)).text).toContain('name="public_client" checked');
    const bad = await client.submit(`${page}/oauth2`, `${page}/oauth2/public-client`, { public_client: 'yes' });
    expect(bad.status).toBe(400);
    expect(record(app.id).publicClient).toBe(true);
    expect((await client.submit(`${page}/oauth2`, `${page}/oauth2/public-client`)).status).toBe(303);
    expect(record(app.id).publicClient).toBe(false);
  });

  it('adds and removes redirect URIs; refuses bad, fragment, duplicate and unknown ones with the error shown', async () => {
    const { client, app, page } = await withApplication();
    const add = (uri: string) => client.submit(`${page}/oauth2`, `${page}/oauth2/redirect-uris`, { redirect_uri: uri });
    expect((await add('https://game.example/callback')).status).toBe(303);
    expect((await add('game:/authorize/callback')).status).toBe(303);
    expect(record(app.id).redirectUris).toEqual(['https://game.example/callback', 'game:/authorize/callback']);
    const refusals: Array<[string, string]> = [
      ['not a url', 'Must be an absolute URL without a fragment.'],
      ['https://game.example/cb#frag', 'Must be an absolute URL without a fragment.'],
      ['', 'Must be 1 or more in length.'],
      ['https://game.example/callback', 'This redirect URI is already registered.'],
    ];
    for (const [uri, message] of refusals) {
      const response = await add(uri);
      expect([uri, response.status, fieldError(response.text, 'redirect-redirect-uri')]).toEqual([uri, 400, message]);
    }
    const unknown = await client.submit(`${page}/oauth2`, `${page}/oauth2/redirect-uris/remove`, {
      redirect_uri: 'https://other.example/',
    });
    expect([unknown.status, fieldError(unknown.text, 'redirect-redirect-uri')]).toEqual([
      400,
      'This redirect URI is not registered.',
    ]);
    expect(record(app.id).redirectUris).toEqual(['https://game.example/callback', 'game:/authorize/callback']);
    expect(
      (
        await client.submit(`${page}/oauth2`, `${page}/oauth2/redirect-uris/remove`, {
          redirect_uri: 'https://game.example/callback',
        })
      ).status,
    ).toBe(303);
    expect(record(app.id).redirectUris).toEqual(['game:/authorize/callback']);
  });

  it('adds an OIDC identity provider only when its issuer passes the issuer rules, with the problem shown', async () => {
    const { client, app, page } = await withApplication();
    const path = `${page}/identity-providers`;
    const refusals: Array<[Record<string, string>, string, string]> = [
      [
        { type: 'OIDC', issuer: 'http://accounts.example.com', client_id: 'c' },
        'provider-issuer',
        'Issuer must use https.',
      ],
      [
        { type: 'OIDC', issuer: 'https://10.1.2.3', client_id: 'c' },
        'provider-issuer',
        'Issuer host must be a name, not an IP address.',
      ],
      [
        { type: 'OIDC', issuer: 'https://idp.local', client_id: 'c' },
        'provider-issuer',
        'Issuer host must be a public host name.',
      ],
      [
        { type: 'OIDC', issuer: 'https://accounts.example.com?x=1', client_id: 'c' },
        'provider-issuer',
        'Issuer must not contain a query.',
      ],
      [
        { type: 'OIDC', issuer: 'https://accounts.example.com', client_id: '' },
        'provider-client-id',
        'Must be 1 or more in length.',
      ],
      [
        { type: 'STEAM_SESSION_TICKET', issuer: 'https://accounts.example.com', client_id: 'c' },
        'provider-type',
        'Value must be one of ("OIDC", "EPIC_ONLINE_SERVICES_ID_TOKEN", "UNITY_SERVICES_ID_TOKEN", ' +
          '"APPLE_ID_TOKEN", "PLAYSTATION_NETWORK_ID_TOKEN").',
      ],
    ];
    for (const [form, field, message] of refusals) {
      const response = await client.submit(path, path, form);
      expect([form, response.status, fieldError(response.text, field)]).toEqual([form, 400, message]);
    }
    expect(record(app.id).identityProviders).toEqual([]);
    expect(
      (
        await client.submit(path, path, {
          type: 'OIDC',
          issuer: 'https://accounts.example.com',
          client_id: 'game-client',
        })
      ).status,
    ).toBe(303);
    expect(record(app.id).identityProviders).toEqual([
      { type: 'OIDC', issuer: 'https://accounts.example.com', clientId: 'game-client' },
    ]);
    const duplicate = await client.submit(path, path, {
      type: 'OIDC',
      issuer: 'https://accounts.example.com',
      client_id: 'again',
    });
    expect([duplicate.status, fieldError(duplicate.text, 'provider-issuer')]).toEqual([
      400,
      'This issuer is already configured for this type.',
    ]);
    const unknown = await client.submit(path, `${path}/remove`, { type: 'OIDC', issuer: 'https://other.example.com' });
    expect([unknown.status, fieldError(unknown.text, 'provider-issuer')]).toEqual([400, 'No such identity provider.']);
    expect(record(app.id).identityProviders).toHaveLength(1);
    expect(
      (await client.submit(path, `${path}/remove`, { type: 'OIDC', issuer: 'https://accounts.example.com' })).status,
    ).toBe(303);
    expect(record(app.id).identityProviders).toEqual([]);
  });

  it('sets, refuses and clears the webhook URL', async () => {
    const { client, app, page } = await withApplication();
    const path = `${page}/webhooks`;
    for (const url of ['ftp://files.example/', 'not a url', `https://example.com/${'a'.repeat(2048)}`]) {
      const response = await client.submit(path, `${path}/url`, { webhook_url: url });
      expect(response.status).toBe(400);
      expect(fieldError(response.text, 'webhook-webhook-url')).toMatch(
        /^(Must be an http or https URL\.|Must be 2048 or fewer in length\.)$/,
      );
    }
    expect(record(app.id).webhookUrl).toBeNull();
    expect((await client.submit(path, `${path}/url`, { webhook_url: receiver.url })).status).toBe(303);
    expect(record(app.id).webhookUrl).toBe(receiver.url);
    expect((await client.submit(path, `${path}/url`, { webhook_url: '' })).status).toBe(303);
    expect(record(app.id).webhookUrl).toBeNull();
  });

  it('sends a signed test event to the webhook URL and shows what the receiver answered', async () => {
    const { client, app, page } = await withApplication();
    const path = `${page}/webhooks`;
    const none = await client.submit(path, `${path}/test`);
    expect(none.status).toBe(303);
    expect((await client.get(path)).text).toContain('Test event not delivered. Set a webhook URL first.');

    await client.submit(path, `${path}/url`, { webhook_url: receiver.url });
    const seen = receiver.requests.length;
    expect((await client.submit(path, `${path}/test`)).status).toBe(303);
    expect((await client.get(path)).text).toContain('Test event delivered. The receiver answered HTTP 204.');
    const ping = receiver.requests[seen]!;
    expect(ping.body).toEqual({ version: 1, application_id: app.id, type: 0 });
    expect(signatureIsValid(app.publicKeyHex, ping)).toBe(true);

    receiver.status = 500;
    try {
      await client.submit(path, `${path}/test`);
      expect((await client.get(path)).text).toContain('Test event not delivered. The receiver answered HTTP 500.');
    } finally {
      receiver.status = 204;
    }
  });

  it("resets the bot token: the new one is shown once, the old one stops working and the bot's gateway session is closed", async () => {
    const { client, app, page } = await withApplication();
    const gateway = await RawClient.open(platform.gatewayUrl);
    await gateway.identify(app.botToken);
    expect((await client.get(`${page}/bot`)).text).toContain('connected to the gateway since');
    const response = await client.submit(`${page}/bot`, `${page}/bot/token`);
    expect(response.status).toBe(303);
    expect((await gateway.expectClose()).code).toBe(4004);
    const shown = shownSecrets((await client.get(`${page}/bot`)).text)['Bot token']!;
    expect(shown).not.toBe(app.botToken);
    expect((await request(`${platform.apiBase}/users/@me`, { headers: bot(app.botToken) })).status).toBe(401);
    expect((await request(`${platform.apiBase}/users/@me`, { headers: bot(shown) })).status).toBe(200);
    expect((await client.get(`${page}/bot`)).text).not.toContain(shown);
  });
});

describe('portal pages', () => {
  it("lists an application's lobbies with their members and who is connected", async () => {
    const client = new PortalClient(platform);
    await client.signInAsDeveloper();
    const [alice, bob] = [await fullUser(platform), await fullUser(platform)];
    const secret = `portal-lobby-${process.pid}-${++counter}`;
    let lobbyId = '';
    for (const user of [alice, bob]) {
      const joined = await request(`${platform.apiBase}/lobbies`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${user.token}` },
        json: { secret },
      });
      expect(joined.status, joined.text).toBe(200);
      lobbyId = joined.body.id;
    }
    const session = await connect(platform, alice);
    try {
      const page = (await client.get(`/developers/applications/${platform.devApp.id}/lobbies`)).text;
      const section = page.slice(page.indexOf(`data-lobby="${lobbyId}"`));
      const rows = section.slice(0, section.indexOf('</section>'));
      expect(rows).toContain('2 members');
      expect(rows).toMatch(
        new RegExp(`${alice.username}</td><td><code>${alice.id}</code></td>\\s*<td>[^<]+</td><td>no</td><td>yes</td>`),
      );
      expect(rows).toMatch(
        new RegExp(`${bob.username}</td><td><code>${bob.id}</code></td>\\s*<td>[^<]+</td><td>no</td><td>no</td>`),
      );
      const sessions = (await client.get('/developers/sessions')).text;
      expect(sessions).toContain(`${alice.username} <code>${alice.id}</code></td><td>user</td>`);
      expect(sessions).not.toContain(bob.username);
    } finally {
      session.client.close();
    }
  });

  it('gives every page one <h1>, a language, a skip link and a label for every field', async () => {
    const { client, page } = await withApplication();
    await client.submit(`${page}/oauth2`, `${page}/oauth2/redirect-uris`, { redirect_uri: 'https://game.example/cb' });
    const pages = [
      '/developers/applications',
      '/developers/sessions',
      ...portalRoutes('x')
        .filter((route) => route.method === 'GET' && route.path.startsWith('/developers/applications/x'))
        .map((route) => route.path.replace('/x', page.slice('/developers/applications'.length))),
    ];
    expect(pages.length).toBe(9);
    let checked = 0;
    for (const path of pages) {
      const html = (await client.get(path)).text;
      expect([path, html.match(/<h1>/g)?.length]).toEqual([path, 1]);
      expect(html).toContain('<html lang="en">');
      expect(html).toContain('<a class="skip" href="#main">Skip to main content</a>');
      const fields = [...html.matchAll(/<(input|select)\b([^>]*)>/g)].filter(
        (match) => !/type="hidden"/.test(match[2]!),
      );
      for (const field of fields) {
        checked++;
        const id = /\bid="([^"]+)"/.exec(field[2]!)?.[1];
        expect([
          path,
          field[0],
          (id !== undefined && new RegExp(`<label[^>]* for="${id}"`).test(html)) || /aria-label="/.test(field[2]!),
        ]).toEqual([path, field[0], true]);
      }
      // Buttons that only say "Remove" say which entry they remove.
      for (const remove of html.matchAll(/<button[^>]*>Remove<\/button>/g))
        expect(remove[0]).toMatch(/aria-label="Remove [^"]+"/);
    }
    // name, parent (list page); parent; public client, redirect URI; type, issuer, client id; webhook URL; three
    // privileged intents; SKU name, type, slug, subscribers, price, available (no SKU yet: no grant form).
    expect(checked).toBe(18);
  });

  it('escapes what it shows: an application name with markup stays text', async () => {
    const { client } = await withApplication();
    const name = `<script>alert(1)</script> ${counter}`;
    expect(
      (await client.submit('/developers/applications', '/developers/applications', { name, parent_id: '' })).status,
    ).toBe(303);
    const list = (await client.get('/developers/applications')).text;
    expect(list).toContain(`&lt;script&gt;alert(1)&lt;/script&gt; ${counter}`);
    expect(list).not.toContain('<script>');
  });
});
