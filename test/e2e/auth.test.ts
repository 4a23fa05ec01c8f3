/**
 * The authentication methods end to end on both backends, over HTTPS with a test CA: the full OAuth2 + PKCE flow
 * driven headlessly through the SDK's loopback listener, denial and abort, refresh (and invalid_grant), revoke,
 * provisional accounts from an OIDC credential, merge and unmerge, child tokens and token validation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthenticationExternalAuthType, AuthorizationTokenType, Client, ClientStatus } from '../../lib/index.js';
import { startFakeIssuer, type FakeIssuer } from '../../platform/test/support/fake-issuer.js';
import { BACKENDS } from '../backends.js';
import {
  approveAuthorizeUrl,
  createFullUser,
  createPublicClientApp,
  denyAuthorizeUrl,
  provisionalToken,
  startE2EPlatform,
  type E2EPlatform,
} from './harness.js';
import { e2eClient, signIn as signInAs } from './support.js';

const OIDC_AUDIENCE = 'svcpp-e2e-game';

describe.each(BACKENDS)('authentication over %s', (backend) => {
  let e2e: E2EPlatform;
  let issuer: FakeIssuer;
  let gameId: bigint;
  let username: string;

  beforeAll(async () => {
    issuer = await startFakeIssuer(OIDC_AUDIENCE);
    e2e = await startE2EPlatform({ allowLocalhostIssuers: true, outboundCaPems: [issuer.caPem], oidcCacheSeconds: 0 });
    const game = await createPublicClientApp(e2e, {
      identity_providers: [{ type: 'OIDC', issuer: issuer.issuer, client_id: OIDC_AUDIENCE }],
    });
    gameId = BigInt(game.id);
    username = `player_${backend}`;
    await createFullUser(e2e, { username });
  });
  afterAll(async () => {
    await e2e.close();
    await issuer.close();
  });

  const gameClient = () => e2eClient(e2e, backend, { applicationId: gameId });

  const signIn = (client: Client, user = username) => signInAs(e2e, client, user);

  it('runs the OAuth2 + PKCE flow through the loopback listener and connects as the full user', async () => {
    await using client = gameClient();
    const { tokens, page } = await signIn(client);
    expect(tokens.tokenType).toBe(AuthorizationTokenType.Bearer);
    expect(tokens.refreshToken).toBeTypeOf('string');
    expect(tokens.expiresIn).toBeGreaterThan(0);
    expect(tokens.scopes).toContain('sdk.social_layer');
    await client.updateToken(tokens.accessToken);
    await client.connect();
    expect(client.status).toBe(ClientStatus.Ready);
    expect(client.currentUser).toMatchObject({ username, isProvisional: false });
    await expect.poll(page).toMatch(/Signed in/);
  });

  it('sends the state it generated and checks it; a denied consent is AuthorizationFailed', async () => {
    await using client = gameClient();
    let state = '';
    const denied = client.authorize(
      { scopes: 'openid sdk.social_layer' },
      {
        openUrl: (url) => {
          state = new URL(url).searchParams.get('state') ?? '';
          void denyAuthorizeUrl(e2e, url);
        },
      },
    );
    await expect(denied).rejects.toMatchObject({
      code: 'ERR_SVCPP_AUTHORIZATION_FAILED',
      message: expect.stringMatching(/access_denied/),
    });
    expect(state).toMatch(/^[A-Za-z0-9_-]{43}$/); // 32 CSPRNG bytes, base64url
  });

  it('aborts a pending authorize through an AbortSignal (and through abortAuthorize)', async () => {
    await using client = gameClient();
    const controller = new AbortController();
    const pending = client.authorize({}, { signal: controller.signal, openUrl: () => controller.abort() });
    await expect(pending).rejects.toMatchObject({ code: 'ERR_SVCPP_ABORTED' });
    await expect(client.authorize({}, { signal: AbortSignal.abort() })).rejects.toMatchObject({
      code: 'ERR_SVCPP_ABORTED',
    });
    const second = client.authorize({}, { openUrl: () => client.abortAuthorize() });
    await expect(second).rejects.toMatchObject({ code: 'ERR_SVCPP_ABORTED' });
  });

  it('refreshes (the old pair dies) and surfaces invalid_grant as an authorization failure', async () => {
    await using client = gameClient();
    const { tokens } = await signIn(client);
    const next = await client.refreshToken({ refreshToken: tokens.refreshToken! });
    expect(next.accessToken).not.toBe(tokens.accessToken);
    await expect(client.fetchCurrentUser(next.accessToken)).resolves.toMatchObject({ username });
    await expect(client.fetchCurrentUser(tokens.accessToken)).rejects.toMatchObject({
      code: 'ERR_SVCPP_HTTP',
      errorCode: 50025,
      status: 401,
    });
    const reused = await client.refreshToken({ refreshToken: tokens.refreshToken! }).catch((error: unknown) => error);
    expect(reused).toMatchObject({ code: 'ERR_SVCPP_AUTHORIZATION_FAILED', status: 400 });
    expect((reused as Error).message).toMatch(/invalid_grant/);
  });

  it('revokes a token', async () => {
    await using client = gameClient();
    const { tokens } = await signIn(client);
    await client.revokeToken({ token: tokens.accessToken });
    await expect(client.fetchCurrentUser(tokens.accessToken)).rejects.toMatchObject({
      code: 'ERR_SVCPP_HTTP',
      errorCode: 50025,
    });
  });

  it('signs in a provisional account from an OIDC credential, merges it into a full account and unmerges it', async () => {
    await using client = gameClient();
    const credential = {
      externalAuthType: AuthenticationExternalAuthType.OIDC,
      externalAuthToken: await issuer.sign({ sub: `merge-${backend}` }),
    };
    const provisional = await client.getProvisionalToken(credential);
    const provisionalUser = await client.fetchCurrentUser(provisional.accessToken);
    await expect(
      client.getProvisionalToken({
        ...credential,
        externalAuthType: AuthenticationExternalAuthType.SteamSessionTicket,
      }),
    ).rejects.toMatchObject({ code: 'ERR_SVCPP_HTTP', errorCode: 50035 });

    // Merge: the code exchange carries the credential; the provisional account is gone afterwards.
    const { verifier, challenge } = client.createAuthorizationCodeVerifier();
    const mergeUser = `merger_${backend}`;
    await createFullUser(e2e, { username: mergeUser });
    const { code, redirectUri } = await client.authorize(
      { codeChallenge: challenge },
      { openUrl: (url) => void approveAuthorizeUrl(e2e, url, mergeUser) },
    );
    const merged = await client.getTokenFromProvisionalMerge({
      code,
      codeVerifier: verifier,
      redirectUri,
      ...credential,
    });
    const full = await client.fetchCurrentUser(merged.accessToken);
    expect(full.username).toBe(mergeUser);
    await expect(client.fetchCurrentUser(provisional.accessToken)).rejects.toMatchObject({
      code: 'ERR_SVCPP_HTTP',
      status: 401,
    });
    // The credential now belongs to a full account: it no longer signs in provisionally.
    await expect(client.getProvisionalToken(credential)).rejects.toMatchObject({
      code: 'ERR_SVCPP_HTTP',
      errorCode: 530010,
      status: 400,
    });

    // Unmerge: the identity moves to a new provisional account; the full account keeps its id.
    await client.unmergeIntoProvisionalAccount(credential);
    const after = await client.getProvisionalToken(credential);
    const split = await client.fetchCurrentUser(after.accessToken);
    expect(split.id).not.toBe(full.id);
    expect(split.id).not.toBe(provisionalUser.id);
  });

  it('exchanges a child token and validates tokens without connecting', async () => {
    await using client = e2eClient(e2e, backend);
    const child = await createPublicClientApp(e2e, { parent: e2e.platform.devApp.id });
    const parent = await provisionalToken(e2e, `parent-${backend}`, 'Parent');
    const me = await client.fetchCurrentUser(parent);
    expect(me.id).toBeGreaterThan(0n);
    const token = await client.exchangeChildToken({
      parentApplicationToken: parent,
      childApplicationId: BigInt(child.id),
    });
    expect(token.refreshToken).toBeUndefined();
    expect(token.scopes).toBe('sdk.social_layer');
    expect((await client.fetchCurrentUser(token.accessToken)).id).toBe(me.id);
    await expect(
      client.exchangeChildToken({ parentApplicationToken: parent, childApplicationId: 1n }),
    ).rejects.toMatchObject({ code: 'ERR_SVCPP_HTTP', status: 404 });
    await expect(client.updateToken('x', AuthorizationTokenType.User)).rejects.toMatchObject({
      code: 'ERR_SVCPP_VALIDATION',
    });
  });

  it('rejects misuse synchronously through the promise with a typed error', async () => {
    await using client = new Client({ backend });
    await expect(client.getToken({ code: 'c', codeVerifier: 'v', redirectUri: 'r' })).rejects.toMatchObject({
      code: 'ERR_SVCPP_VALIDATION',
    });
    await expect(client.refreshToken({ applicationId: 1n, refreshToken: 'x'.repeat(600) })).rejects.toMatchObject({
      code: 'ERR_SVCPP_INVALID_ARGUMENT',
    });
    await expect(client.updateToken('')).rejects.toMatchObject({ code: 'ERR_SVCPP_VALIDATION' });
    await expect(client.updateToken('t'.repeat(513))).rejects.toMatchObject({ code: 'ERR_SVCPP_INVALID_ARGUMENT' });
    await expect(client.fetchCurrentUser('token', 7 as AuthorizationTokenType)).rejects.toMatchObject({
      code: 'ERR_SVCPP_INVALID_ARGUMENT',
    });
    expect(client.isAuthenticated).toBe(false); // a rejected call changes nothing
  });
});
