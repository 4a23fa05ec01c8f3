import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningPlatform } from '../../src/index.js';
import { bearer, bot, request } from '../support/http.js';
import { accessTokenFor, createApp, me, startTestPlatform, type AppCredentials } from '../support/platform.js';

describe('provisional accounts: bot-issued tokens', () => {
  let platform: RunningPlatform;
  let disabled: AppCredentials;
  const issue = (body: unknown, token = platform.devApp.botToken) =>
    request(`${platform.apiBase}/partner-sdk/token/bot`, { headers: bot(token), json: body });

  beforeAll(async () => {
    platform = await startTestPlatform();
    disabled = await createApp(platform, { name: 'No Provisional', provisional_accounts_enabled: false });
  });
  afterAll(() => platform.close());

  it('creates a provisional account and returns the published token response', async () => {
    const response = await issue({ external_user_id: 'steam:1001', preferred_global_name: 'Player One' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      token_type: 'Bearer',
      access_token: expect.any(String),
      expires_in: 604800,
      scope: 'sdk.social_layer',
      id_token: expect.any(String),
    });
    const user = await me(platform, response.body.access_token);
    expect(user.body).toMatchObject({ global_name: 'Player One', is_provisional: true, discriminator: '0' });
    expect(user.body.username).toMatch(/^player_one_[0-9a-f]{6}$/);
  });

  it('returns the same account for the same external id and updates the display name', async () => {
    const first = await issue({ external_user_id: 'steam:2002', preferred_global_name: 'Before' });
    const second = await issue({ external_user_id: 'steam:2002', preferred_global_name: 'After' });
    const a = await me(platform, first.body.access_token);
    const b = await me(platform, second.body.access_token);
    expect(b.body.id).toBe(a.body.id);
    expect(b.body.global_name).toBe('After');
    // provisional_user_id must match the identity's account.
    expect((await issue({ external_user_id: 'steam:2002', provisional_user_id: a.body.id })).status).toBe(200);
    const mismatch = await issue({ external_user_id: 'steam:2002', provisional_user_id: '1' });
    expect(mismatch.body.errors.provisional_user_id._errors[0].code).toBe('PROVISIONAL_USER_MISMATCH');
  });

  it('keeps external ids apart per application', async () => {
    const other = await createApp(platform, { name: 'Other Game' });
    const mine = await issue({ external_user_id: 'shared-id' });
    const theirs = await issue({ external_user_id: 'shared-id' }, other.bot_token);
    expect((await me(platform, mine.body.access_token)).body.id).not.toBe(
      (await me(platform, theirs.body.access_token)).body.id,
    );
  });

  it('answers 530000 when the application is not enabled for provisional accounts', async () => {
    const response = await issue({ external_user_id: 'x' }, disabled.bot_token);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ code: 530000, message: 'Application is not enabled for provisional accounts' });
  });

  it('validates the body', async () => {
    const response = await issue({ external_user_id: '', preferred_global_name: 7 });
    expect(response.status).toBe(400);
    expect(response.body.errors.external_user_id._errors[0].code).toBe('BASE_TYPE_MIN_LENGTH');
    expect(response.body.errors.preferred_global_name._errors[0].code).toBe('STRING_TYPE_CONVERT');
    const tooLong = await issue({ external_user_id: 'x'.repeat(1025) });
    expect(tooLong.body.errors.external_user_id._errors[0].code).toBe('BASE_TYPE_MAX_LENGTH');
  });

  it('requires a bot token', async () => {
    expect(
      (await request(`${platform.apiBase}/partner-sdk/token/bot`, { json: { external_user_id: 'x' } })).status,
    ).toBe(401);
  });

  describe('display name update (OURS)', () => {
    it('lets a provisional account change its display name', async () => {
      const { body } = await issue({ external_user_id: 'rename-me' });
      const response = await request(`${platform.apiBase}/partner-sdk/provisional-accounts/@me`, {
        method: 'PATCH',
        headers: bearer(body.access_token),
        json: { global_name: '  New Name ' },
      });
      expect(response.status).toBe(200);
      expect(response.body.global_name).toBe('New Name');
      expect((await me(platform, body.access_token)).body.global_name).toBe('New Name');
    });

    it('refuses full accounts with 50229 and validates the name', async () => {
      const full = await accessTokenFor(platform, {
        clientId: platform.devApp.id,
        scope: 'identify',
        user: 'dev_user',
      });
      const refused = await request(`${platform.apiBase}/partner-sdk/provisional-accounts/@me`, {
        method: 'PATCH',
        headers: bearer(full.access_token),
        json: { global_name: 'x' },
      });
      expect(refused.status).toBe(400);
      expect(refused.body.code).toBe(50229);
      const { body } = await issue({ external_user_id: 'rename-bad' });
      const invalid = await request(`${platform.apiBase}/partner-sdk/provisional-accounts/@me`, {
        method: 'PATCH',
        headers: bearer(body.access_token),
        json: { global_name: 'x'.repeat(33) },
      });
      expect(invalid.body.errors.global_name._errors[0].code).toBe('BASE_TYPE_MAX_LENGTH');
    });
  });
});

