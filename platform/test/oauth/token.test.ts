import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningPlatform } from '../../src/index.js';
import { bearer, request } from '../support/http.js';
import {
  accessTokenFor,
  authorizeCode,
  createApp,
  login,
  me,
  pkcePair,
  startTestPlatform,
  testClock,
  type AppCredentials,
} from '../support/platform.js';

const REDIRECT = 'http://127.0.0.1:5555/callback';

describe('/oauth2/token', () => {
  const clock = testClock();
  let platform: RunningPlatform;
  let confidential: AppCredentials;
  const token = (form: Record<string, string>, headers: Record<string, string> = {}) =>
    request(`${platform.apiBase}/oauth2/token`, { form, headers });

  beforeAll(async () => {
    platform = await startTestPlatform({
      now: clock.now,
      tokenLifetimes: { accessSeconds: 3600, authorizationCodeSeconds: 60 },
    });
    confidential = await createApp(platform, { name: 'Confidential App', owner: 'dev_user' });
  });
  afterAll(() => platform.close());

  describe('authorization_code', () => {
    it('redeems a code with PKCE (public client, no secret) and returns the published shape', async () => {
      const response = await login(platform, {
        clientId: platform.devApp.id,
        scope: 'identify guilds',
        user: 'dev_user',
      });
      expect(response.status).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.body).toEqual({
        token_type: 'Bearer',
        access_token: expect.any(String),
        refresh_token: expect.any(String),
        expires_in: 3600,
        scope: 'identify guilds',
      });
      expect((await me(platform, response.body.access_token)).body.username).toBe('dev_user');
    });

    it('also serves the unversioned /api/oauth2/token and HTTP Basic client authentication', async () => {
      const code = await authorizeCode(platform, {
        clientId: confidential.id,
        scope: 'identify',
        user: 'dev_user',
        redirectUri: REDIRECT,
      });
      const basic = Buffer.from(`${confidential.id}:${confidential.client_secret}`).toString('base64');
      const response = await request(`${platform.httpUrl}/api/oauth2/token`, {
        form: { grant_type: 'authorization_code', code, redirect_uri: REDIRECT },
        headers: { authorization: `Basic ${basic}` },
      });
      expect(response.status).toBe(200);
      expect(response.body.access_token).toBeTruthy();
    });

    it('rejects a wrong code_verifier with invalid_grant and a missing one with invalid_request', async () => {
      const { challenge } = pkcePair();
      const code = await authorizeCode(platform, {
        clientId: platform.devApp.id,
        scope: 'identify',
        user: 'dev_user',
        challenge,
      });
      const wrong = await token({
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT,
        client_id: platform.devApp.id,
        code_verifier: pkcePair().verifier,
      });
      expect(wrong.status).toBe(400);
      expect(wrong.body).toEqual({ error: 'invalid_grant', error_description: 'Invalid "code_verifier" in request.' });
      const missing = await token({
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT,
        client_id: platform.devApp.id,
      });
      expect(missing.body.error).toBe('invalid_request');
    });

    it('requires PKCE for public clients', async () => {
      const code = await authorizeCode(platform, { clientId: platform.devApp.id, scope: 'identify', user: 'dev_user' });
      const response = await token({
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT,
        client_id: platform.devApp.id,
      });
      expect(response.status).toBe(400);
      expect(response.body.error).toBe('invalid_request');
      expect(response.body.error_description).toContain('PKCE');
    });

    it('checks the redirect URI against the one used at authorize', async () => {
      const code = await authorizeCode(platform, { clientId: confidential.id, scope: 'identify', user: 'dev_user' });
      const response = await token({
        grant_type: 'authorization_code',
        code,
        redirect_uri: 'http://127.0.0.1:6666/callback',
        client_id: confidential.id,
        client_secret: confidential.client_secret,
      });
      expect(response.body).toEqual({
        error: 'invalid_grant',
        error_description: 'Invalid "redirect_uri" in request.',
      });
    });

    it('rejects a replayed code and revokes the tokens it produced', async () => {
      const code = await authorizeCode(platform, { clientId: confidential.id, scope: 'identify', user: 'dev_user' });
      const form = {
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT,
        client_id: confidential.id,
        client_secret: confidential.client_secret,
      };
      const first = await token(form);
      expect(first.status).toBe(200);
      const replay = await token(form);
      expect(replay.body).toEqual({ error: 'invalid_grant', error_description: 'Invalid "code" in request.' });
      expect((await me(platform, first.body.access_token)).status).toBe(401);
    });

    it('rejects an expired code, a code of another client, and an unknown code', async () => {
      const code = await authorizeCode(platform, { clientId: confidential.id, scope: 'identify', user: 'dev_user' });
      const otherClient = await token({
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT,
        client_id: platform.devApp.id,
        client_secret: platform.devApp.clientSecret,
      });
      expect(otherClient.body.error).toBe('invalid_grant');
      clock.advance(61_000);
      const expired = await token({
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT,
        client_id: confidential.id,
        client_secret: confidential.client_secret,
      });
      expect(expired.body.error).toBe('invalid_grant');
      const unknown = await token({
        grant_type: 'authorization_code',
        code: 'nope',
        redirect_uri: REDIRECT,
        client_id: confidential.id,
        client_secret: confidential.client_secret,
      });
      expect(unknown.body.error).toBe('invalid_grant');
    });
  });

  describe('client authentication and request validation', () => {
    it('answers invalid_client (401) for a wrong secret, an unknown client, or no client', async () => {
      const wrong = await token({
        grant_type: 'client_credentials',
        scope: 'identify',
        client_id: confidential.id,
        client_secret: 'wrong-secret',
      });
      expect(wrong.status).toBe(401);
      expect(wrong.body.error).toBe('invalid_client');
      const unknown = await token({
        grant_type: 'client_credentials',
        scope: 'identify',
        client_id: '42',
        client_secret: 'x',
      });
      expect(unknown.body.error).toBe('invalid_client');
      const none = await token({ grant_type: 'client_credentials', scope: 'identify' });
      expect(none.status).toBe(401);
      expect(none.body.errors.client_id._errors[0].code).toBe('BASE_TYPE_REQUIRED');
    });

    it('names missing fields (RFC error plus field errors)', async () => {
      const noGrant = await token({ client_id: confidential.id });
      expect(noGrant.status).toBe(400);
      expect(noGrant.body.error).toBe('invalid_request');
      expect(noGrant.body.errors.grant_type._errors[0].code).toBe('BASE_TYPE_REQUIRED');
      const noCode = await token({
        grant_type: 'authorization_code',
        client_id: confidential.id,
        client_secret: confidential.client_secret,
      });
      expect(noCode.body.error).toBe('invalid_request');
      expect(noCode.body.error_description).toBe('code: This field is required');
      expect(noCode.body.errors.code._errors[0].code).toBe('BASE_TYPE_REQUIRED');
      const halfMerge = await token({
        grant_type: 'authorization_code',
        code: 'x',
        client_id: confidential.id,
        client_secret: confidential.client_secret,
        external_auth_type: 'OIDC',
      });
      expect(halfMerge.body.errors.external_auth_token._errors[0].code).toBe('BASE_TYPE_REQUIRED');
    });

    it('answers unsupported_grant_type', async () => {
      const response = await token({
        grant_type: 'password',
        client_id: confidential.id,
        client_secret: confidential.client_secret,
      });
      expect(response.status).toBe(400);
      expect(response.body.error).toBe('unsupported_grant_type');
    });

    it('accepts form encoding only', async () => {
      const response = await request(`${platform.apiBase}/oauth2/token`, {
        json: {
          grant_type: 'client_credentials',
          client_id: confidential.id,
          client_secret: confidential.client_secret,
        },
      });
      expect(response.status).toBe(400);
      expect(response.body.error).toBe('invalid_request');
      expect(response.body.errors._errors[0].code).toBe('CONTENT_TYPE_INVALID');
    });
  });

  describe('refresh_token', () => {
    it('rotates: the new pair works, the old access and refresh tokens are dead', async () => {
      const first = await accessTokenFor(platform, {
        clientId: platform.devApp.id,
        scope: 'identify email',
        user: 'dev_user',
      });
      const refreshed = await token({
        grant_type: 'refresh_token',
        refresh_token: first.refresh_token,
        client_id: platform.devApp.id,
      });
      expect(refreshed.status).toBe(200);
      expect(refreshed.body.scope).toBe('identify email');
      expect(refreshed.body.refresh_token).not.toBe(first.refresh_token);
      expect((await me(platform, refreshed.body.access_token)).status).toBe(200);
      expect((await me(platform, first.access_token)).status).toBe(401);
      const again = await token({
        grant_type: 'refresh_token',
        refresh_token: first.refresh_token,
        client_id: platform.devApp.id,
      });
      expect(again.status).toBe(400);
      expect(again.body).toEqual({ error: 'invalid_grant', error_description: 'Invalid "refresh_token" in request.' });
    });

    it('can narrow the scope but never widen it', async () => {
      const first = await accessTokenFor(platform, {
        clientId: platform.devApp.id,
        scope: 'identify email',
        user: 'dev_user',
      });
      const wider = await token({
        grant_type: 'refresh_token',
        refresh_token: first.refresh_token,
        client_id: platform.devApp.id,
        scope: 'identify guilds',
      });
      expect(wider.body.error).toBe('invalid_scope');
      const narrower = await token({
        grant_type: 'refresh_token',
        refresh_token: first.refresh_token,
        client_id: platform.devApp.id,
        scope: 'identify',
      });
      expect(narrower.body.scope).toBe('identify');
    });

    it("refuses another client's refresh token", async () => {
      const first = await accessTokenFor(platform, {
        clientId: platform.devApp.id,
        scope: 'identify',
        user: 'dev_user',
      });
      const response = await token({
        grant_type: 'refresh_token',
        refresh_token: first.refresh_token,
        client_id: confidential.id,
        client_secret: confidential.client_secret,
      });
      expect(response.body.error).toBe('invalid_grant');
    });
  });

  describe('client_credentials', () => {
    it('issues an owner token without refresh token', async () => {
      const response = await token({
        grant_type: 'client_credentials',
        scope: 'identify',
        client_id: confidential.id,
        client_secret: confidential.client_secret,
      });
      expect(response.status).toBe(200);
      expect(response.body.refresh_token).toBeUndefined();
      expect((await me(platform, response.body.access_token)).body.username).toBe('dev_user');
    });

    it('refuses public clients without a secret and OIDC scopes', async () => {
      const publicClient = await token({
        grant_type: 'client_credentials',
        scope: 'identify',
        client_id: platform.devApp.id,
      });
      expect(publicClient.body.error).toBe('invalid_client');
      const openid = await token({
        grant_type: 'client_credentials',
        scope: 'openid',
        client_id: confidential.id,
        client_secret: confidential.client_secret,
      });
      expect(openid.body.error).toBe('invalid_scope');
    });
  });

  it('expires access tokens after the configured lifetime', async () => {
    const { access_token } = await accessTokenFor(platform, {
      clientId: platform.devApp.id,
      scope: 'identify',
      user: 'dev_user',
    });
    expect((await me(platform, access_token)).status).toBe(200);
    clock.advance(3_600_000);
    const expired = await request(`${platform.apiBase}/users/@me`, { headers: bearer(access_token) });
    expect(expired.status).toBe(401);
    expect(expired.body.code).toBe(50025);
  });
});
