import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningPlatform } from '../../src/index.js';
import { bot, request } from '../support/http.js';
import { signatureIsValid, startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import {
  accessTokenFor,
  createApp,
  createUser,
  me,
  startTestPlatform,
  type AppCredentials,
} from '../support/platform.js';

describe('/oauth2/token/revoke', () => {
  let platform: RunningPlatform;
  let receiver: WebhookReceiver;
  let app: AppCredentials;
  let other: AppCredentials;

  const revoke = (form: Record<string, string>) => request(`${platform.apiBase}/oauth2/token/revoke`, { form });

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    platform = await startTestPlatform({ webhookRetry: { baseMs: 10, maxMs: 50 } });
    app = await createApp(platform, { name: 'Revoke Game', webhook_url: receiver.url });
    other = await createApp(platform, { name: 'Other Revoke Game' });
    await createUser(platform, { username: 'carol' });
  });
  afterAll(async () => {
    await platform.close();
    await receiver.close();
  });

  it('revokes every token of the application for that user, fires APPLICATION_DEAUTHORIZED, and leaves other apps alone', async () => {
    const a = await accessTokenFor(platform, {
      clientId: app.id,
      clientSecret: app.client_secret,
      scope: 'identify',
      user: 'carol',
    });
    const b = await accessTokenFor(platform, {
      clientId: app.id,
      clientSecret: app.client_secret,
      scope: 'identify email',
      user: 'carol',
    });
    const elsewhere = await accessTokenFor(platform, {
      clientId: other.id,
      clientSecret: other.client_secret,
      scope: 'identify',
      user: 'carol',
    });

    const response = await revoke({
      token: a.refresh_token,
      token_type_hint: 'refresh_token',
      client_id: app.id,
      client_secret: app.client_secret,
    });
    expect(response.status).toBe(200);
    for (const token of [a.access_token, b.access_token]) expect((await me(platform, token)).status).toBe(401);
    const refresh = await request(`${platform.apiBase}/oauth2/token`, {
      form: {
        grant_type: 'refresh_token',
        refresh_token: b.refresh_token,
        client_id: app.id,
        client_secret: app.client_secret,
      },
    });
    expect(refresh.body).toEqual({ error: 'invalid_grant', error_description: 'Invalid "refresh_token" in request.' });
    expect((await me(platform, elsewhere.access_token)).status).toBe(200);

    const event = await receiver.waitForEvent('APPLICATION_DEAUTHORIZED');
    expect(event.body).toMatchObject({
      version: 1,
      application_id: app.id,
      type: 1,
      event: { type: 'APPLICATION_DEAUTHORIZED', data: { user: { username: 'carol' } } },
    });
    expect(event.body.event.data.user.email).toBeUndefined();
    expect(signatureIsValid(app.public_key, event)).toBe(true);
  });

  it("revokes a provisional account's tokens", async () => {
    const issued = await request(`${platform.apiBase}/partner-sdk/token/bot`, {
      headers: bot(app.bot_token),
      json: { external_user_id: 'revoke-provisional' },
    });
    await revoke({ token: issued.body.access_token, client_id: app.id, client_secret: app.client_secret });
    expect((await me(platform, issued.body.access_token)).status).toBe(401);
  });

  it('answers 200 for unknown tokens and tokens of another client (RFC 7009) without revoking them', async () => {
    const token = await accessTokenFor(platform, {
      clientId: other.id,
      clientSecret: other.client_secret,
      scope: 'identify',
      user: 'carol',
    });
    expect((await revoke({ token: 'unknown', client_id: app.id, client_secret: app.client_secret })).status).toBe(200);
    expect(
      (await revoke({ token: token.access_token, client_id: app.id, client_secret: app.client_secret })).status,
    ).toBe(200);
    expect((await me(platform, token.access_token)).status).toBe(200);
  });

  it('requires client authentication, form encoding and a token', async () => {
    const noClient = await revoke({ token: 'x' });
    expect(noClient.status).toBe(401);
    expect(noClient.body.error).toBe('invalid_client');
    const noToken = await revoke({ client_id: app.id, client_secret: app.client_secret });
    expect(noToken.body.errors.token._errors[0].code).toBe('BASE_TYPE_REQUIRED');
    const badHint = await revoke({
      token: 'x',
      token_type_hint: 'id_token',
      client_id: app.id,
      client_secret: app.client_secret,
    });
    expect(badHint.body.errors.token_type_hint._errors[0].code).toBe('BASE_TYPE_CHOICES');
    const json = await request(`${platform.apiBase}/oauth2/token/revoke`, { json: { token: 'x' } });
    expect(json.body.error).toBe('invalid_request');
  });
});
