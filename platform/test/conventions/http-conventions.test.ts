import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningPlatform } from '../../src/index.js';
import { snowflakeTimestampMs } from '../../src/ids/snowflake.js';
import { bearer, bot, request } from '../support/http.js';
import { accessTokenFor, startTestPlatform, testClock } from '../support/platform.js';

describe('HTTP conventions', () => {
  let platform: RunningPlatform;
  beforeAll(async () => {
    platform = await startTestPlatform({ bodyLimitBytes: 4096 });
  });
  afterAll(() => platform.close());

  describe('authentication header', () => {
    it('answers 401 code 0 without credentials', async () => {
      const response = await request(`${platform.apiBase}/users/@me`);
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ code: 0, message: '401: Unauthorized' });
    });

    it('answers 401 code 0 for an unknown scheme', async () => {
      const response = await request(`${platform.apiBase}/users/@me`, {
        headers: { authorization: `Token ${platform.devApp.botToken}` },
      });
      expect(response.status).toBe(401);
      expect(response.body.code).toBe(0);
    });

    it('answers 50014 for a bad bot token', async () => {
      const response = await request(`${platform.apiBase}/users/@me`, { headers: bot('not-a-token') });
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ code: 50014, message: 'Invalid authentication token' });
    });

    it('answers 50025 for a bad access token', async () => {
      const response = await request(`${platform.apiBase}/users/@me`, { headers: bearer('nope') });
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ code: 50025, message: 'Invalid OAuth2 access token' });
    });

    it('rejects a bot on a Bearer-only route with 20001', async () => {
      const response = await request(`${platform.apiBase}/users/@me/connections`, {
        headers: bot(platform.devApp.botToken),
      });
      expect(response.status).toBe(403);
      expect(response.body.code).toBe(20001);
    });

    it('rejects a user token on a bot-only route with 20002', async () => {
      const { access_token } = await accessTokenFor(platform, {
        clientId: platform.devApp.id,
        scope: 'identify',
        user: 'dev_user',
      });
      const response = await request(`${platform.apiBase}/partner-sdk/token/bot`, {
        headers: bearer(access_token),
        json: { external_user_id: 'x' },
      });
      expect(response.status).toBe(403);
      expect(response.body.code).toBe(20002);
    });
  });

  it('serializes snowflakes as strings with the published layout and epoch', async () => {
    const before = Date.now();
    const response = await request(`${platform.apiBase}/users/@me`, { headers: bot(platform.devApp.botToken) });
    expect(typeof response.body.id).toBe('string');
    expect(response.body.id).toMatch(/^\d{17,20}$/);
    const created = snowflakeTimestampMs(response.body.id);
    // The bot user was created during start-up, moments before this test.
    expect(created).toBeLessThanOrEqual(before);
    expect(created).toBeGreaterThan(before - 60_000);
    expect(snowflakeTimestampMs(platform.devApp.id)).toBeGreaterThan(Date.UTC(2015, 0, 1));
  });

  describe('bodies', () => {
    const url = () => `${platform.apiBase}/partner-sdk/token/bot`;

    it('rejects unsupported content types with 50035 CONTENT_TYPE_INVALID', async () => {
      const response = await request(url(), {
        headers: { ...bot(platform.devApp.botToken), 'content-type': 'text/plain' },
        raw: 'hello',
      });
      expect(response.status).toBe(400);
      expect(response.body.code).toBe(50035);
      expect(response.body.errors._errors[0].code).toBe('CONTENT_TYPE_INVALID');
    });

    it('rejects form bodies on JSON routes with 50035', async () => {
      const response = await request(url(), {
        headers: bot(platform.devApp.botToken),
        form: { external_user_id: 'a' },
      });
      expect(response.status).toBe(400);
      expect(response.body.errors._errors[0].message).toContain('application/json');
    });

    it('answers invalid JSON with 50109', async () => {
      const response = await request(url(), {
        headers: { ...bot(platform.devApp.botToken), 'content-type': 'application/json' },
        raw: '{"a":',
      });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ code: 50109, message: 'The request body contains invalid JSON.' });
    });

    it('answers an oversized body with 413 and 40005', async () => {
      const response = await request(url(), {
        headers: bot(platform.devApp.botToken),
        json: { external_user_id: 'x'.repeat(10_000) },
      });
      expect(response.status).toBe(413);
      expect(response.body).toEqual({ code: 40005, message: 'Request entity too large' });
    });

    it('mirrors the request shape in field errors', async () => {
      const response = await request(url(), {
        headers: bot(platform.devApp.botToken),
        json: { preferred_global_name: 'x'.repeat(40), provisional_user_id: 'abc' },
      });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        code: 50035,
        message: 'Invalid Form Body',
        errors: {
          external_user_id: { _errors: [{ code: 'BASE_TYPE_REQUIRED', message: 'This field is required' }] },
          preferred_global_name: {
            _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 32 or fewer in length.' }],
          },
          provisional_user_id: { _errors: [{ code: 'NUMBER_TYPE_COERCE', message: 'Value is not snowflake.' }] },
        },
      });
    });

    it('uses string keys for array indices in nested field errors', async () => {
      const response = await request(`${platform.apiBase}/dev/applications`, {
        json: {
          name: 'Nested errors',
          identity_providers: [{ type: 'OIDC', issuer: 'https://id.example.com', client_id: 'c' }, { type: 'NOPE' }],
        },
      });
      expect(response.status).toBe(400);
      expect(Object.keys(response.body.errors.identity_providers)).toEqual(['1']);
      expect(response.body.errors.identity_providers['1'].type._errors[0].code).toBe('BASE_TYPE_CHOICES');
      expect(response.body.errors.identity_providers['1'].issuer._errors[0].code).toBe('BASE_TYPE_REQUIRED');
    });
  });

  it('answers unknown routes with 404 code 0', async () => {
    const response = await request(`${platform.apiBase}/nothing-here`);
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ code: 0, message: '404: Not Found' });
  });

  it('answers other API versions with 50041', async () => {
    for (const version of ['v3', 'v8']) {
      const response = await request(`${platform.httpUrl}/api/${version}/users/@me`);
      expect(response.status).toBe(400);
      expect(response.body.code).toBe(50041);
    }
  });

  it('sends the published rate-limit headers', async () => {
    const response = await request(`${platform.apiBase}/users/@me`, { headers: bot(platform.devApp.botToken) });
    expect(response.headers['x-ratelimit-limit']).toBe('1000000');
    expect(Number(response.headers['x-ratelimit-remaining'])).toBeLessThan(1_000_000);
    expect(response.headers['x-ratelimit-bucket']).toMatch(/^[0-9a-f]{32}$/);
    expect(Number(response.headers['x-ratelimit-reset'])).toBeGreaterThan(Date.now() / 1000 - 1);
    expect(Number(response.headers['x-ratelimit-reset-after'])).toBeGreaterThanOrEqual(0);
  });
});

