/**
 * A property-based fuzzer over the platform's HTTP surface (fast-check), beyond bad-input.generated.test.ts (which
 * mutates requests of each registered route under its own method):
 *   - any method on any registered path, on paths near them (other API versions, extra or missing segments) and on
 *     random paths, with random headers and bodies;
 *   - raw bytes on a TCP socket: broken request lines, header names and values with control and non-UTF-8 bytes,
 *     conflicting Content-Length / Transfer-Encoding, broken chunked bodies, pipelined junk.
 * Every answer is a success or the documented JSON error body (PROTOCOL.md §2; HTML for the browser pages), never
 * a 5xx; every raw connection is answered or closed within a liveness bound (not a timing assertion); afterwards
 * the platform still answers.
 */
import net from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteEntry, RunningPlatform } from '../../src/index.js';
import { isOurErrorBody, request } from '../support/http.js';
import { startTestPlatform } from '../support/platform.js';
import { fullUser } from '../support/social.js';

/** Modest by default (CI, 2 cores); SVCPP_FUZZ_RUNS raises it for a longer search. */
const RUNS = Number(process.env.SVCPP_FUZZ_RUNS ?? 300);
/** The whole property's time limit (a liveness guard, not a measurement): grows with the runs asked for. */
const TEST_TIMEOUT_MS = 60_000 + RUNS * 200;
/** A liveness guard for one raw connection (answered or closed by then), generous for a loaded machine. */
const LIVENESS_MS = 10_000;

const METHODS = [
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'OPTIONS',
  'TRACE',
  'PROPFIND',
  'PURGE',
  'MKCOL',
  'SEARCH',
];
const BODIES = [
  '{}',
  '[]',
  'null',
  '{"content":"x"}',
  '{"a":',
  'a=1&b=2',
  '\u0000\u0001',
  '{"x":"\\ud800"}',
  '"'.repeat(2000),
];

/** The browser pages (OAuth2 consent, device activation, developer portal) answer their errors as HTML. */
const isHtmlAnswer = (path: string, contentType: unknown) =>
  /^\/(oauth2\/authorize|activate|developers)(\/|$|\?)/.test(path) && String(contentType).startsWith('text/html');

function expectDocumentedAnswer(
  path: string,
  method: string,
  response: { status: number; text: string; headers: Record<string, unknown>; body: unknown },
) {
  const what = `${method} ${path.slice(0, 160)} → ${response.status} ${response.text.slice(0, 200)}`;
  expect(response.status, what).toBeLessThan(500);
  if (response.status >= 400 && method !== 'HEAD' && !isHtmlAnswer(path, response.headers['content-type'])) {
    expect(isOurErrorBody(response as Parameters<typeof isOurErrorBody>[0]), what).toBe(true);
  }
}

/** Sends raw bytes, half-closes, and collects everything until the server closes (or the liveness bound passes). */
function rawExchange(port: number, bytes: Buffer): Promise<{ data: Buffer; timedOut: boolean }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = net.connect(port, '127.0.0.1');
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ data: Buffer.concat(chunks), timedOut: true });
    }, LIVENESS_MS);
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ data: Buffer.concat(chunks), timedOut: false });
    });
    socket.end(bytes);
  });
}

/** Splits the bytes a server sent into responses (Content-Length framing, as every platform answer has). */
function parseResponses(data: Buffer): { status: number; contentType: string; body: string; head: boolean }[] {
  const out: { status: number; contentType: string; body: string; head: boolean }[] = [];
  let rest = data.toString('latin1');
  while (rest.startsWith('HTTP/')) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) break;
    const head = rest.slice(0, end);
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0);
    const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
    const contentType = /\r\ncontent-type: *([^\r]*)/i.exec(head)?.[1] ?? '';
    const body = Buffer.from(rest.slice(end + 4, end + 4 + length), 'latin1').toString('utf8');
    out.push({ status, contentType, body, head: false });
    rest = rest.slice(end + 4 + length);
  }
  return out;
}

