import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningPlatform } from '../../src/index.js';
import { bearer, bot, request } from '../support/http.js';
import { startFakeIssuer, type FakeIssuer } from '../support/fake-issuer.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import {
  accessTokenFor,
  authorizeCode,
  createApp,
  createUser,
  login,
  me,
  pkcePair,
  startTestPlatform,
  type AppCredentials,
} from '../support/platform.js';

const AUDIENCE = 'merge-client';
const REDIRECT = 'http://127.0.0.1:5555/callback';

describe('merging provisional accounts into full accounts, and unmerging', () => {
  let platform: RunningPlatform;
  let issuer: FakeIssuer;
  let receiver: WebhookReceiver;
  let app: AppCredentials;
  let userCount = 0;

  const newUser = async () => (await createUser(platform, { username: `merger_${++userCount}` })).username;
  const provisional = async (externalId: string) =>
    (
      await request(`${platform.apiBase}/partner-sdk/token/bot`, {
        headers: bot(app.bot_token),
        json: { external_user_id: externalId, preferred_global_name: 'Guest' },
      })
    ).body.access_token as string;
  const mergeLogin = (user: string, extra: Record<string, string>) =>
    login(platform, {
      clientId: app.id,
      clientSecret: app.client_secret,
      scope: 'identify openid',
      user,
      extraForm: extra,
    });

  beforeAll(async () => {
    issuer = await startFakeIssuer(AUDIENCE);
    receiver = await startWebhookReceiver();
    platform = await startTestPlatform({
      allowLocalhostIssuers: true,
      outboundCaPems: [issuer.caPem],
      oidcCacheSeconds: 0,
      webhookRetry: { baseMs: 10, maxMs: 50 },
    });
    app = await createApp(platform, {
      name: 'Merge Game',
      webhook_url: receiver.url,
      identity_providers: [{ type: 'OIDC', issuer: issuer.issuer, client_id: AUDIENCE }],
    });
  });
  afterAll(async () => {
    await platform.close();
    await issuer.close();
    await receiver.close();
  });

  it('merges a bot-issued provisional account through the token endpoint and deletes it', async () => {
    const username = await newUser();
    const provisionalToken = await provisional('merge-bot-1');
    const provisionalId = (await me(platform, provisionalToken)).body.id;
    await request(`${platform.apiBase}/dev/guilds`, { json: { name: 'Guest Guild', members: [provisionalId] } });

    const response = await mergeLogin(username, {
      external_auth_type: 'DISCORD_BOT_ISSUED_ACCESS_TOKEN',
      external_auth_token: provisionalToken,
    });
    expect(response.status, response.text).toBe(200);
    const full = await me(platform, response.body.access_token);
    expect(full.body).toMatchObject({ username, is_provisional: false });

    // The provisional account is gone, its token with it; its guild membership moved.
    expect((await me(platform, provisionalToken)).status).toBe(401);
    expect((await request(`${platform.apiBase}/users/${provisionalId}`, { headers: bot(app.bot_token) })).status).toBe(
      404,
    );
    const guilds = await request(`${platform.apiBase}/users/@me/guilds`, {
      headers: bearer(
        (
          await accessTokenFor(platform, {
            clientId: app.id,
            clientSecret: app.client_secret,
            scope: 'guilds',
            user: username,
          })
        ).access_token,
      ),
    });
    expect(guilds.body.map((g: { name: string }) => g.name)).toContain('Guest Guild');

    // The external id now belongs to a full account: the bot flow must use OAuth2 instead.
    const again = await request(`${platform.apiBase}/partner-sdk/token/bot`, {
      headers: bot(app.bot_token),
      json: { external_user_id: 'merge-bot-1' },
    });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe(530010);
  });

  it('merges an OIDC provisional account and links an identity that had no account yet', async () => {
    const username = await newUser();
    const exchanged = await request(`${platform.apiBase}/partner-sdk/token`, {
      json: {
        client_id: app.id,
        client_secret: app.client_secret,
        external_auth_type: 'OIDC',
        external_auth_token: await issuer.sign({ sub: 'oidc-merge-1' }),
      },
    });
    const provisionalId = (await me(platform, exchanged.body.access_token)).body.id;
    const merged = await mergeLogin(username, {
      external_auth_type: 'OIDC',
      external_auth_token: await issuer.sign({ sub: 'oidc-merge-1' }),
    });
    expect(merged.status, merged.text).toBe(200);
    expect((await request(`${platform.apiBase}/users/${provisionalId}`, { headers: bot(app.bot_token) })).status).toBe(
      404,
    );

    const other = await newUser();
    const linked = await mergeLogin(other, {
      external_auth_type: 'OIDC',
      external_auth_token: await issuer.sign({ sub: 'oidc-fresh' }),
    });
    expect(linked.status).toBe(200);
    const exchange = await request(`${platform.apiBase}/partner-sdk/token`, {
      json: {
        client_id: app.id,
        client_secret: app.client_secret,
        external_auth_type: 'OIDC',
        external_auth_token: await issuer.sign({ sub: 'oidc-fresh' }),
      },
    });
    expect(exchange.body.code).toBe(530010);
  });

  it('answers 530023 when the account already has an identity of that provider for the app', async () => {
    const username = await newUser();
    expect(
      (
        await mergeLogin(username, {
          external_auth_type: 'OIDC',
          external_auth_token: await issuer.sign({ sub: 'first-identity' }),
        })
      ).status,
    ).toBe(200);
    const second = await mergeLogin(username, {
      external_auth_type: 'OIDC',
      external_auth_token: await issuer.sign({ sub: 'second-identity' }),
    });
    expect(second.status).toBe(400);
    expect(second.body.code).toBe(530023);
  });

  it('answers 530014 when the source account is not provisional, and 50025 for an invalid external token', async () => {
    const username = await newUser();
    const fullToken = (
      await accessTokenFor(platform, {
        clientId: app.id,
        clientSecret: app.client_secret,
        scope: 'identify',
        user: await newUser(),
      })
    ).access_token;
    const notProvisional = await mergeLogin(username, {
      external_auth_type: 'DISCORD_BOT_ISSUED_ACCESS_TOKEN',
      external_auth_token: fullToken,
    });
    expect(notProvisional.body.code).toBe(530014);
    const invalid = await mergeLogin(username, {
      external_auth_type: 'DISCORD_BOT_ISSUED_ACCESS_TOKEN',
      external_auth_token: 'garbage',
    });
    expect(invalid.status).toBe(403);
    expect(invalid.body.code).toBe(50025);
  });

  it('leaves the authorization code usable when a merge fails', async () => {
    const username = await newUser();
    const { verifier, challenge } = pkcePair();
    const code = await authorizeCode(platform, {
      clientId: app.id,
      scope: 'identify',
      user: username,
      challenge,
      redirectUri: REDIRECT,
    });
    const form = {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
      client_id: app.id,
      client_secret: app.client_secret,
    };
    const failed = await request(`${platform.apiBase}/oauth2/token`, {
      form: { ...form, external_auth_type: 'DISCORD_BOT_ISSUED_ACCESS_TOKEN', external_auth_token: 'garbage' },
    });
    expect(failed.status).toBe(403);
    const retry = await request(`${platform.apiBase}/oauth2/token`, { form });
    expect(retry.status).toBe(200);
  });

  it('refuses merge parameters on refresh and client_credentials grants', async () => {
    const response = await request(`${platform.apiBase}/oauth2/token`, {
      form: {
        grant_type: 'client_credentials',
        scope: 'identify',
        client_id: app.id,
        client_secret: app.client_secret,
        external_auth_type: 'OIDC',
        external_auth_token: 'x',
      },
    });
    expect(response.body.error).toBe('invalid_request');
  });

  describe('unmerge', () => {
    it('bot form: a new provisional account (new id) takes over; the full account loses its tokens; APPLICATION_DEAUTHORIZED', async () => {
      const username = await newUser();
      const provisionalToken = await provisional('unmerge-bot-1');
      const merged = await mergeLogin(username, {
        external_auth_type: 'DISCORD_BOT_ISSUED_ACCESS_TOKEN',
        external_auth_token: provisionalToken,
      });
      const fullId = (await me(platform, merged.body.access_token)).body.id;

      const response = await request(`${platform.apiBase}/partner-sdk/provisional-accounts/unmerge/bot`, {
        headers: bot(app.bot_token),
        json: { external_user_id: 'unmerge-bot-1' },
      });
      expect(response.status).toBe(204);
      expect((await me(platform, merged.body.access_token)).status).toBe(401);
      const refresh = await request(`${platform.apiBase}/oauth2/token`, {
        form: {
          grant_type: 'refresh_token',
          refresh_token: merged.body.refresh_token,
          client_id: app.id,
          client_secret: app.client_secret,
        },
      });
      expect(refresh.body.error).toBe('invalid_grant');

      const fresh = await provisional('unmerge-bot-1');
      const standIn = (await me(platform, fresh)).body;
      expect(standIn.is_provisional).toBe(true);
      expect(standIn.id).not.toBe(fullId);
      expect(standIn.global_name).toBe('Guest');

      const event = await receiver.waitForEvent(
        'APPLICATION_DEAUTHORIZED',
        (e) => e.body.event.data.user.id === fullId,
      );
      expect(event.body.application_id).toBe(app.id);
    });

    it('bot form errors: 50229 for a provisional owner, 404 for an unknown identity, field errors', async () => {
      await provisional('still-provisional');
      const provisionalOwner = await request(`${platform.apiBase}/partner-sdk/provisional-accounts/unmerge/bot`, {
        headers: bot(app.bot_token),
        json: { external_user_id: 'still-provisional' },
      });
      expect(provisionalOwner.status).toBe(400);
      expect(provisionalOwner.body.code).toBe(50229);
      const unknown = await request(`${platform.apiBase}/partner-sdk/provisional-accounts/unmerge/bot`, {
        headers: bot(app.bot_token),
        json: { external_user_id: 'never-seen' },
      });
      expect(unknown.status).toBe(404);
      const invalid = await request(`${platform.apiBase}/partner-sdk/provisional-accounts/unmerge/bot`, {
        headers: bot(app.bot_token),
        json: {},
      });
      expect(invalid.body.errors.external_user_id._errors[0].code).toBe('BASE_TYPE_REQUIRED');
    });

    it('secret form with an external token', async () => {
      const username = await newUser();
      await mergeLogin(username, {
        external_auth_type: 'OIDC',
        external_auth_token: await issuer.sign({ sub: 'unmerge-oidc' }),
      });
      const body = {
        client_id: app.id,
        client_secret: app.client_secret,
        external_auth_type: 'OIDC',
        external_auth_token: await issuer.sign({ sub: 'unmerge-oidc' }),
      };
      const wrongSecret = await request(`${platform.apiBase}/partner-sdk/provisional-accounts/unmerge`, {
        json: { ...body, client_secret: 'nope' },
      });
      expect(wrongSecret.body.code).toBe(530007);
      const response = await request(`${platform.apiBase}/partner-sdk/provisional-accounts/unmerge`, { json: body });
      expect(response.status).toBe(204);
      const exchange = await request(`${platform.apiBase}/partner-sdk/token`, { json: body });
      expect(exchange.status).toBe(200);
      expect((await me(platform, exchange.body.access_token)).body.is_provisional).toBe(true);
      const unknown = await request(`${platform.apiBase}/partner-sdk/provisional-accounts/unmerge`, {
        json: { ...body, external_auth_token: await issuer.sign({ sub: 'nobody-here' }) },
      });
      expect(unknown.status).toBe(404);
    });

    it("revoking a merged account's token acts as an unmerge", async () => {
      const username = await newUser();
      const merged = await mergeLogin(username, {
        external_auth_type: 'DISCORD_BOT_ISSUED_ACCESS_TOKEN',
        external_auth_token: await provisional('revoke-unmerge'),
      });
      const revoke = await request(`${platform.apiBase}/oauth2/token/revoke`, {
        form: { token: merged.body.access_token, client_id: app.id, client_secret: app.client_secret },
      });
      expect(revoke.status).toBe(200);
      const fresh = await request(`${platform.apiBase}/partner-sdk/token/bot`, {
        headers: bot(app.bot_token),
        json: { external_user_id: 'revoke-unmerge' },
      });
      expect(fresh.status).toBe(200);
      expect((await me(platform, fresh.body.access_token)).body.is_provisional).toBe(true);
    });
  });
});
