/**
 * End-to-end harness for SDK tests: the real platform in this process over TLS (so the SDK's certificate handling is
 * exercised), plus shortcuts for what a test needs around it — provisional tokens, full users, applications and a
 * headless OAuth2 consent that ends at the SDK's loopback listener.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SvcppServer } from '../../lib/server.js';
import {
  DEFAULT_RATE_LIMITS,
  startPlatform,
  type RunningPlatform,
  type StartOptions,
} from '../../platform/src/index.js';
import { request, type TestResponse } from '../../platform/test/support/http.js';

export interface E2EPlatform {
  platform: RunningPlatform;
  /** The platform's self-signed certificate (PEM) in a temporary file, for the SDK's CA option. */
  caFile: string;
  /** The same certificate as text. */
  caPem: string;
  /** `https://127.0.0.1:<port>/api/v10` */
  apiBase: string;
  /** `https://127.0.0.1:<port>` — OAuth2 pages and the OIDC issuer (`platform.httpUrl`). */
  webBase: string;
  /** Server helpers (lib/server.ts) acting as the development application's bot. */
  server: SvcppServer;
  close(): Promise<void>;
}

/** What the loopback redirect URI answered after the platform redirected there. */
export interface LoopbackRedirect {
  /** The `Location` the platform sent (code or error in the query). */
  location: string;
  status: number;
  body: string;
}

export interface AppCredentials {
  id: string;
  clientSecret: string;
  botToken: string;
}

/** Every bucket far above what a test sends, so rate limits never make a test flaky; `options.rateLimits` wins. */
function relaxedRateLimits(): NonNullable<StartOptions['rateLimits']> {
  return Object.fromEntries(
    Object.keys(DEFAULT_RATE_LIMITS).map((bucket) => [bucket, { limit: 1_000_000, windowSeconds: 1 }]),
  );
}

/** Starts the platform over TLS on an ephemeral loopback port (in-memory database, silent); options pass through. */
export async function startE2EPlatform(options: Omit<StartOptions, 'tls'> = {}): Promise<E2EPlatform> {
  const platform = await startPlatform({
    port: 0,
    database: ':memory:',
    logger: false,
    ...options,
    tls: true,
    rateLimits: { ...relaxedRateLimits(), ...options.rateLimits },
  });
  const caPem = platform.caCertPem!;
  const dir = mkdtempSync(join(tmpdir(), 'svcpp-e2e-'));
  const caFile = join(dir, 'ca.pem');
  writeFileSync(caFile, caPem);
  return {
    platform,
    caFile,
    caPem,
    apiBase: platform.apiBase,
    webBase: platform.httpUrl,
    server: new SvcppServer({
      apiBase: platform.apiBase,
      botToken: platform.devApp.botToken,
      applicationId: platform.devApp.id,
      ca: caPem,
    }),
    close: async () => {
      await platform.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Access token of the dev application's provisional account for `externalUserId` (created on first use). */
export async function provisionalToken(e2e: E2EPlatform, externalUserId: string, name?: string): Promise<string> {
  const token = await e2e.server.createProvisionalToken({
    externalUserId,
    ...(name !== undefined ? { preferredGlobalName: name } : {}),
  });
  return token.accessToken;
}

/**
 * Headless consent in development mode: opens `authorizeUrl` (as the SDK built it) as `devUser` (user id or
 * username of a full account), expects the platform's redirect to a loopback `http://127.0.0.1:<port>/…` URI, and
 * delivers it there like a browser would.
 */
export async function approveAuthorizeUrl(
  e2e: E2EPlatform,
  authorizeUrl: string,
  devUser: string,
): Promise<LoopbackRedirect> {
  const url = new URL(authorizeUrl);
  url.searchParams.set('svcpp_dev_user', devUser);
  return followToLoopback(await request(url.toString(), { ca: e2e.caPem }));
}

/**
 * The user presses Cancel on the consent page: the platform redirects with `error=access_denied`, delivered to the
 * loopback URI.
 */
export async function denyAuthorizeUrl(e2e: E2EPlatform, authorizeUrl: string): Promise<LoopbackRedirect> {
  const url = new URL(authorizeUrl);
  // The consent form posts the authorize parameters back with the decision (platform/PROTOCOL.md §3).
  const form = Object.fromEntries(url.searchParams);
  return followToLoopback(
    await request(`${url.origin}${url.pathname}`, { ca: e2e.caPem, form: { ...form, decision: 'cancel' } }),
  );
}

async function followToLoopback(response: TestResponse): Promise<LoopbackRedirect> {
  const location = response.headers.location;
  if ((response.status !== 302 && response.status !== 303) || typeof location !== 'string') {
    throw new Error(
      `expected a redirect from the authorize endpoint, got ${response.status}: ${response.text.slice(0, 500)}`,
    );
  }
  const target = new URL(location);
  if (target.protocol !== 'http:' || target.hostname !== '127.0.0.1')
    throw new Error(`expected a loopback redirect URI, got ${location}`);
  const answer = await request(location);
  return { location, status: answer.status, body: answer.text };
}

/** Creates a full (non-provisional) account through the dev route; only such accounts can consent. Returns its id. */
export async function createFullUser(
  e2e: E2EPlatform,
  user: { username: string; [field: string]: unknown },
): Promise<string> {
  const response = await request(`${e2e.apiBase}/dev/users`, { ca: e2e.caPem, json: user });
  if (response.status !== 201) throw new Error(`dev/users answered ${response.status}: ${response.text}`);
  return (response.body as { id: string }).id;
}

/**
 * Creates an application that is a public client (no secret needed, PKCE), with the loopback redirect URI (any port
 * matches) and the social SDK terms accepted; `extra` (application config fields, snake_case) overrides.
 */
export async function createPublicClientApp(
  e2e: E2EPlatform,
  extra: Record<string, unknown> = {},
): Promise<AppCredentials> {
  const config = {
    name: `E2E Game ${randomUUID().slice(0, 8)}`,
    public_client: true,
    redirect_uris: ['http://127.0.0.1/callback'],
    social_sdk_terms_accepted: true,
    ...extra,
  };
  const response = await request(`${e2e.apiBase}/dev/applications`, { ca: e2e.caPem, json: config });
  if (response.status !== 201) throw new Error(`dev/applications answered ${response.status}: ${response.text}`);
  const app = response.body as { id: string; client_secret: string; bot_token: string };
  return { id: app.id, clientSecret: app.client_secret, botToken: app.bot_token };
}
