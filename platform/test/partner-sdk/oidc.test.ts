import { generateKeyPair } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningPlatform } from '../../src/index.js';
import { bot, request } from '../support/http.js';
import { startFakeIssuer, type FakeIssuer } from '../support/fake-issuer.js';
import { createApp, me, startTestPlatform, type AppCredentials } from '../support/platform.js';

const AUDIENCE = 'game-client-id';

describe('provisional accounts: external credential exchange (OIDC)', () => {
  let issuer: FakeIssuer;
  let platform: RunningPlatform;
  let app: AppCredentials;
  let publicApp: AppCredentials;

  const exchange = (body: Record<string, unknown>) => request(`${platform.apiBase}/partner-sdk/token`, { json: body });
  const withSecret = (token: string, extra: Record<string, unknown> = {}) =>
    exchange({
      client_id: app.id,
      client_secret: app.client_secret,
      external_auth_type: 'OIDC',
      external_auth_token: token,
      ...extra,
    });

  beforeAll(async () => {
    issuer = await startFakeIssuer(AUDIENCE);
    platform = await startTestPlatform({
      allowLocalhostIssuers: true,
      outboundCaPems: [issuer.caPem],
      oidcCacheSeconds: 0,
    });
    const provider = { type: 'OIDC', issuer: issuer.issuer, client_id: AUDIENCE };
    app = await createApp(platform, { name: 'OIDC Game', identity_providers: [provider] });
    publicApp = await createApp(platform, {
      name: 'OIDC Public Game',
      public_client: true,
      identity_providers: [provider],
    });
  });
  afterAll(async () => {
    await platform.close();
    await issuer.close();
  });
  beforeEach(() => {
    issuer.discovery = 'ok';
    issuer.jwks = 'ok';
  });

  it('creates a provisional account named after preferred_username and returns a refresh token', async () => {
    const response = await withSecret(await issuer.sign({ sub: 'oidc-user-1', preferred_username: 'Ranger' }));
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({ token_type: 'Bearer', expires_in: 604800, scope: 'sdk.social_layer' });
    expect(response.body.refresh_token).toEqual(expect.any(String));
    expect(response.body.id_token).toEqual(expect.any(String));
    const user = await me(platform, response.body.access_token);
    expect(user.body).toMatchObject({ global_name: 'Ranger', is_provisional: true });

    const again = await withSecret(await issuer.sign({ sub: 'oidc-user-1' }));
    expect((await me(platform, again.body.access_token)).body.id).toBe(user.body.id);
  });

  it('refuses signed claims holding an unpaired surrogate (530020), as every input is refused', async () => {
    for (const claims of [{ sub: 'oidc-lone-1', preferred_username: 'Rang\ud800er' }, { sub: 'oidc-lone-\udc00' }]) {
      const response = await withSecret(await issuer.sign(claims));
      expect([response.status, response.body]).toEqual([
        400,
        { code: 530020, message: 'Invalid OIDC JWT: claims are not valid Unicode text' },
      ]);
    }
    // The same subject signs in once its claims are text.
    const clean = await withSecret(await issuer.sign({ sub: 'oidc-lone-1', preferred_username: 'Ranger' }));
    expect(clean.status, clean.text).toBe(200);
    expect((await me(platform, clean.body.access_token)).body).toMatchObject({
      global_name: 'Ranger',
      is_provisional: true,
    });
  });

  it('still honours the (deprecated) refresh token of an OIDC provisional token', async () => {
    const first = await withSecret(await issuer.sign({ sub: 'refreshing-player' }));
    const userId = (await me(platform, first.body.access_token)).body.id;
    const refreshed = await request(`${platform.apiBase}/oauth2/token`, {
      form: {
        grant_type: 'refresh_token',
        refresh_token: first.body.refresh_token,
        client_id: app.id,
        client_secret: app.client_secret,
      },
    });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body).toMatchObject({
      scope: 'sdk.social_layer',
      expires_in: 604800,
      id_token: expect.any(String),
    });
    expect((await me(platform, refreshed.body.access_token)).body.id).toBe(userId);
    expect((await me(platform, first.body.access_token)).status).toBe(401);
  });

  it('accepts the public-client form without a secret (OURS) only for public clients', async () => {
    const token = await issuer.sign({ sub: 'public-1' });
    const response = await exchange({
      client_id: publicApp.id,
      external_auth_type: 'OIDC',
      external_auth_token: token,
    });
    expect(response.status).toBe(200);
    const nullSecret = await exchange({
      client_id: publicApp.id,
      client_secret: null,
      external_auth_type: 'OIDC',
      external_auth_token: token,
    });
    expect(nullSecret.status).toBe(200);
    const confidential = await exchange({ client_id: app.id, external_auth_type: 'OIDC', external_auth_token: token });
    expect(confidential.body.code).toBe(530007);
  });

  it('answers 530007 for a wrong client secret', async () => {
    const response = await withSecret(await issuer.sign({}), { client_secret: 'wrong' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ code: 530007, message: 'Invalid client secret' });
  });

  it('accepts Bot auth when the bot belongs to the client', async () => {
    const token = await issuer.sign({ sub: 'bot-auth' });
    const ok = await request(`${platform.apiBase}/partner-sdk/token`, {
      headers: bot(app.bot_token),
      json: {
        client_id: app.id,
        client_secret: app.client_secret,
        external_auth_type: 'OIDC',
        external_auth_token: token,
      },
    });
    expect(ok.status).toBe(200);
    const mismatch = await request(`${platform.apiBase}/partner-sdk/token`, {
      headers: bot(platform.devApp.botToken),
      json: {
        client_id: app.id,
        client_secret: app.client_secret,
        external_auth_type: 'OIDC',
        external_auth_token: token,
      },
    });
    expect(mismatch.body.errors.client_id._errors[0].code).toBe('CLIENT_ID_MISMATCH');
  });

  const badTokens: Array<[string, () => Promise<string>, number]> = [
    ['530001 expired', () => issuer.sign({ exp: Math.floor(Date.now() / 1000) - 10 }), 530001],
    ['530002 issuer mismatch', () => issuer.sign({ iss: 'https://other.example.com' }), 530002],
    ['530003 audience mismatch', () => issuer.sign({ aud: 'someone-else' }), 530003],
    ['530004 older than a week', () => issuer.sign({ iat: Math.floor(Date.now() / 1000) - 8 * 86_400 }), 530004],
    ['530027 missing kid', () => issuer.sign({}, { kid: null }), 530027],
    ['530020 unknown kid', () => issuer.sign({}, { kid: 'other' }), 530020],
    ['530020 missing sub', () => issuer.sign({ sub: undefined }), 530020],
    [
      '530020 symmetric algorithm',
      () => issuer.sign({}, { alg: 'HS256', key: new TextEncoder().encode('x'.repeat(32)) }),
      530020,
    ],
    ['530020 bad signature', async () => issuer.sign({}, { key: (await generateKeyPair('ES256')).privateKey }), 530020],
    ['530020 not a JWT', async () => 'not.a-jwt', 530020],
  ];
  it.each(badTokens)('rejects %s', async (_name, makeToken, code) => {
    const response = await withSecret(await makeToken());
    expect(response.status).toBe(400);
    expect(response.body.code).toBe(code);
  });

  it('rejects an algorithm the issuer does not advertise (530020)', async () => {
    issuer.discovery = 'rs256-only';
    const response = await withSecret(await issuer.sign({}));
    expect(response.body.code).toBe(530020);
  });

  it.each([
    ['missing', 530008],
    ['redirect', 530008],
    ['wrong-issuer', 530008],
    ['no-jwks-uri', 530008],
    ['http-jwks-uri', 530009],
  ] as const)('answers discovery problem "%s" with %i and never follows redirects', async (mode, code) => {
    issuer.discovery = mode;
    issuer.requests.length = 0;
    const response = await withSecret(await issuer.sign({}));
    expect(response.body.code).toBe(code);
    expect(issuer.requests.some((url) => url.startsWith('/elsewhere'))).toBe(false);
  });

  it.each(['missing', 'redirect'] as const)('answers key set problem "%s" with 530009', async (mode) => {
    issuer.jwks = mode;
    issuer.requests.length = 0;
    const response = await withSecret(await issuer.sign({}));
    expect(response.body.code).toBe(530009);
    expect(issuer.requests).toContain('/jwks');
    expect(issuer.requests.some((url) => url.startsWith('/elsewhere'))).toBe(false);
  });

  it('rejects auth types without a configured provider and bot-issued tokens outside merges', async () => {
    const apple = await withSecret(await issuer.sign({}), { external_auth_type: 'APPLE_ID_TOKEN' });
    expect(apple.body.errors.external_auth_type._errors[0].code).toBe('IDENTITY_PROVIDER_NOT_CONFIGURED');
    const botIssued = await withSecret('whatever', { external_auth_type: 'DISCORD_BOT_ISSUED_ACCESS_TOKEN' });
    expect(botIssued.body.errors.external_auth_type._errors[0].code).toBe('EXTERNAL_AUTH_TYPE_INVALID');
  });

  it('validates the body', async () => {
    const response = await exchange({ client_id: 'x', external_auth_type: 'FACEBOOK', external_auth_token: '' });
    expect(response.status).toBe(400);
    expect(response.body.errors.client_id._errors[0].code).toBe('NUMBER_TYPE_COERCE');
    expect(response.body.errors.external_auth_type._errors[0].code).toBe('BASE_TYPE_CHOICES');
    expect(response.body.errors.external_auth_token._errors[0].code).toBe('BASE_TYPE_MIN_LENGTH');
    const unknownClient = await exchange({ client_id: '99', external_auth_type: 'OIDC', external_auth_token: 'x' });
    expect(unknownClient.body.errors.client_id._errors[0].code).toBe('UNKNOWN_APPLICATION');
  });

  it('answers 530000 for an application without provisional accounts', async () => {
    const disabled = await createApp(platform, {
      name: 'OIDC Disabled',
      provisional_accounts_enabled: false,
      identity_providers: [{ type: 'OIDC', issuer: issuer.issuer, client_id: AUDIENCE }],
    });
    const response = await exchange({
      client_id: disabled.id,
      client_secret: disabled.client_secret,
      external_auth_type: 'OIDC',
      external_auth_token: await issuer.sign({}),
    });
    expect(response.body.code).toBe(530000);
  });
});

