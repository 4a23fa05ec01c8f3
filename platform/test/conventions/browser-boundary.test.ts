/**
 * What a web page the developer happens to visit can do to a local platform (PROTOCOL.md §9): loopback is not a
 * boundary against a browser. A page can send "simple" requests (no-cors: GET, or POST without a JSON content type
 * and without custom headers) and, through DNS rebinding, read answers under its own host name.
 */
import net from 'node:net';
import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningPlatform } from '../../src/index.js';
import { bearer, request } from '../support/http.js';
import { createUser, me, accessTokenFor, startTestPlatform } from '../support/platform.js';
import { freeLoopbackPort as freePort } from '../support/ports.js';

const DEV_TOKEN_HEADER = 'x-svcpp-dev-token';

/** The close code or HTTP status a WebSocket handshake ends with. */
function handshake(url: string, headers: Record<string, string>): Promise<'open' | number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${url}?v=10&encoding=json`, { headers });
    ws.once('open', () => {
      ws.close(1000);
      resolve('open');
    });
    ws.once('unexpected-response', (_request, response) => {
      resolve(response.statusCode ?? 0);
      ws.terminate();
    });
    ws.once('error', () => undefined);
  });
}

describe('the browser boundary', () => {
  let platform: RunningPlatform;
  let port: string;
  beforeAll(async () => {
    platform = await startTestPlatform();
    port = new URL(platform.httpUrl).port;
  });
  afterAll(() => platform.close());

  describe('state-changing development routes', () => {
    it('refuse a body-less POST, a text/plain one and a form post: what a no-cors fetch or a form can send', async () => {
      const victim = await createUser(platform, { username: 'no_cors_victim' });
      const token = (
        await accessTokenFor(platform, { clientId: platform.devApp.id, scope: 'identify', user: victim.username })
      ).access_token;
      const url = `${platform.apiBase}/dev/users/${victim.id}/ban`;
      for (const attempt of [
        {},
        { headers: { 'content-type': 'text/plain' }, raw: '{}' },
        { form: { duration_seconds: '60' } },
      ]) {
        const response = await request(url, { method: 'POST', ...attempt });
        expect([response.status, response.body]).toEqual([
          403,
          { code: 0, message: expect.stringContaining('X-Svcpp-Dev-Token') },
        ]);
      }
      expect((await me(platform, token)).status).toBe(200);
    });

    it('accept a JSON content type or the per-start dev token (a custom header: a page cannot send either cross-site)', async () => {
      const [a, b] = [
        await createUser(platform, { username: 'json_ban' }),
        await createUser(platform, { username: 'token_ban' }),
      ];
      expect(
        (await request(`${platform.apiBase}/dev/users/${a.id}/ban`, { json: { duration_seconds: 60 } })).status,
      ).toBe(200);
      const viaToken = await request(`${platform.apiBase}/dev/users/${b.id}/ban`, {
        method: 'POST',
        headers: { [DEV_TOKEN_HEADER]: platform.devToken },
      });
      expect(viaToken.status).toBe(200);
      const wrongToken = await request(`${platform.apiBase}/dev/users/${b.id}/ban`, {
        method: 'DELETE',
        headers: { [DEV_TOKEN_HEADER]: 'guess' },
      });
      expect(wrongToken.status).toBe(403);
      expect(
        (
          await request(`${platform.apiBase}/dev/users/${b.id}/ban`, {
            method: 'DELETE',
            headers: { [DEV_TOKEN_HEADER]: platform.devToken },
          })
        ).status,
      ).toBe(200);
    });
  });

  describe('GET /dev/state', () => {
    it('serves no credential without the dev token, and serves them with it', async () => {
      const plain = await request(`${platform.apiBase}/dev/state`);
      expect(plain.status).toBe(200);
      expect(plain.text).not.toContain(platform.devApp.clientSecret);
      expect(plain.text).not.toContain(platform.devApp.botToken);
      expect(plain.body.applications[0]).not.toHaveProperty('client_secret');
      expect(plain.body.applications[0]).toMatchObject({
        id: platform.devApp.id,
        public_key: platform.devApp.publicKey,
      });
      const withToken = await request(`${platform.apiBase}/dev/state`, {
        headers: { [DEV_TOKEN_HEADER]: platform.devToken },
      });
      expect(withToken.body.applications[0]).toMatchObject({
        client_secret: platform.devApp.clientSecret,
        bot_token: platform.devApp.botToken,
      });
    });
  });

  describe('Host and Origin (DNS rebinding, cross-site requests)', () => {
    it('refuse a Host that is not loopback or the configured host, on every kind of route', async () => {
      for (const host of [
        `attacker.example:${port}`,
        `127.0.0.1.nip.io:${port}`,
        `sub.localhost:${port}`,
        'attacker.example',
      ]) {
        for (const path of [
          '/api/v10/dev/state',
          '/api/v10/users/@me',
          '/oauth2/authorize',
          '/.well-known/openid-configuration',
          '/nowhere',
        ]) {
          const response = await request(`${platform.httpUrl}${path}`, {
            headers: { host, [DEV_TOKEN_HEADER]: platform.devToken },
          });
          expect([host, path, response.status, response.body]).toEqual([
            host,
            path,
            403,
            { code: 0, message: expect.stringContaining('Host') },
          ]);
          expect(response.text).not.toContain(platform.devApp.clientSecret);
        }
      }
      expect(await handshake(platform.gatewayUrl, { host: `attacker.example:${port}` })).toBe(403);
    });

    it('accept loopback names and addresses, in any case, with or without the port', async () => {
      for (const host of [
        `127.0.0.1:${port}`,
        `localhost:${port}`,
        `LocalHost:${port}`,
        'localhost',
        `[::1]:${port}`,
        `127.0.0.2:${port}`,
      ]) {
        const response = await request(`${platform.httpUrl}/.well-known/openid-configuration`, { headers: { host } });
        expect([host, response.status]).toEqual([host, 200]);
      }
    });

    it('refuse a cross-site Origin (also on the gateway); same-origin and loopback pages are fine', async () => {
      const user = await createUser(platform, { username: 'origin_user' });
      const token = (
        await accessTokenFor(platform, { clientId: platform.devApp.id, scope: 'identify', user: user.username })
      ).access_token;
      for (const origin of [
        'https://attacker.example',
        'null',
        `http://attacker.example:${port}`,
        'http://192.0.2.1',
      ]) {
        const response = await request(`${platform.apiBase}/users/@me`, { headers: { ...bearer(token), origin } });
        expect([origin, response.status, response.body]).toEqual([
          origin,
          403,
          { code: 0, message: expect.stringContaining('Origin') },
        ]);
        expect(await handshake(platform.gatewayUrl, { origin })).toBe(403);
      }
      for (const origin of [
        platform.httpUrl,
        `http://localhost:${port}`,
        'http://localhost:5173',
        'http://127.0.0.1:3000',
      ]) {
        expect([
          origin,
          (await request(`${platform.apiBase}/users/@me`, { headers: { ...bearer(token), origin } })).status,
        ]).toEqual([origin, 200]);
      }
      expect(await handshake(platform.gatewayUrl, { origin: platform.httpUrl })).toBe('open');
    });

    it('accept the host name of the configured public URL', async () => {
      const free = await freePort();
      const named = await startTestPlatform({ port: free, publicUrl: 'http://platform.test:8787' });
      try {
        const response = await request(`http://127.0.0.1:${free}/.well-known/openid-configuration`, {
          headers: { host: 'platform.test:8787', origin: 'http://platform.test:8787' },
        });
        expect(response.status).toBe(200);
      } finally {
        await named.close();
      }
    });
  });

  it('close() still finishes after upgrades refused in plain HTTP whose clients keep their sockets open', async () => {
    const other = await startTestPlatform();
    const otherPort = Number(new URL(other.httpUrl).port);
    const held: net.Socket[] = [];
    for (const [path, origin] of [
      ['/gateway?v=10', 'https://attacker.example'],
      ['/api/v10/lobbies/%ZZ', undefined],
      [`/api/v10/lobbies/${'1'.repeat(2_000)}`, undefined],
    ] as const) {
      const socket = net.connect(otherPort, '127.0.0.1');
      held.push(socket);
      socket.on('error', () => undefined);
      const status = await new Promise<string>((resolve) => {
        socket.once('data', (chunk: Buffer) => resolve(chunk.toString('latin1').split('\r\n')[0]!));
        socket.write(
          `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${otherPort}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n` +
            `Sec-WebSocket-Version: 13\r\n` +
            `Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n${origin ? `Origin: ${origin}\r\n` : ''}\r\n`,
        );
      });
      expect(status).toMatch(/^HTTP\/1\.1 4\d\d /);
    }
    let timer: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([
      other.close().then(() => 'closed'),
      new Promise((resolve) => (timer = setTimeout(() => resolve('still closing'), 10_000))),
    ]);
    clearTimeout(timer);
    held.forEach((socket) => socket.destroy());
    expect(outcome).toBe('closed');
  });

  describe('binding', () => {
    it('refuses a non-loopback address with development mode on, unless allowed explicitly', async () => {
      await expect(startTestPlatform({ host: '0.0.0.0' })).rejects.toThrow(/allowDevOnNetwork/);
      const production = await startTestPlatform({ host: '0.0.0.0', devMode: false });
      await production.close();
      const allowed = await startTestPlatform({ host: '0.0.0.0', allowDevOnNetwork: true });
      await allowed.close();
    });
  });
});
