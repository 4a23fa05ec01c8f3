import { createPublicKey } from 'node:crypto';
import * as oidc from 'openid-client';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningPlatform } from '../../src/index.js';
import { bearer, request } from '../support/http.js';
import { accessTokenFor, startTestPlatform } from '../support/platform.js';

describe('OpenID Connect', () => {
  let platform: RunningPlatform;
  beforeAll(async () => {
    platform = await startTestPlatform();
  });
  afterAll(() => platform.close());

  it('publishes a discovery document and a key set', async () => {
    const discovery = await request(`${platform.httpUrl}/.well-known/openid-configuration`);
    expect(discovery.status).toBe(200);
    expect(discovery.body.issuer).toBe(platform.httpUrl);
    expect(discovery.body.token_endpoint).toBe(`${platform.httpUrl}/api/oauth2/token`);
    expect(discovery.body.id_token_signing_alg_values_supported).toEqual(['RS256']);
    expect(discovery.body.code_challenge_methods_supported).toEqual(['S256']);
    const jwks = await request(discovery.body.jwks_uri);
    expect(jwks.body.keys).toHaveLength(1);
    expect(jwks.body.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig', kid: expect.any(String) });
    expect(jwks.body.keys[0].d).toBeUndefined();
  });

  it('signs id_tokens with the published key (iss, aud, sub, nonce, at_hash)', async () => {
    const tokens = await accessTokenFor(platform, {
      clientId: platform.devApp.id,
      scope: 'openid identify',
      user: 'dev_user',
      nonce: 'n-0S6_WzA2Mj',
    });
    const keys = createRemoteJWKSet(new URL(`${platform.httpUrl}/api/oauth2/keys`));
    const { payload, protectedHeader } = await jwtVerify(tokens.id_token!, keys, {
      issuer: platform.httpUrl,
      audience: platform.devApp.id,
    });
    expect(protectedHeader.alg).toBe('RS256');
    expect(payload.nonce).toBe('n-0S6_WzA2Mj');
    expect(payload.preferred_username).toBe('dev_user');
    expect(payload.at_hash).toMatch(/^[\w-]{22}$/);
    const user = await request(`${platform.apiBase}/users/@me`, { headers: bearer(tokens.access_token) });
    expect(payload.sub).toBe(user.body.id);
  });

  it('logs in with openid-client (authorization code + PKCE, id_token validated)', async () => {
    const config = await oidc.discovery(new URL(platform.httpUrl), platform.devApp.id, undefined, oidc.None(), {
      execute: [oidc.allowInsecureRequests],
    });
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const redirectUri = 'http://127.0.0.1:7777/callback';
    const authorizationUrl = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: 'openid identify email',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
      svcpp_dev_user: 'dev_user',
    });
    const consent = await request(authorizationUrl.href);
    expect(consent.status).toBe(302);
    const tokens = await oidc.authorizationCodeGrant(config, new URL(String(consent.headers.location)), {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims()!;
    expect(claims.iss).toBe(platform.httpUrl);
    expect(claims.aud).toBe(platform.devApp.id);
    const userInfo = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
    expect(userInfo.preferred_username).toBe('dev_user');
    expect(userInfo.email).toBe('dev_user@example.com');

    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.claims()!.sub).toBe(claims.sub);
  });

  it('answers GET /oauth2/@me with application, scopes, expiry and (with identify) the user', async () => {
    const tokens = await accessTokenFor(platform, {
      clientId: platform.devApp.id,
      scope: 'identify guilds',
      user: 'dev_user',
    });
    const response = await request(`${platform.apiBase}/oauth2/@me`, { headers: bearer(tokens.access_token) });
    expect(response.status).toBe(200);
    expect(response.body.application.id).toBe(platform.devApp.id);
    expect(response.body.application.verify_key).toBe(platform.devApp.publicKey);
    expect(response.body.scopes).toEqual(['identify', 'guilds']);
    expect(Date.parse(response.body.expires)).toBeGreaterThan(Date.now());
    expect(response.body.user.username).toBe('dev_user');

    const withoutIdentify = await accessTokenFor(platform, {
      clientId: platform.devApp.id,
      scope: 'guilds',
      user: 'dev_user',
    });
    const partial = await request(`${platform.apiBase}/oauth2/@me`, { headers: bearer(withoutIdentify.access_token) });
    expect(partial.body.user).toBeUndefined();
    const asBot = await request(`${platform.apiBase}/oauth2/@me`, {
      headers: { authorization: `Bot ${platform.devApp.botToken}` },
    });
    expect(asBot.body.code).toBe(20001);
  });

  it('requires openid for userinfo', async () => {
    const tokens = await accessTokenFor(platform, {
      clientId: platform.devApp.id,
      scope: 'identify',
      user: 'dev_user',
    });
    const response = await request(`${platform.httpUrl}/api/oauth2/userinfo`, { headers: bearer(tokens.access_token) });
    expect(response.status).toBe(403);
    expect(response.body.code).toBe(50026);
  });

  it('keeps signing keys across restarts of the same database', async () => {
    const { tempDir } = await import('../support/platform.js');
    const database = `${tempDir()}/oidc.db`;
    const first = await startTestPlatform({ database });
    const firstKeys = (await request(`${first.httpUrl}/api/oauth2/keys`)).body;
    await first.close();
    const second = await startTestPlatform({ database });
    try {
      expect((await request(`${second.httpUrl}/api/oauth2/keys`)).body).toEqual(firstKeys);
    } finally {
      await second.close();
    }
    // The published key is a usable RSA public key.
    const key = createPublicKey({ key: firstKeys.keys[0], format: 'jwk' });
    expect(key.asymmetricKeyType).toBe('rsa');
  });
});