describe('rate limits', () => {
  it('answers 429 with retry_after, Retry-After and the user scope when a route bucket is exhausted', async () => {
    const clock = testClock();
    const platform = await startTestPlatform({
      now: clock.now,
      rateLimits: { 'users.me': { limit: 2, windowSeconds: 10 } },
    });
    try {
      const call = () => request(`${platform.apiBase}/users/@me`, { headers: bot(platform.devApp.botToken) });
      expect((await call()).headers['x-ratelimit-remaining']).toBe('1');
      expect((await call()).status).toBe(200);
      clock.advance(2_500);
      const limited = await call();
      expect(limited.status).toBe(429);
      expect(limited.body).toEqual({ message: 'You are being rate limited.', retry_after: 7.5, global: false });
      expect(limited.headers['retry-after']).toBe('8');
      expect(limited.headers['x-ratelimit-scope']).toBe('user');
      expect(limited.headers['x-ratelimit-global']).toBeUndefined();
      // Another credential has its own bucket.
      const other = await request(`${platform.apiBase}/users/@me`, { headers: bot('unknown-token') });
      expect(other.status).toBe(401);
      clock.advance(7_500);
      expect((await call()).status).toBe(200);
    } finally {
      await platform.close();
    }
  });

  it('applies the global limit with X-RateLimit-Global', async () => {
    const clock = testClock();
    const platform = await startTestPlatform({
      now: clock.now,
      rateLimits: { global: { limit: 3, windowSeconds: 1 } },
    });
    try {
      for (let i = 0; i < 3; i++)
        expect(
          (await request(`${platform.apiBase}/users/@me`, { headers: bot(platform.devApp.botToken) })).status,
        ).toBe(200);
      const limited = await request(`${platform.apiBase}/users/@me`, { headers: bot(platform.devApp.botToken) });
      expect(limited.status).toBe(429);
      expect(limited.body.global).toBe(true);
      expect(limited.headers['x-ratelimit-global']).toBe('true');
      expect(limited.headers['x-ratelimit-scope']).toBe('global');
    } finally {
      await platform.close();
    }
  });

  it('limits clients that keep getting 401/403/429 (invalid-request limit)', async () => {
    const clock = testClock();
    const platform = await startTestPlatform({
      now: clock.now,
      rateLimits: { 'invalid-requests': { limit: 3, windowSeconds: 600 } },
    });
    try {
      for (let i = 0; i < 3; i++) expect((await request(`${platform.apiBase}/users/@me`)).status).toBe(401);
      const limited = await request(`${platform.apiBase}/users/@me`, { headers: bot(platform.devApp.botToken) });
      expect(limited.status).toBe(429);
      expect(limited.body.global).toBe(true);
      clock.advance(600_000);
      expect((await request(`${platform.apiBase}/users/@me`, { headers: bot(platform.devApp.botToken) })).status).toBe(
        200,
      );
    } finally {
      await platform.close();
    }
  });
});
