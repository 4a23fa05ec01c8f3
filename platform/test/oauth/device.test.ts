import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningPlatform } from '../../src/index.js';
import { request } from '../support/http.js';
import { createApp, createUser, me, startTestPlatform, testClock, type AppCredentials } from '../support/platform.js';

const GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

describe('device authorization (RFC 8628)', () => {
  const clock = testClock();
  let platform: RunningPlatform;
  let confidential: AppCredentials;

  beforeAll(async () => {
    platform = await startTestPlatform({
      now: clock.now,
      tokenLifetimes: { deviceIntervalSeconds: 5, deviceCodeSeconds: 300 },
    });
    confidential = await createApp(platform, { name: 'Console Game' });
    await createUser(platform, { username: 'bob', password: 'builder' });
  });
  afterAll(() => platform.close());

  const start = async (clientId = platform.devApp.id, scope = 'identify openid') => {
    const response = await request(`${platform.apiBase}/oauth2/device/authorize`, {
      form: { client_id: clientId, scope },
    });
    expect(response.status, response.text).toBe(200);
    return response.body as {
      device_code: string;
      user_code: string;
      verification_uri: string;
      verification_uri_complete: string;
      expires_in: number;
      interval: number;
    };
  };
  const poll = (deviceCode: string, clientId = platform.devApp.id) =>
    request(`${platform.apiBase}/oauth2/token`, {
      form: { grant_type: GRANT, device_code: deviceCode, client_id: clientId },
    });

  it('returns the published device authorization response', async () => {
    const body = await start();
    expect(body.user_code).toMatch(/^[A-Z]{4}-[A-Z]{4}$/);
    expect(body.verification_uri).toBe(`${platform.httpUrl}/activate`);
    expect(body.verification_uri_complete).toBe(`${platform.httpUrl}/activate?user_code=${body.user_code}`);
    expect(body.expires_in).toBe(300);
    expect(body.interval).toBe(5);
  });

  it('answers authorization_pending, then slow_down when polled early, then tokens once approved', async () => {
    const body = await start();
    const pending = await poll(body.device_code);
    expect(pending.status).toBe(400);
    expect(pending.body.error).toBe('authorization_pending');
    const early = await poll(body.device_code);
    expect(early.body.error).toBe('slow_down');
    clock.advance(10_000); // the interval grew to 10 s
    expect((await poll(body.device_code)).body.error).toBe('authorization_pending');

    const page = await request(body.verification_uri_complete);
    expect(page.status).toBe(200);
    expect(page.text).toContain(body.user_code);
    const approved = await request(`${platform.httpUrl}/activate`, {
      form: {
        user_code: body.user_code.toLowerCase().replace('-', ''),
        username: 'bob',
        password: 'builder',
        decision: 'approve',
      },
    });
    expect(approved.status).toBe(200);
    expect(approved.text).toContain('Device approved');

    clock.advance(10_000);
    const tokens = await poll(body.device_code);
    expect(tokens.status).toBe(200);
    expect(tokens.body.id_token).toBeTruthy();
    expect((await me(platform, tokens.body.access_token)).body.username).toBe('bob');
    expect((await poll(body.device_code)).body.error).toBe('invalid_grant');
  });

  it('approves at once through the development shortcut', async () => {
    const body = await start();
    const page = await request(`${body.verification_uri_complete}&svcpp_dev_user=dev_user`);
    expect(page.text).toContain('Device approved');
    const tokens = await poll(body.device_code);
    expect(tokens.status).toBe(200);
  });

  it('answers access_denied after the user denies, and expired_token after the lifetime', async () => {
    const denied = await start();
    await request(`${platform.httpUrl}/activate`, { form: { user_code: denied.user_code, decision: 'deny' } });
    expect((await poll(denied.device_code)).body.error).toBe('access_denied');

    const expiring = await start();
    clock.advance(301_000);
    expect((await poll(expiring.device_code)).body.error).toBe('expired_token');
    const late = await request(`${platform.httpUrl}/activate`, {
      form: { user_code: expiring.user_code, username: 'bob', password: 'builder', decision: 'approve' },
    });
    expect(late.status).toBe(400);
  });

  it('rejects a wrong password on the verification page', async () => {
    const body = await start();
    const response = await request(`${platform.httpUrl}/activate`, {
      form: { user_code: body.user_code, username: 'bob', password: 'nope', decision: 'approve' },
    });
    expect(response.status).toBe(401);
    expect((await poll(body.device_code)).body.error).toBe('authorization_pending');
  });

  it('requires client authentication for confidential clients and a valid scope', async () => {
    const noSecret = await request(`${platform.apiBase}/oauth2/device/authorize`, {
      form: { client_id: confidential.id, scope: 'identify' },
    });
    expect(noSecret.status).toBe(401);
    expect(noSecret.body.error).toBe('invalid_client');
    const badScope = await request(`${platform.apiBase}/oauth2/device/authorize`, {
      form: { client_id: platform.devApp.id, scope: 'identify nothing' },
    });
    expect(badScope.body.error).toBe('invalid_scope');
    const noScope = await request(`${platform.apiBase}/oauth2/device/authorize`, {
      form: { client_id: platform.devApp.id },
    });
    expect(noScope.body.errors.scope._errors[0].code).toBe('BASE_TYPE_REQUIRED');
  });

  it("does not hand one client's device code to another", async () => {
    const body = await start();
    await request(`${body.verification_uri_complete}&svcpp_dev_user=dev_user`);
    const other = await request(`${platform.apiBase}/oauth2/token`, {
      form: {
        grant_type: GRANT,
        device_code: body.device_code,
        client_id: confidential.id,
        client_secret: confidential.client_secret,
      },
    });
    expect(other.body.error).toBe('invalid_grant');
  });
});