describe('HTTP routes (generated)', () => {
  let platform: RunningPlatform;
  let routes: RouteEntry[];
  let authorizations: string[];
  let port: number;
  beforeAll(async () => {
    platform = await startTestPlatform();
    routes = [...platform.routes];
    authorizations = [
      `Bot ${platform.devApp.botToken}`,
      `Bearer ${(await fullUser(platform)).token}`,
      'Bearer nope',
      'Bot',
    ];
    port = Number(new URL(platform.httpUrl).port);
  });
  afterAll(() => platform.close());

  it(
    'any method on any path, near paths and random paths, with random headers and bodies: success or our error body',
    async () => {
      const segment = fc.oneof(
        fc.constantFrom(
          '1',
          '@me',
          '0',
          '99999999999999999999',
          'users',
          'lobbies',
          'applications',
          '..',
          '%2e%2e',
          '%00',
          '%ZZ',
          '',
        ),
        fc.string({ maxLength: 12 }).map(encodeURIComponent),
      );
      const path = fc.oneof(
        fc
          .record({ route: fc.nat(), params: fc.array(segment, { minLength: 4, maxLength: 4 }) })
          .map(({ route, params }) => {
            let i = 0;
            return routes[route % routes.length]!.url.replace(/:\w+/g, () => params[i++]!);
          }),
        // Near a route: another API version, a segment more or less, a trailing slash, doubled slashes.
        fc.record({ route: fc.nat(), tweak: fc.nat(4), extra: segment }).map(({ route, tweak, extra }) => {
          const url = routes[route % routes.length]!.url.replace(/:\w+/g, '1');
          return [
            url.replace('/api/v10', '/api/v9'),
            `${url}/${extra}`,
            url.replace(/\/[^/]*$/, ''),
            `${url}/`,
            url.replace('/', '//'),
          ][tweak]!;
        }),
        fc.array(segment, { maxLength: 6 }).map((parts) => `/${parts.join('/')}`),
        fc.array(segment, { maxLength: 5 }).map((parts) => `/api/v10/${parts.join('/')}`),
      );
      const sample = fc.record({
        method: fc.constantFrom(...METHODS),
        path,
        query: fc.constantFrom('', '?limit=1', '?a=%ZZ', '?x=1&x=2', '?' + 'q'.repeat(3000)),
        authorization: fc.option(fc.nat(), { nil: undefined }),
        contentType: fc.option(
          fc.constantFrom(
            'application/json',
            'application/x-www-form-urlencoded',
            'text/plain',
            'application/json; charset=latin1',
            'x/',
          ),
          { nil: undefined },
        ),
        body: fc.option(fc.oneof(fc.constantFrom(...BODIES), fc.json({ maxDepth: 3 })), { nil: undefined }),
        headers: fc.dictionary(
          fc.constantFrom(
            'accept',
            'accept-encoding',
            'x-http-method-override',
            'origin',
            'referer',
            'x-forwarded-for',
            'x-forwarded-host',
            'if-match',
            'te',
            'upgrade',
            'x-ratelimit-precision',
          ),
          fc.oneof(
            fc.string({ unit: 'grapheme-ascii', maxLength: 30 }),
            fc.constantFrom('websocket', 'gzip, br', 'http://evil.example', '*'),
          ),
          { maxKeys: 3 },
        ),
      });
      // What the runs reached, so a generator that stopped reaching the server's checks fails instead of passing idly.
      const statuses = new Set<number>();
      await fc.assert(
        fc.asyncProperty(sample, async (input) => {
          const headers: Record<string, string> = { ...input.headers };
          if (input.authorization !== undefined)
            headers.authorization = authorizations[input.authorization % authorizations.length]!;
          if (input.contentType !== undefined) headers['content-type'] = input.contentType;
          const withBody = input.body !== undefined && input.method !== 'GET' && input.method !== 'HEAD';
          const response = await request(`${platform.httpUrl}${input.path}${input.query}`, {
            method: input.method,
            headers,
            ...(withBody && { raw: input.body }),
          });
          statuses.add(response.status);
          expectDocumentedAnswer(input.path, input.method, response);
        }),
        {
          numRuns: RUNS,
          // Fixed inputs first, so the coverage check below holds whatever the seed: a success (200), a bad token
          // (authorization 2 = 'Bearer nope': 401) and an unknown path (404). The generated runs come after them.
          examples: [
            [
              {
                method: 'GET',
                path: '/api/v10/users/@me',
                query: '',
                authorization: 1,
                contentType: undefined,
                body: undefined,
                headers: {},
              },
            ],
            [
              {
                method: 'GET',
                path: '/api/v10/users/@me',
                query: '',
                authorization: 2,
                contentType: undefined,
                body: undefined,
                headers: {},
              },
            ],
            [
              {
                method: 'GET',
                path: '/api/v10/no-such-area',
                query: '',
                authorization: 1,
                contentType: undefined,
                body: undefined,
                headers: {},
              },
            ],
          ],
        },
      );
      expect([...statuses], 'the runs reached too few kinds of answer').toEqual(
        expect.arrayContaining([200, 401, 404]),
      );
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'raw bytes on a socket: every answer is our error body or a success, never a 5xx, and every connection ends',
    async () => {
      const token = fc.oneof(fc.constantFrom(...METHODS), fc.constantFrom('G ET', '', 'GET\u0000', 'ÄÖ', 'get'));
      const target = fc.oneof(
        fc.constantFrom(
          '/api/v10/gateway',
          '/api/v10/users/@me',
          '*',
          'http://127.0.0.1/api/v10/gateway',
          '',
          '/%',
          '/\u00ff',
          '//../../etc/passwd',
        ),
        fc.string({ maxLength: 20 }),
      );
      const version = fc.constantFrom('HTTP/1.1', 'HTTP/1.0', 'HTTP/2.0', 'HTTP/1.1 ', 'http/1.1', '', 'HTTP/9');
      const header = fc.oneof(
        fc.constantFrom(
          'Host: 127.0.0.1',
          'Content-Length: 5',
          'Content-Length: -1',
          'Content-Length: 1, 2',
          'Content-Length: 99999999999999999999',
          'Transfer-Encoding: chunked',
          'Transfer-Encoding: gzip, chunked',
          'Transfer-Encoding: identity',
          'Content-Type: application/json',
          'Expect: 100-continue',
          'Expect: something',
          'Connection: upgrade',
          'Upgrade: websocket',
          ' folded',
          'NoColon',
          ': empty-name',
          'Authorization: Bot x',
          `X-Long: ${'v'.repeat(20_000)}`,
        ),
        fc
          .tuple(fc.string({ maxLength: 12 }), fc.uint8Array({ maxLength: 20 }))
          .map(([name, value]) => `${name}: ${Buffer.from(value).toString('latin1')}`),
      );
      // Often empty: bytes after a request without a length are read as a next request, whose parse error ends the
      // connection before the first is answered (Node's parser), so only an empty tail lets a request reach routing.
      const body = fc.oneof(
        { weight: 3, arbitrary: fc.constant('') },
        fc.constantFrom(
          '{}',
          '5\r\n{"a":\r\n0\r\n\r\n',
          'zz\r\n{}\r\n0\r\n\r\n',
          '3\r\n{}',
          '0\r\n\r\nGET / HTTP/1.1\r\n\r\n',
          '\r\n\r\n\r\n',
        ),
        fc.uint8Array({ maxLength: 100 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
      );
      // Mostly with a Host header, or nearly everything would stop at the host check (403).
      const headers = fc
        .tuple(fc.nat(3), fc.array(header, { maxLength: 6 }))
        .map(([host, rest]) => (host > 0 ? ['Host: 127.0.0.1', ...rest] : rest));
      const sample = fc.record({
        token,
        target,
        version,
        headers,
        body,
        lineEnd: fc.constantFrom('\r\n', '\r\n', '\n', '\r'),
      });
      const statuses = new Set<number>();
      await fc.assert(
        fc.asyncProperty(sample, async (input) => {
          const headers = input.headers.map((h) => h + input.lineEnd).join('');
          const requestLine = `${input.token} ${input.target} ${input.version}${input.lineEnd}`;
          const text = `${requestLine}${headers}${input.lineEnd}${input.body}`;
          const { data, timedOut } = await rawExchange(port, Buffer.from(text, 'latin1'));
          const what =
            `${JSON.stringify(text.slice(0, 300))} → ` + JSON.stringify(data.toString('latin1').slice(0, 300));
          expect(timedOut, `neither answered nor closed within ${LIVENESS_MS} ms: ${what}`).toBe(false);
          expect(/HTTP\/1\.[01] 5\d\d/.test(data.toString('latin1')), what).toBe(false);
          const headRequest = input.token === 'HEAD';
          for (const response of parseResponses(data)) {
            statuses.add(response.status);
            if (response.status < 400 || headRequest || response.contentType.startsWith('text/html')) continue;
            let parsed: unknown;
            try {
              parsed = JSON.parse(response.body);
            } catch {
              parsed = response.body;
            }
            expect(
              isOurErrorBody({ status: response.status, body: parsed, text: response.body, headers: {} }),
              what,
            ).toBe(true);
          }
        }),
        {
          numRuns: RUNS,
          // Two fixed inputs first, so both coverage checks below hold whatever the seed: one request that reaches
          // routing and one the parser refuses. The generated runs come after them.
          examples: [
            [
              {
                token: 'GET',
                target: '/api/v10/gateway',
                version: 'HTTP/1.1',
                headers: ['Host: 127.0.0.1'],
                body: '',
                lineEnd: '\r\n',
              },
            ],
            [
              {
                token: 'G ET',
                target: '/',
                version: 'HTTP/1.1',
                headers: ['Host: 127.0.0.1'],
                body: '',
                lineEnd: '\r\n',
              },
            ],
          ],
        },
      );
      expect(statuses.has(400), "no run reached the parser's refusal").toBe(true);
      expect(
        [...statuses].some((status) => status !== 400 && status !== 431),
        `no run reached routing: ${[...statuses]}`,
      ).toBe(true);
      // Still alive.
      expect((await request(`${platform.apiBase}/gateway`)).status).toBe(200);
    },
    TEST_TIMEOUT_MS,
  );
});
