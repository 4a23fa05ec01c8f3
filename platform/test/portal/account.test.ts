/**
 * The developer portal's account (PROTOCOL.md §15): a configured account with a password hash, development mode's
 * dev-token sign-in, no account at all, the Secure cookie over TLS, and no secret ever in the log.
 */
import { execFileSync } from 'node:child_process';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '../../src/crypto/passwords.js';
import { startTestPlatform } from '../support/platform.js';
import { freeLoopbackPort } from '../support/ports.js';
import { fieldError, PortalClient, shownSecrets } from './client.js';

const PASSWORD = 'correct horse battery staple';

describe('portal developer account', () => {
  it('signs in the configured account with its password (development mode off); the dev-token sign-in is gone', async () => {
    const platform = await startTestPlatform({
      devMode: false,
      config: { developer_account: { username: 'studio', password_hash: hashPassword(PASSWORD) } },
    });
    try {
      const page = await new PortalClient(platform).get('/developers/login');
      expect(page.text).not.toContain('dev token');
      for (const [username, password] of [
        ['developer', platform.devToken],
        ['studio', platform.devToken],
        ['studio', 'wrong'],
      ] as const) {
        expect((await new PortalClient(platform).signIn(username, password)).status).toBe(401);
      }
      const client = new PortalClient(platform);
      const response = await client.signIn('studio', PASSWORD);
      expect([response.status, response.headers.location]).toEqual([303, '/developers/applications']);
      expect((await client.get('/developers/applications')).status).toBe(200);
    } finally {
      await platform.close();
    }
  });

  it('the configured account replaces the dev-token sign-in in development mode too', async () => {
    const platform = await startTestPlatform({
      config: { developer_account: { username: 'studio', password_hash: hashPassword(PASSWORD) } },
    });
    try {
      expect((await new PortalClient(platform).signIn('developer', platform.devToken)).status).toBe(401);
      expect((await new PortalClient(platform).signIn('studio', PASSWORD)).status).toBe(303);
    } finally {
      await platform.close();
    }
  });

  it('without an account and with development mode off, the page says how to configure one and nobody signs in', async () => {
    const platform = await startTestPlatform({ devMode: false });
    try {
      const client = new PortalClient(platform);
      expect((await client.get('/developers/login')).text).toContain('No developer account is configured.');
      const response = await client.signIn('developer', platform.devToken);
      expect([response.status, fieldError(response.text, 'login-password')]).toEqual([
        401,
        'Wrong username or password.',
      ]);
    } finally {
      await platform.close();
    }
  });

  it('svcpp-portal-password prints a hash of the password read from standard input, which signs in', async () => {
    const bin = fileURLToPath(new URL('../../bin/svcpp-portal-password.mjs', import.meta.url));
    const hash = execFileSync(process.execPath, [bin], { input: `${PASSWORD}\n`, encoding: 'utf8' }).trim();
    expect(hash).toMatch(/^scrypt\$[0-9a-f]{32}\$[0-9a-f]{64}$/);
    expect(verifyPassword(PASSWORD, hash)).toBe(true);
    const platform = await startTestPlatform({
      config: { developer_account: { username: 'studio', password_hash: hash } },
    });
    try {
      expect((await new PortalClient(platform).signIn('studio', PASSWORD)).status).toBe(303);
    } finally {
      await platform.close();
    }
  });

  it('refuses to start with a malformed developer account (a password in place of its hash)', async () => {
    await expect(
      startTestPlatform({ config: { developer_account: { username: 'studio', password_hash: PASSWORD } } }),
    ).rejects.toThrow(/invalid platform config: .*developer_account.*password_hash.*Must be scrypt/);
  });

  it('marks the cookies Secure when the platform is reached over https through a TLS front (publicUrl)', async () => {
    const port = await freeLoopbackPort();
    const platform = await startTestPlatform({ port, publicUrl: 'https://platform.example' });
    try {
      const client = new PortalClient(platform, undefined, `http://127.0.0.1:${port}`);
      await client.get('/developers/login');
      expect(client.setCookies[0]!.split('; ')).toContain('Secure');
    } finally {
      await platform.close();
    }
  });

  it('marks the cookies Secure when the platform serves TLS', async () => {
    const platform = await startTestPlatform({ tls: true });
    try {
      const client = new PortalClient(platform, platform.caCertPem);
      const response = await client.signIn('developer', platform.devToken);
      expect(response.status).toBe(303);
      for (const name of ['svcpp_portal_login', 'svcpp_portal_session']) {
        const cookie = client.setCookies.find((line) => line.startsWith(`${name}=`) && !line.includes('Max-Age=0'))!;
        expect(cookie.split('; ')).toContain('Secure');
        expect(cookie.split('; ')).toContain('HttpOnly');
        expect(cookie.split('; ')).toContain('SameSite=Strict');
      }
    } finally {
      await platform.close();
    }
  });

  it('never writes the password, the session cookie or a shown secret to the log', async () => {
    let log = '';
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        log += chunk.toString();
        done();
      },
    });
    const platform = await startTestPlatform({ logger: pino({ level: 'trace' }, sink) });
    try {
      const client = new PortalClient(platform);
      await client.signInAsDeveloper();
      const created = await client.submit('/developers/applications', '/developers/applications', {
        name: 'Logged App',
        parent_id: '',
      });
      const page = created.headers.location!;
      const secrets = Object.values(shownSecrets((await client.get(page)).text));
      await client.submit(`${page}/oauth2`, `${page}/oauth2/client-secret`);
      secrets.push(...Object.values(shownSecrets((await client.get(`${page}/oauth2`)).text)));
      await client.submit(`${page}/bot`, `${page}/bot/token`);
      secrets.push(...Object.values(shownSecrets((await client.get(`${page}/bot`)).text)));
      expect(secrets).toHaveLength(4);
      expect(log).toContain('developer signed in');
      for (const secret of [platform.devToken, client.cookies.get('svcpp_portal_session')!, ...secrets])
        expect(log).not.toContain(secret);
    } finally {
      await platform.close();
    }
  });
});
