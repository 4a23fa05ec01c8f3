import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningPlatform } from '../../src/index.js';
import { GatewayClient } from '../support/gateway-client.js';
import { bot, request } from '../support/http.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import {
  accessTokenFor,
  createApp,
  createUser,
  devTokenHeaders,
  login,
  me,
  startTestPlatform,
  testClock,
  type AppCredentials,
} from '../support/platform.js';

describe('bans', () => {
  const clock = testClock();
  let platform: RunningPlatform;
  let receiver: WebhookReceiver;
  let app: AppCredentials;
  let counter = 0;

  const ban = (userId: string, body: Record<string, unknown> = {}) =>
    request(`${platform.apiBase}/dev/users/${userId}/ban`, { json: body });
  const unban = (userId: string) =>
    request(`${platform.apiBase}/dev/users/${userId}/ban`, { method: 'DELETE', headers: devTokenHeaders(platform) });
  const botToken = (externalId: string) =>
    request(`${platform.apiBase}/partner-sdk/token/bot`, {
      headers: bot(app.bot_token),
      json: { external_user_id: externalId },
    });

  /** A full account that merged the bot-issued identity `externalId`; returns its id and tokens. */
  async function mergedAccount(externalId: string) {
    const username = (await createUser(platform, { username: `banned_${++counter}` })).username;
    const provisional = (await botToken(externalId)).body.access_token;
    const merged = await login(platform, {
      clientId: app.id,
      clientSecret: app.client_secret,
      scope: 'identify',
      user: username,
      extraForm: { external_auth_type: 'DISCORD_BOT_ISSUED_ACCESS_TOKEN', external_auth_token: provisional },
    });
    expect(merged.status, merged.text).toBe(200);
    return { username, id: (await me(platform, merged.body.access_token)).body.id as string, tokens: merged.body };
  }

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    platform = await startTestPlatform({ now: clock.now, webhookRetry: { baseMs: 10, maxMs: 50 } });
    app = await createApp(platform, { name: 'Ban Game', webhook_url: receiver.url });
  });
  afterAll(async () => {
    await platform.close();
    await receiver.close();
  });

  it('deletes tokens at once, closes gateway sessions, sends APPLICATION_DEAUTHORIZED', async () => {
    const account = await mergedAccount('ban-1');
    const gateway = new GatewayClient({
      url: platform.gatewayUrl,
      token: `Bearer ${account.tokens.access_token}`,
      intents: 0,
      autoReconnect: false,
    });
    await gateway.connect();
    const closed = new Promise<number>((resolve) => gateway.once('socketClose', (code: number) => resolve(code)));

    const response = await ban(account.id);
    expect(response.status).toBe(200);
    expect(response.body.user.banned).toBe(true);
    expect(response.body.user.banned_until).toBe('permanent');

    expect(await closed).toBe(4004);
    expect((await me(platform, account.tokens.access_token)).status).toBe(401);
    const refresh = await request(`${platform.apiBase}/oauth2/token`, {
      form: {
        grant_type: 'refresh_token',
        refresh_token: account.tokens.refresh_token,
        client_id: app.id,
        client_secret: app.client_secret,
      },
    });
    expect(refresh.status).toBe(400);
    expect(refresh.body.error).toBe('invalid_grant');
    const event = await receiver.waitForEvent(
      'APPLICATION_DEAUTHORIZED',
      (e) => e.body.event.data.user.id === account.id,
    );
    expect(event.body.event.data.user.username).toBe(account.username);
  });

  it('creates a cross-platform-restricted provisional account for the external identity; merges fail with 530017 until the ban lifts', async () => {
    const account = await mergedAccount('ban-2');
    const response = await ban(account.id, { duration_seconds: 3600 });
    expect(response.body.restricted_accounts).toHaveLength(1);
    const standInId = response.body.restricted_accounts[0].id;
    expect(standInId).not.toBe(account.id);

    const provisional = await botToken('ban-2');
    expect(provisional.status).toBe(200);
    const standIn = await me(platform, provisional.body.access_token);
    expect(standIn.body).toMatchObject({ id: standInId, is_provisional: true, is_restricted: true });

    const target = (await createUser(platform, { username: `target_${++counter}` })).username;
    const mergeForm = {
      external_auth_type: 'DISCORD_BOT_ISSUED_ACCESS_TOKEN',
      external_auth_token: provisional.body.access_token,
    };
    const blocked = await login(platform, {
      clientId: app.id,
      clientSecret: app.client_secret,
      scope: 'identify',
      user: target,
      extraForm: mergeForm,
    });
    expect(blocked.status).toBe(400);
    expect(blocked.body).toEqual({ code: 530017, message: 'Merge source account is restricted by a ban' });

    // A timed ban lifts by itself.
    clock.advance(3_600_000);
    const lifted = await login(platform, {
      clientId: app.id,
      clientSecret: app.client_secret,
      scope: 'identify',
      user: target,
      extraForm: mergeForm,
    });
    expect(lifted.status, lifted.text).toBe(200);
  });

  it('lifting a ban through the dev route re-allows sign-in and merges', async () => {
    const account = await mergedAccount('ban-3');
    await ban(account.id);
    const query = new URLSearchParams({
      client_id: app.id,
      response_type: 'code',
      scope: 'identify',
      svcpp_dev_user: account.username,
    });
    const denied = await request(`${platform.httpUrl}/oauth2/authorize?${query}`);
    expect(new URL(String(denied.headers.location)).searchParams.get('error')).toBe('access_denied');

    const provisional = (await botToken('ban-3')).body.access_token;
    const target = (await createUser(platform, { username: `target_${++counter}` })).username;
    const mergeForm = { external_auth_type: 'DISCORD_BOT_ISSUED_ACCESS_TOKEN', external_auth_token: provisional };
    expect(
      (
        await login(platform, {
          clientId: app.id,
          clientSecret: app.client_secret,
          scope: 'identify',
          user: target,
          extraForm: mergeForm,
        })
      ).body.code,
    ).toBe(530017);

    const response = await unban(account.id);
    expect(response.status).toBe(200);
    expect(response.body.banned).toBe(false);
    expect(
      (
        await accessTokenFor(platform, {
          clientId: app.id,
          clientSecret: app.client_secret,
          scope: 'identify',
          user: account.username,
        })
      ).access_token,
    ).toBeTruthy();
    expect(
      (
        await login(platform, {
          clientId: app.id,
          clientSecret: app.client_secret,
          scope: 'identify',
          user: target,
          extraForm: mergeForm,
        })
      ).status,
    ).toBe(200);
  });

  it('validates the ban route', async () => {
    const unknown = await ban('1234');
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe(10013);
    const account = await createUser(platform, { username: `plain_${++counter}` });
    const invalid = await ban(account.id, { duration_seconds: 0 });
    expect(invalid.body.errors.duration_seconds._errors[0].code).toBe('NUMBER_TYPE_MIN');
    const botUser = await ban(app.bot_user_id);
    expect(botUser.body.code).toBe(50229);
  });
});
