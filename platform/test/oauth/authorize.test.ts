import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningPlatform } from '../../src/index.js';
import { request } from '../support/http.js';
import { createApp, createUser, startTestPlatform, type AppCredentials } from '../support/platform.js';

function authorizeUrl(platform: RunningPlatform, params: Record<string, string>): string {
  return `${platform.httpUrl}/oauth2/authorize?${new URLSearchParams(params)}`;
}

function location(response: { headers: Record<string, unknown> }): URL {
  return new URL(String(response.headers.location));
}

describe('/oauth2/authorize', () => {
  let platform: RunningPlatform;
  let app: AppCredentials;
  beforeAll(async () => {
    platform = await startTestPlatform();
    app = await createApp(platform, {
      name: 'Authorize App',
      redirect_uris: ['https://game.example.com/cb', 'http://127.0.0.1/callback', 'mygame:/authorize/callback'],
      social_sdk_terms_accepted: false,
    });
    await createUser(platform, { username: 'alice', password: 'wonderland', email: 'alice@example.com' });
  });
  afterAll(() => platform.close());

  const base = () => ({
    client_id: app.id,
    response_type: 'code',
    scope: 'identify',
    redirect_uri: 'https://game.example.com/cb',
    state: 'xyz',
  });

  it('shows a consent page naming the app and the scopes', async () => {
    const response = await request(authorizeUrl(platform, { ...base(), scope: 'identify email' }));
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
    expect(response.text).toContain('Authorize App');
    expect(response.text).toContain('<code>email</code>');
    expect(response.text).toContain('name="state" value="xyz"');
  });

  it('signs in on the consent form (with password) and redirects with code and state', async () => {
    const response = await request(`${platform.httpUrl}/oauth2/authorize`, {
      form: { ...base(), username: 'alice', password: 'wonderland', decision: 'authorize' },
    });
    expect(response.status).toBe(302);
    const target = location(response);
    expect(target.origin + target.pathname).toBe('https://game.example.com/cb');
    expect(target.searchParams.get('state')).toBe('xyz');
    expect(target.searchParams.get('code')).toMatch(/^[\w-]{20,}$/);
  });

  it('re-shows the consent page with 401 for a wrong password', async () => {
    const response = await request(`${platform.httpUrl}/oauth2/authorize`, {
      form: { ...base(), username: 'alice', password: 'wrong', decision: 'authorize' },
    });
    expect(response.status).toBe(401);
    expect(response.text).toContain('Unknown username or wrong password.');
  });

  it('redirects access_denied when the user cancels', async () => {
    const response = await request(`${platform.httpUrl}/oauth2/authorize`, {
      form: { ...base(), username: 'alice', decision: 'cancel' },
    });
    expect(response.status).toBe(302);
    expect(location(response).searchParams.get('error')).toBe('access_denied');
    expect(location(response).searchParams.get('state')).toBe('xyz');
  });

  it('auto-approves in development mode with svcpp_dev_user', async () => {
    const response = await request(authorizeUrl(platform, { ...base(), svcpp_dev_user: 'alice' }));
    expect(response.status).toBe(302);
    expect(location(response).searchParams.get('code')).toBeTruthy();
  });

  it('redirects access_denied for an unknown development user', async () => {
    const response = await request(authorizeUrl(platform, { ...base(), svcpp_dev_user: 'nobody' }));
    expect(location(response).searchParams.get('error')).toBe('access_denied');
  });

  it('matches loopback redirect URIs on any port (RFC 8252)', async () => {
    const response = await request(
      authorizeUrl(platform, { ...base(), redirect_uri: 'http://127.0.0.1:43121/callback', svcpp_dev_user: 'alice' }),
    );
    expect(response.status).toBe(302);
    expect(location(response).port).toBe('43121');
    const wrongPath = await request(
      authorizeUrl(platform, { ...base(), redirect_uri: 'http://127.0.0.1:43121/other' }),
    );
    expect(wrongPath.status).toBe(400);
  });

  it('redirects to custom-scheme mobile URIs', async () => {
    const response = await request(
      authorizeUrl(platform, { ...base(), redirect_uri: 'mygame:/authorize/callback', svcpp_dev_user: 'alice' }),
    );
    expect(response.status).toBe(302);
    expect(String(response.headers.location)).toMatch(/^mygame:\/authorize\/callback\?code=/);
  });

  it('returns the token in the fragment for response_type=token', async () => {
    const response = await request(
      authorizeUrl(platform, { ...base(), response_type: 'token', svcpp_dev_user: 'alice' }),
    );
    expect(response.status).toBe(302);
    const fragment = new URLSearchParams(location(response).hash.slice(1));
    expect(fragment.get('token_type')).toBe('Bearer');
    expect(fragment.get('expires_in')).toBe('604800');
    expect(fragment.get('state')).toBe('xyz');
    const me = await request(`${platform.apiBase}/users/@me`, {
      headers: { authorization: `Bearer ${fragment.get('access_token')}` },
    });
    expect(me.body.username).toBe('alice');
  });

  it('never redirects for an unknown client or unregistered redirect URI (HTML and JSON forms)', async () => {
    const unknownClient = await request(authorizeUrl(platform, { ...base(), client_id: '123' }));
    expect(unknownClient.status).toBe(400);
    expect(unknownClient.headers.location).toBeUndefined();
    expect(unknownClient.text).toContain('client_id: Unknown application.');

    const badRedirect = await request(
      authorizeUrl(platform, { ...base(), redirect_uri: 'https://evil.example.com/cb' }),
      { headers: { accept: 'application/json' } },
    );
    expect(badRedirect.status).toBe(400);
    expect(badRedirect.body.code).toBe(50035);
    expect(badRedirect.body.errors.redirect_uri._errors[0].code).toBe('REDIRECT_URI_NOT_REGISTERED');
  });

  it('requires redirect_uri when several are registered', async () => {
    const { redirect_uri: _omit, ...params } = base();
    const response = await request(authorizeUrl(platform, params), { headers: { accept: 'application/json' } });
    expect(response.status).toBe(400);
    expect(response.body.errors.redirect_uri).toBeDefined();
  });

  it('reports missing and malformed parameters as field errors', async () => {
    const response = await request(
      authorizeUrl(platform, { client_id: app.id, redirect_uri: 'https://game.example.com/cb', prompt: 'sometimes' }),
      {
        headers: { accept: 'application/json' },
      },
    );
    expect(response.status).toBe(400);
    expect(response.body.errors.response_type._errors[0].code).toBe('BASE_TYPE_REQUIRED');
    expect(response.body.errors.scope._errors[0].code).toBe('BASE_TYPE_REQUIRED');
    expect(response.body.errors.prompt._errors[0].code).toBe('BASE_TYPE_CHOICES');
  });

  it('redirects the RFC errors once the client and redirect URI are known', async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ response_type: 'id_token' }, 'unsupported_response_type'],
      [{ scope: 'identify teleport' }, 'invalid_scope'],
      [{ code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' }, 'invalid_request'],
      [{ code_challenge: 'short', code_challenge_method: 'S256' }, 'invalid_request'],
      [{ code_challenge: 'a'.repeat(43) }, 'invalid_request'],
      [{ prompt: 'none' }, 'login_required'],
      [{ integration_type: '0' }, 'invalid_request'],
    ];
    for (const [override, error] of cases) {
      const response = await request(authorizeUrl(platform, { ...base(), ...override }));
      expect(response.status, JSON.stringify(override)).toBe(302);
      expect(location(response).searchParams.get('error'), JSON.stringify(override)).toBe(error);
      expect(location(response).searchParams.get('state')).toBe('xyz');
    }
  });

  it('grants identify.premium only to approved applications', async () => {
    const denied = await request(authorizeUrl(platform, { ...base(), scope: 'identify identify.premium' }));
    expect(location(denied).searchParams.get('error')).toBe('invalid_scope');
    expect(location(denied).searchParams.get('error_description')).toContain('approved');

    const approved = await createApp(platform, { name: 'Premium Partner', identify_premium_approved: true });
    const response = await request(
      authorizeUrl(platform, {
        client_id: approved.id,
        response_type: 'code',
        scope: 'identify identify.premium',
        svcpp_dev_user: 'alice',
      }),
    );
    expect(location(response).searchParams.get('code')).toBeTruthy();
  });

  it('grants relationships.read and sdk.* scopes only after the social SDK terms are accepted', async () => {
    for (const scope of ['relationships.read', 'openid sdk.social_layer']) {
      const response = await request(authorizeUrl(platform, { ...base(), scope }));
      expect(location(response).searchParams.get('error')).toBe('invalid_scope');
    }
    const response = await request(
      authorizeUrl(platform, {
        client_id: platform.devApp.id,
        response_type: 'code',
        scope: 'relationships.read application.commands',
        svcpp_dev_user: 'alice',
      }),
    );
    expect(location(response).searchParams.get('code')).toBeTruthy();
  });

  it('is not offered to provisional or bot accounts', async () => {
    const botUser = await request(authorizeUrl(platform, { ...base(), svcpp_dev_user: app.bot_user_id }));
    expect(location(botUser).searchParams.get('error')).toBe('access_denied');
  });
});

describe('/oauth2/authorize outside development mode', () => {
  it('ignores svcpp_dev_user and shows the consent page; dev routes do not exist', async () => {
    const platform = await startTestPlatform({ devMode: false });
    try {
      const response = await request(
        authorizeUrl(platform, {
          client_id: platform.devApp.id,
          response_type: 'code',
          scope: 'identify',
          svcpp_dev_user: 'dev_user',
        }),
      );
      expect(response.status).toBe(200);
      expect(response.text).toContain('Authorize svcpp Dev App');
      const dev = await request(`${platform.apiBase}/dev/state`);
      expect(dev.status).toBe(404);
    } finally {
      await platform.close();
    }
  });
});