describe('child tokens (publisher-level linking)', () => {
  let platform: RunningPlatform;
  let parent: AppCredentials;
  let child: AppCredentials;
  let unrelated: AppCredentials;
  const exchange = (body: unknown) => request(`${platform.apiBase}/partner-sdk/child-token`, { json: body });

  beforeAll(async () => {
    platform = await startTestPlatform();
    parent = await createApp(platform, { name: 'Publisher Hub' });
    child = await createApp(platform, { name: 'Publisher Game', parent: 'Publisher Hub' });
    unrelated = await createApp(platform, { name: 'Unrelated Game' });
  });
  afterAll(() => platform.close());

  const parentToken = async () =>
    (
      await request(`${platform.apiBase}/partner-sdk/token/bot`, {
        headers: bot(parent.bot_token),
        json: { external_user_id: 'p1' },
      })
    ).body.access_token as string;

  it('exchanges a parent token for a child token that expires with the parent (no refresh token)', async () => {
    const token = await parentToken();
    const response = await exchange({
      parent_access_token: token,
      child_application_id: child.id,
      parent_client_secret: parent.client_secret,
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      access_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 604800,
      scope: 'sdk.social_layer',
    });
    const parentUser = await me(platform, token);
    const childMe = await request(`${platform.apiBase}/oauth2/@me`, { headers: bearer(response.body.access_token) });
    expect(childMe.body.application.id).toBe(child.id);
    expect(childMe.body.user.id).toBe(parentUser.body.id);
  });

  it('rejects a wrong secret (530007), a missing secret for confidential parents, a non-child and a bad parent token', async () => {
    const token = await parentToken();
    const wrong = await exchange({
      parent_access_token: token,
      child_application_id: child.id,
      parent_client_secret: 'nope',
    });
    expect(wrong.body.code).toBe(530007);
    const missing = await exchange({ parent_access_token: token, child_application_id: child.id });
    expect(missing.body.errors.parent_client_secret._errors[0].code).toBe('BASE_TYPE_REQUIRED');
    const notChild = await exchange({
      parent_access_token: token,
      child_application_id: unrelated.id,
      parent_client_secret: parent.client_secret,
    });
    expect(notChild.body.errors.child_application_id._errors[0].code).toBe('APPLICATION_NOT_CHILD');
    const unknownChild = await exchange({
      parent_access_token: token,
      child_application_id: '12345',
      parent_client_secret: parent.client_secret,
    });
    expect(unknownChild.status).toBe(404);
    expect(unknownChild.body.code).toBe(10002);
    const badToken = await exchange({
      parent_access_token: 'nope',
      child_application_id: child.id,
      parent_client_secret: parent.client_secret,
    });
    expect(badToken.status).toBe(401);
    expect(badToken.body.code).toBe(50025);
    const invalid = await exchange({ child_application_id: 'abc' });
    expect(invalid.body.errors.parent_access_token._errors[0].code).toBe('BASE_TYPE_REQUIRED');
    expect(invalid.body.errors.child_application_id._errors[0].code).toBe('NUMBER_TYPE_COERCE');
  });

  it('lets public parents exchange without a secret, and revokes child tokens with the parent pair', async () => {
    const publicParent = await createApp(platform, { name: 'Public Hub', public_client: true });
    const publicChild = await createApp(platform, { name: 'Public Child', parent: publicParent.id });
    const token = (
      await request(`${platform.apiBase}/partner-sdk/token/bot`, {
        headers: bot(publicParent.bot_token),
        json: { external_user_id: 'p2' },
      })
    ).body.access_token;
    const response = await exchange({ parent_access_token: token, child_application_id: publicChild.id });
    expect(response.status).toBe(200);
    await request(`${platform.apiBase}/oauth2/token/revoke`, { form: { token, client_id: publicParent.id } });
    expect((await me(platform, response.body.access_token)).status).toBe(401);
  });

  it('refuses a child application as a parent in the configuration', async () => {
    const response = await request(`${platform.apiBase}/dev/applications`, {
      json: { name: 'Grandchild', parent: child.id },
    });
    expect(response.status).toBe(400);
    expect(response.body.errors.parent._errors[0].code).toBe('PARENT_IS_CHILD');
  });
});
