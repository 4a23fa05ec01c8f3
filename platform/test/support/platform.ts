import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { startPlatform, DEFAULT_RATE_LIMITS, type RunningPlatform, type StartOptions } from '../../src/index.js';
import { testDatabase } from './database.js';
import { bearer, request, type TestResponse } from './http.js';

/**
 * Every bucket raised far above what a test file can send, so rate limits never make unrelated tests flaky;
 * rate-limit tests pass their own rules (which win).
 */
function relaxedRateLimits(): NonNullable<StartOptions['rateLimits']> {
  return Object.fromEntries(
    Object.keys(DEFAULT_RATE_LIMITS).map((bucket) => [bucket, { limit: 1_000_000, windowSeconds: 1 }]),
  );
}

export async function startTestPlatform(options: StartOptions = {}): Promise<RunningPlatform> {
  return startPlatform({
    port: 0,
    logger: false,
    ...options,
    database: testDatabase(options.database),
    rateLimits: { ...relaxedRateLimits(), ...options.rateLimits },
  });
}

/** A controllable clock (ms since epoch), starting now. */
export function testClock(start = Date.now()) {
  let now = start;
  return {
    now: () => now,
    advance(ms: number) {
      now += ms;
    },
  };
}

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'svcpp-platform-test-'));
}

export function pkcePair() {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  return { verifier, challenge };
}

export interface AppCredentials {
  id: string;
  client_secret: string;
  bot_token: string;
  public_key: string;
  bot_user_id: string;
}

/** Headers that carry this start's development token (needed for credentials in GET /dev/state). */
export function devTokenHeaders(platform: RunningPlatform): Record<string, string> {
  return { 'x-svcpp-dev-token': platform.devToken };
}

/** GET /dev/state with the dev token: applications with their credentials, users, guilds. */
export async function devState(platform: RunningPlatform): Promise<any> {
  const response = await request(`${platform.apiBase}/dev/state`, { headers: devTokenHeaders(platform) });
  expect(response.status, response.text).toBe(200);
  return response.body;
}

/** Creates an application through the dev route; fails the test on error. */
export async function createApp(platform: RunningPlatform, config: Record<string, unknown>): Promise<AppCredentials> {
  const response = await request(`${platform.apiBase}/dev/applications`, {
    json: { redirect_uris: ['http://127.0.0.1/callback'], ...config },
  });
  expect(response.status, response.text).toBe(201);
  return response.body as AppCredentials;
}

/** Creates a user through the dev route. */
export async function createUser(
  platform: RunningPlatform,
  config: Record<string, unknown>,
): Promise<{ id: string; username: string }> {
  const response = await request(`${platform.apiBase}/dev/users`, { json: config });
  expect(response.status, response.text).toBe(201);
  return response.body as { id: string; username: string };
}

export interface LoginOptions {
  clientId: string;
  clientSecret?: string;
  scope: string;
  user: string;
  redirectUri?: string;
  nonce?: string;
  extraForm?: Record<string, string>;
}

/** Authorize (dev auto-approve) → code. */
export async function authorizeCode(
  platform: RunningPlatform,
  options: LoginOptions & { challenge?: string },
): Promise<string> {
  const redirectUri = options.redirectUri ?? 'http://127.0.0.1:5555/callback';
  const query = new URLSearchParams({
    client_id: options.clientId,
    response_type: 'code',
    scope: options.scope,
    redirect_uri: redirectUri,
    state: 'st',
    svcpp_dev_user: options.user,
  });
  if (options.challenge) {
    query.set('code_challenge', options.challenge);
    query.set('code_challenge_method', 'S256');
  }
  if (options.nonce) query.set('nonce', options.nonce);
  const response = await request(`${platform.httpUrl}/oauth2/authorize?${query}`);
  expect(response.status, response.text).toBe(302);
  const location = new URL(String(response.headers.location));
  const code = location.searchParams.get('code');
  expect(code, String(response.headers.location)).toBeTruthy();
  return code!;
}

/** Full authorization-code login with PKCE; returns the token response. */
export async function login(platform: RunningPlatform, options: LoginOptions): Promise<TestResponse> {
  const redirectUri = options.redirectUri ?? 'http://127.0.0.1:5555/callback';
  const { verifier, challenge } = pkcePair();
  const code = await authorizeCode(platform, { ...options, redirectUri, challenge });
  const form: Record<string, string> = {
    grant_type: 'authorization_code',
    code,
    redirect_uri: redirectUri,
    code_verifier: verifier,
    client_id: options.clientId,
    ...options.extraForm,
  };
  if (options.clientSecret) form.client_secret = options.clientSecret;
  return request(`${platform.apiBase}/oauth2/token`, { form });
}

/** Logs in and returns the access token (asserting success). */
export async function accessTokenFor(
  platform: RunningPlatform,
  options: LoginOptions,
): Promise<{ access_token: string; refresh_token: string; id_token?: string; scope: string }> {
  const response = await login(platform, options);
  expect(response.status, response.text).toBe(200);
  return response.body;
}

export async function me(platform: RunningPlatform, token: string): Promise<TestResponse> {
  return request(`${platform.apiBase}/users/@me`, { headers: bearer(token) });
}

/** Waits until `check` returns a truthy value (polling; the test timeout bounds it). */
export async function eventually<T>(check: () => T | Promise<T>, intervalMs = 10): Promise<NonNullable<T>> {
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
