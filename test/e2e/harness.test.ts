/** The e2e harness itself: TLS platform, provisional tokens, full users, apps and the headless consent. */
import { randomBytes, createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, bot, request } from '../../platform/test/support/http.js';
import {
  approveAuthorizeUrl,
  createFullUser,
  createPublicClientApp,
  denyAuthorizeUrl,
  provisionalToken,
  startE2EPlatform,
  type E2EPlatform,
} from './harness.js';

/** Stands in for the SDK's loopback listener: records the query of every request and answers 200. */
async function startLoopbackListener(): Promise<{ port: number; queries: URLSearchParams[]; close(): Promise<void> }> {
  const queries: URLSearchParams[] = [];
  const server = http.createServer((req, res) => {
    queries.push(new URL(req.url ?? '/', 'http://127.0.0.1').searchParams);
    res.end('signed in');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    queries,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}

describe('e2e harness', () => {
  let e2e: E2EPlatform;
  let listener: Awaited<ReturnType<typeof startLoopbackListener>>;

  /** An authorize URL as an SDK with a loopback listener would build it (public client, PKCE). */
  function authorizeUrl(clientId: string, state: string): string {
    const challenge = createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url');
    const query = new URLSearchParams({
      client_id: clientId,
      response_type: 'code',
      scope: 'openid sdk.social_layer',
      redirect_uri: `http://127.0.0.1:${listener.port}/callback`,
      state,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    return `${e2e.webBase}/oauth2/authorize?${query}`;
  }

  beforeAll(async () => {
    e2e = await startE2EPlatform();
    listener = await startLoopbackListener();
  });
  afterAll(async () => {
    await listener.close();
    await e2e.close();
  });

  it('serves HTTPS with the certificate in caFile', async () => {
    expect(e2e.apiBase).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/api\/v10$/);
    expect(e2e.platform.gatewayUrl).toMatch(/^wss:/);
    expect(readFileSync(e2e.caFile, 'utf8')).toBe(e2e.platform.caCertPem);
  });

  it('provisionalToken gives a working provisional account', async () => {
    const token = await provisionalToken(e2e, 'player-1', 'Player One');
    const me = await request(`${e2e.apiBase}/users/@me`, { ca: e2e.caPem, headers: bearer(token) });
    expect(me.status, me.text).toBe(200);
    expect(me.body).toMatchObject({ is_provisional: true, global_name: 'Player One' });
  });

  it('createFullUser creates a full account', async () => {
    const id = await createFullUser(e2e, { username: 'e2e_full' });
    const user = await request(`${e2e.apiBase}/users/${id}`, {
      ca: e2e.caPem,
      headers: bot(e2e.platform.devApp.botToken),
    });
    expect(user.body).toMatchObject({ id, username: 'e2e_full', is_provisional: false });
  });

  it('approveAuthorizeUrl delivers code and state to the loopback listener', async () => {
    await createFullUser(e2e, { username: 'e2e_consent' });
    const result = await approveAuthorizeUrl(e2e, authorizeUrl(e2e.platform.devApp.id, 'state-1'), 'e2e_consent');
    expect(result).toMatchObject({ status: 200, body: 'signed in' });
    expect(result.location).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${listener.port}/callback\\?`));
    const query = listener.queries.at(-1)!;
    expect(query.get('code')).toBeTruthy();
    expect(query.get('state')).toBe('state-1');
  });

  it('denyAuthorizeUrl delivers access_denied', async () => {
    const result = await denyAuthorizeUrl(e2e, authorizeUrl(e2e.platform.devApp.id, 'state-2'));
    expect(result.status).toBe(200);
    const query = listener.queries.at(-1)!;
    expect(query.get('error')).toBe('access_denied');
    expect(query.get('state')).toBe('state-2');
  });

  it('createPublicClientApp makes a public client usable with the loopback redirect', async () => {
    const app = await createPublicClientApp(e2e);
    const state = (await request(`${e2e.apiBase}/dev/state`, { ca: e2e.caPem })).body as {
      applications: Array<{ id: string; public_client: boolean; social_sdk_terms_accepted: boolean }>;
    };
    expect(state.applications.find((a) => a.id === app.id)).toMatchObject({
      public_client: true,
      social_sdk_terms_accepted: true,
    });
    await createFullUser(e2e, { username: 'e2e_public' });
    await approveAuthorizeUrl(e2e, authorizeUrl(app.id, 'state-3'), 'e2e_public');
    expect(listener.queries.at(-1)!.get('code')).toBeTruthy();
  });
});
