/**
 * Bad input over the whole HTTP surface (routes enumerated from the server, so new ones are covered): deep and
 * wrong-typed JSON, router-level errors, malformed requests, and strings that are not valid Unicode. Every answer
 * is a 4xx with our JSON error body, never a 5xx, and never repeats more than a bounded part of the request.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteEntry, RunningPlatform } from '../../src/index.js';
import { bot, isOurErrorBody, request } from '../support/http.js';
import { startTestPlatform } from '../support/platform.js';
import { api, befriend, connect, drain, fieldCodes, fullUser, received } from '../support/social.js';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The route's path with every parameter filled with `value`. */
function pathOf(route: RouteEntry, value: string): string {
  return route.url.replace(/:\w+/g, value);
}

/** One raw HTTP/1.1 exchange (for requests Node's client refuses to send); resolves with the whole answer. */
function rawExchange(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.end(text));
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

function parseRaw(answer: string): { status: number; body: unknown } {
  const [head, ...rest] = answer.split('\r\n\r\n');
  const body = rest.join('\r\n\r\n');
  return {
    status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head!)?.[1]),
    body: body ? (JSON.parse(body) as unknown) : undefined,
  };
}

describe('bad input', () => {
  let platform: RunningPlatform;
  let port: number;
  let bodyRoutes: RouteEntry[];
  beforeAll(async () => {
    platform = await startTestPlatform({ bodyLimitBytes: 2 * 1024 * 1024 });
    port = Number(new URL(platform.httpUrl).port);
    // The activity proxy's bodies belong to the mapping target: it passes them on unread (PROTOCOL.md §18.2).
    bodyRoutes = platform.routes.filter(
      (route) => BODY_METHODS.has(route.method) && !route.url.startsWith('/activities/'),
    );
  });
  afterAll(() => platform.close());

  const send = (route: RouteEntry, raw: string) =>
    request(`${platform.httpUrl}${pathOf(route, '1')}`, {
      method: route.method,
      headers: { ...bot(platform.devApp.botToken), 'content-type': 'application/json' },
      raw,
    });

  it('refuses 100,000 nested arrays in any position with 400 50109 on every route that takes a body', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    for (const route of bodyRoutes) {
      for (const raw of [
        deep,
        `{"content":${deep}}`,
        `{"secret":"s","metadata":{"k":${deep}}}`,
        `[{"id":"1","metadata":${deep}}]`,
      ]) {
        const response = await send(route, raw);
        expect([route.method, route.url, response.status, response.body]).toEqual([
          route.method,
          route.url,
          400,
          { code: 50109, message: 'The request body contains invalid JSON.' },
        ]);
      }
    }
  });

  it('accepts nesting up to the documented depth (64) and refuses one level more', async () => {
    const dispatch = platform.routes.find((route) => route.url.endsWith('/dev/gateway/dispatch'))!;
    const nested = (depth: number) =>
      `{"user_ids":["1"],"t":"DEEP","count":1,"d":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;
    expect((await send(dispatch, nested(64))).body).toEqual({ published: 1 });
    expect((await send(dispatch, nested(65))).body.code).toBe(50109);
  });

  it('never repeats a wrong-typed value in the error', async () => {
    const huge = Array.from({ length: 10_000 }, (_, i) => i);
    const marker = 'M'.repeat(20_000);
    const fields = [
      'secret',
      'content',
      'metadata',
      'members',
      'external_user_id',
      'type',
      'status',
      'activity',
      'username',
      'name',
      'user_ids',
      'id',
      'spammer',
    ];
    for (const route of bodyRoutes) {
      for (const value of [huge, marker, { nested: marker }, 12.5, true]) {
        const response = await send(route, JSON.stringify(Object.fromEntries(fields.map((field) => [field, value]))));
        expect(response.status, `${route.method} ${route.url}`).toBeLessThan(500);
        expect(response.text.length, `${route.method} ${route.url}: ${response.text.slice(0, 200)}`).toBeLessThan(8192);
        expect(response.text).not.toContain('M'.repeat(200));
        expect(response.text).not.toContain('9990,9991');
      }
    }
    // Five requests per route that takes a body: the time grows with every area's routes (not a timing check).
  }, 60_000);

  it('bounds the keys an error tree repeats and the number of field errors', async () => {
    // 400 metadata keys, each 2,000 characters (over the 1,024 limit) with a value over its limit too.
    const metadata = Object.fromEntries(
      Array.from({ length: 400 }, (_, i) => [`${i}`.padEnd(2_000, 'K'), 'v'.repeat(2_000)]),
    );
    const response = await request(`${platform.apiBase}/lobbies`, {
      method: 'PUT',
      headers: bot(platform.devApp.botToken),
      json: { secret: 's', lobby_metadata: metadata },
    });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe(50035);
    expect(response.text.length).toBeLessThan(8192);
    expect(response.text).not.toContain('K'.repeat(200));
  });

  const parametric = () => platform.routes.filter((route) => route.url.includes(':') && route.method !== 'HEAD');

  it('answers an over-long path parameter with our 414 body, without repeating the path', async () => {
    // Over the 1,024-character limit, yet short enough that a route with four parameters stays under the 16 KiB
    // header limit (which would answer 431 first).
    const long = '1'.repeat(2_000);
    for (const route of parametric()) {
      const response = await request(`${platform.httpUrl}${pathOf(route, long)}`, {
        method: route.method,
        headers: bot(platform.devApp.botToken),
      });
      expect([route.url, response.status, response.body]).toEqual([
        route.url,
        414,
        { code: 0, message: '414: URI Too Long' },
      ]);
    }
  });

  it('answers malformed percent-encoding (also of a lone surrogate) with our 400 body', async () => {
    for (const route of parametric()) {
      for (const bad of ['%E0%A4%A', '%ZZ', '%ED%A0%80']) {
        const response = await request(`${platform.httpUrl}${pathOf(route, bad)}`, {
          method: route.method,
          headers: bot(platform.devApp.botToken),
        });
        expect([route.url, response.status, response.body]).toEqual([
          route.url,
          400,
          { code: 0, message: '400: Bad Request' },
        ]);
      }
    }
  });

  it("answers a plain HTTP request to the gateway's WebSocket route with our 404 body", async () => {
    const response = await request(`${platform.httpUrl}/gateway?v=10&encoding=json`);
    expect([response.status, response.body]).toEqual([404, { code: 0, message: '404: Not Found' }]);
  });

  it('answers requests the HTTP parser refuses with our JSON body', async () => {
    const cases: Array<[string, number]> = [
      [`GET /api/v10/users/@me HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Bad: a\u0001b\r\nConnection: close\r\n\r\n`, 400],
      [
        `POST /api/v10/lobbies HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
          `Content-Length: abc\r\nConnection: close\r\n\r\n{}`,
        400,
      ],
      [
        `POST /api/v10/lobbies HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n` +
          `zz\r\n`,
        400,
      ],
      [`BREW /api/v10/users/@me HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`, 400],
      [
        `GET /api/v10/users/@me HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(20_000)}\r\nConnection: close\r\n` +
          `\r\n`,
        431,
      ],
    ];
    for (const [text, status] of cases) {
      const answer = parseRaw(await rawExchange(port, text));
      expect(answer).toEqual({
        status,
        body: { code: 0, message: `${status}: ${status === 431 ? 'Request Header Fields Too Large' : 'Bad Request'}` },
      });
    }
    // The answer to HEAD has headers only.
    const head = await rawExchange(
      port,
      `HEAD /api/v10/users/@me HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(20_000)}\r\nConnection: close\r\n` +
        `\r\n`,
    );
    expect(parseRaw(head)).toEqual({ status: 431, body: undefined });
  });

  it('answers framework errors (bad content types, a bad Expect) with our body, never echoing the header', async () => {
    const route = `${platform.apiBase}/lobbies`;
    for (const contentType of [';;;', 'application/json; charset=utf-16', `application/${'x'.repeat(300)}`]) {
      const response = await request(route, {
        method: 'PUT',
        headers: { ...bot(platform.devApp.botToken), 'content-type': contentType },
        raw: '{}',
      });
      expect(response.status, contentType).toBeLessThan(500);
      expect(isOurErrorBody(response), response.text).toBe(true);
      expect(response.text).not.toContain('x'.repeat(100));
    }
    // An Expect header other than 100-continue (Node would answer 417 with an empty body).
    const expectation = await request(`${platform.apiBase}/users/@me`, {
      headers: { ...bot(platform.devApp.botToken), expect: 'teapot' },
    });
    expect([expectation.status, expectation.body]).toEqual([417, { code: 0, message: '417: Expectation Failed' }]);
  });

  it('refuses a lone surrogate anywhere in a JSON body with a field error at its path, and stores nothing', async () => {
    const [a, b] = [await fullUser(platform), await fullUser(platform)];
    await befriend(platform, a, b);
    const dm = (raw: string) =>
      request(`${platform.apiBase}/users/${b.id}/messages`, {
        method: 'POST',
        headers: { authorization: `Bearer ${a.token}`, 'content-type': 'application/json' },
        raw,
      });

    for (const [raw, path] of [
      ['{"content":"hi \\ud800"}', ['content']],
      ['{"content":"\\udc00 low first"}', ['content']],
      ['{"content":"ok","metadata":{"k":"\\udbff"}}', ['metadata', 'k']],
      // A bad key cannot be named: the error is on the object holding it.
      ['{"content":"ok","metadata":{"\\ud800":"v"}}', ['metadata']],
    ] as const) {
      const response = await dm(raw);
      expect(response.status, raw).toBe(400);
      expect(response.body.code).toBe(50035);
      expect(fieldCodes(response.body, ...path), raw).toEqual(['STRING_TYPE_INVALID_UNICODE']);
      expect(response.text).not.toMatch(/\\u[dD][89abAB]/);
    }
    expect((await api(platform, a.token, 'GET', `/users/@me/dms/${b.id}/messages`)).body).toEqual([]);
    // A surrogate pair (an emoji) is valid text.
    expect((await dm('{"content":"gg \\ud83d\\ude00"}')).status).toBe(201);
    expect((await api(platform, a.token, 'GET', `/users/@me/dms/${b.id}/messages`)).body[0].content).toBe(
      'gg \u{1F600}',
    );
  });

  it('refuses a lone surrogate on every route that takes a JSON body, before anything else is checked', async () => {
    for (const route of bodyRoutes) {
      const response = await send(route, '{"\\u0078":"\\ud800"}');
      expect([route.method, route.url, response.status, response.body]).toEqual([
        route.method,
        route.url,
        400,
        {
          code: 50035,
          message: 'Invalid Form Body',
          errors: {
            x: {
              _errors: [
                { code: 'STRING_TYPE_INVALID_UNICODE', message: 'Must be valid Unicode text (no unpaired surrogate).' },
              ],
            },
          },
        },
      ]);
    }
  });

  it('gateway frames nested past the documented depth (64) close with 4002, as every JSON input refuses them', async () => {
    const a = await fullUser(platform);
    const deep = await connect(platform, a);
    deep.client.sendRaw(`{"op":1,"d":null,"x":${'['.repeat(64)}${']'.repeat(64)}}`);
    expect((await deep.client.expectClose()).code).toBe(4002);
    const ok = await connect(platform, a);
    ok.client.sendRaw(`{"op":1,"d":null,"x":${'['.repeat(63)}${']'.repeat(63)}}`);
    expect((await ok.client.nextOf(11)).op).toBe(11);
    await ok.client.close();
  });

  it('gateway op 3 with a lone surrogate closes with 4001 and publishes nothing', async () => {
    const [a, b] = [await fullUser(platform), await fullUser(platform)];
    await befriend(platform, a, b);
    const bSession = await connect(platform, b);
    const aSession = await connect(platform, a);
    await drain(platform, bSession);
    aSession.client.sendRaw(
      '{"op":3,"d":{"since":null,"afk":false,"status":"online",' +
        '"activities":[{"name":"Game","type":0,"state":"\\ud800\\ud800"}]}}',
    );
    expect((await aSession.client.expectClose()).code).toBe(4001);
    const updates = (await received(platform, bSession, 'PRESENCE_UPDATE')) as Array<{ activities: unknown[] }>;
    expect(updates.flatMap((update) => update.activities)).toEqual([]);
    await bSession.client.close();
  });
});