describe('identity provider issuer rules', () => {
  let platform: RunningPlatform;
  beforeAll(async () => {
    platform = await startTestPlatform();
  });
  afterAll(() => platform.close());

  it.each([
    ['http://id.example.com', 'https'],
    ['https://10.0.0.1', 'IP address'],
    ['https://id.example.com?x=1', 'query'],
    ['https://id.example.com#frag', 'fragment'],
    ['https://user:pw@id.example.com', 'userinfo'],
    ['https://auth.local', 'public host'],
    ['https://auth.internal', 'public host'],
    ['https://intranet', 'two labels'],
    ['https://localhost:8443', 'public host'],
    ['not a url', 'absolute URL'],
  ])('rejects %s', async (issuerUrl, reason) => {
    const response = await request(`${platform.apiBase}/dev/applications`, {
      json: { name: 'Bad Issuer', identity_providers: [{ type: 'OIDC', issuer: issuerUrl, client_id: 'c' }] },
    });
    expect(response.status).toBe(400);
    const error = response.body.errors.identity_providers['0'].issuer._errors[0];
    expect(error.code).toBe('ISSUER_INVALID');
    expect(error.message).toContain(reason);
  });

  it('accepts a public multi-label https issuer, and localhost only behind the development flag', async () => {
    const strict = platform;
    const relaxed = await startTestPlatform({ allowLocalhostIssuers: true });
    try {
      const ok = await request(`${strict.apiBase}/dev/applications`, {
        json: {
          name: 'Good Issuer',
          identity_providers: [{ type: 'OIDC', issuer: 'https://accounts.example.com/tenant', client_id: 'c' }],
        },
      });
      expect(ok.status).toBe(201);
      const local = await request(`${relaxed.apiBase}/dev/applications`, {
        json: {
          name: 'Local Issuer',
          identity_providers: [{ type: 'OIDC', issuer: 'https://localhost:8443', client_id: 'c' }],
        },
      });
      expect(local.status).toBe(201);
    } finally {
      await relaxed.close();
    }
  });

  it('refuses to start with an invalid identity provider in the config', async () => {
    await expect(
      startTestPlatform({
        config: {
          applications: [
            { name: 'Broken', identity_providers: [{ type: 'OIDC', issuer: 'http://x.example.com', client_id: 'c' }] },
          ],
        },
      }),
    ).rejects.toThrow(/ISSUER_INVALID/);
  });
});
