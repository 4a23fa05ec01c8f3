/**
 * The per-application activity proxy (PROTOCOL.md §18.2) over real HTTP: a local server stands for the external
 * host, the platform maps paths to it, and `{proxy_base}/<path>` and `{proxy_base}/.proxy/<path>` answer with the same
 * status, headers and bytes — which are the target's own.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningPlatform } from '../../src/index.js';
import { request } from '../support/http.js';
import { createApp, startTestPlatform } from '../support/platform.js';
import {
  BIG,
  BINARY,
  headerNames,
  headerValues,
  largeBody,
  rawRequest,
  startUpstream,
  type RawResponse,
  type Upstream,
} from './upstream.js';

let platform: RunningPlatform;
let upstream: Upstream;
let appId: string;

const base = (id = appId) => `${platform.httpUrl}/activities/${id}`;
const setMappings = (id: string, url_mappings: unknown) =>
  request(`${platform.apiBase}/dev/applications/${id}/url-mappings`, { method: 'PUT', json: { url_mappings } });

/** Both forms of one path: unprefixed, then with `/.proxy`. */
async function bothForms(
  path: string,
  options: Parameters<typeof rawRequest>[1] = {},
): Promise<[RawResponse, RawResponse]> {
  return [await rawRequest(`${base()}${path}`, options), await rawRequest(`${base()}/.proxy${path}`, options)];
}

function expectSame(plain: RawResponse, prefixed: RawResponse) {
  expect(prefixed.status).toBe(plain.status);
  expect(prefixed.statusMessage).toBe(plain.statusMessage);
  expect(prefixed.rawHeaders).toEqual(plain.rawHeaders);
  expect(prefixed.body.equals(plain.body)).toBe(true);
}

beforeAll(async () => {
  upstream = await startUpstream();
  platform = await startTestPlatform();
  appId = (
    await createApp(platform, {
      name: 'Proxy Activity',
      url_mappings: [
        { prefix: '/api', target: `${upstream.host}/v1` },
        { prefix: '/', target: upstream.host },
      ],
    })
  ).id;
});
afterAll(async () => {
  await platform.close();
  await upstream.close();
});

describe('activity proxy: both forms reach the same mapping (PROTOCOL.md §18.2)', () => {
  it('binary bodies arrive byte for byte in both forms, with the target headers as sent', async () => {
    const [plain, prefixed] = await bothForms('/api/binary');
    expectSame(plain, prefixed);
    expect(plain.status).toBe(200);
    expect(plain.body.equals(BINARY)).toBe(true);
    expect(headerValues(plain.rawHeaders, 'content-type')).toEqual(['application/octet-stream']);
    expect(headerValues(plain.rawHeaders, 'content-length')).toEqual([String(BINARY.length)]);
    expect(upstream.seen.slice(-2)).toEqual([
      { method: 'GET', url: '/v1/binary' },
      { method: 'GET', url: '/v1/binary' },
    ]);
  });

  it('an 8 MiB streamed body arrives whole and equal in both forms', async () => {
    const [plain, prefixed] = await bothForms('/api/big');
    expectSame(plain, prefixed);
    expect(plain.body.length).toBe(BIG.length);
    expect(createHash('sha256').update(plain.body).digest('hex')).toBe(createHash('sha256').update(BIG).digest('hex'));
  });

  it('status codes, Location headers and empty bodies pass through unchanged in both forms', async () => {
    for (const code of [200, 201, 204, 301, 302, 304, 400, 401, 403, 404, 418, 500, 503]) {
      const [plain, prefixed] = await bothForms(`/api/status/${code}`);
      expectSame(plain, prefixed);
      expect(plain.status).toBe(code);
      expect(headerValues(plain.rawHeaders, 'x-status')).toEqual([String(code)]);
      if (code >= 301 && code <= 302) expect(headerValues(plain.rawHeaders, 'location')).toEqual(['/elsewhere?x=1']);
      expect(plain.body.toString()).toBe(code === 204 || code === 304 ? '' : `status ${code}`);
    }
  });

  it('query strings reach the target as sent (encoding, repeats, empty values) in both forms', async () => {
    const query = '?a=1&a=2&empty=&sp=%20x%2By&utf=%C3%A9&flag';
    const [plain, prefixed] = await bothForms(`/api/echo${query}`);
    expectSame(plain, prefixed);
    expect(JSON.parse(plain.body.toString()).url).toBe(`/v1/echo${query}`);
  });

  it('HEAD and OPTIONS pass through in both forms (HEAD: the headers of the GET, no body)', async () => {
    const [plain, prefixed] = await bothForms('/api/binary', { method: 'HEAD' });
    expectSame(plain, prefixed);
    expect(plain.status).toBe(200);
    expect(plain.body.length).toBe(0);
    expect(headerValues(plain.rawHeaders, 'content-length')).toEqual([String(BINARY.length)]);
    const [options, optionsPrefixed] = await bothForms('/api/echo', { method: 'OPTIONS' });
    expectSame(options, optionsPrefixed);
    expect(JSON.parse(options.body.toString()).method).toBe('OPTIONS');
  });

  it('the root mapping takes every path the others do not, and `/` itself', async () => {
    const [plain, prefixed] = await bothForms('/index.html?v=3');
    expectSame(plain, prefixed);
    expect(JSON.parse(plain.body.toString()).url).toBe('/index.html?v=3');
    const root = await rawRequest(`${base()}/`);
    const marker = await rawRequest(`${base()}/.proxy`);
    expect(JSON.parse(root.body.toString()).url).toBe('/');
    expect(JSON.parse(marker.body.toString()).url).toBe('/');
  });

  it('request bodies (binary, 3 MiB) and methods reach the target unchanged in both forms', async () => {
    const body = largeBody(3 * 1024 * 1024 + 7);
    const digest = createHash('sha256').update(body).digest('hex');
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'GET']) {
      const [plain, prefixed] = await bothForms('/api/echo', {
        method,
        body,
        headers: { 'content-type': 'application/octet-stream' },
      });
      expectSame(plain, prefixed);
      const echo = JSON.parse(plain.body.toString());
      expect({ method: echo.method, bodyLength: echo.bodyLength, bodySha256: echo.bodySha256 }).toEqual({
        method,
        bodyLength: body.length,
        bodySha256: digest,
      });
    }
  });

  it('repeated response headers keep their order; hop-by-hop ones (and those Connection names) are not passed on', async () => {
    const [plain, prefixed] = await bothForms('/api/headers');
    expectSame(plain, prefixed);
    expect(plain.status).toBe(201);
    expect(headerValues(plain.rawHeaders, 'set-cookie')).toEqual(['a=1; Path=/', 'b=2; Path=/']);
    expect(headerValues(plain.rawHeaders, 'x-repeated')).toEqual(['one', 'two']);
    expect(headerValues(plain.rawHeaders, 'cache-control')).toEqual(['max-age=60']);
    const names = headerNames(plain.rawHeaders);
    expect(names).not.toContain('x-up-hop');
    expect(names).not.toContain('proxy-authenticate');
  });

  it('request headers pass on except hop-by-hop ones; Host names the target and X-Forwarded-* the caller', async () => {
    const headers = {
      'X-Custom': 'kept',
      Cookie: 'session=abc',
      Authorization: 'Bearer app-token',
      Connection: 'X-Hop',
      'X-Hop': 'dropped',
      'Proxy-Authorization': 'Basic eA==',
      TE: 'trailers',
    };
    const [plain, prefixed] = await bothForms('/api/echo', { headers });
    expectSame(plain, prefixed);
    const sent: string[] = JSON.parse(plain.body.toString()).rawHeaders;
    expect(headerValues(sent, 'x-custom')).toEqual(['kept']);
    expect(headerValues(sent, 'cookie')).toEqual(['session=abc']);
    expect(headerValues(sent, 'authorization')).toEqual(['Bearer app-token']);
    expect(headerValues(sent, 'host')).toEqual([upstream.host]);
    expect(headerValues(sent, 'x-forwarded-host')).toEqual([new URL(platform.httpUrl).host]);
    expect(headerValues(sent, 'x-forwarded-proto')).toEqual(['http']);
    expect(headerValues(sent, 'x-forwarded-for')).toEqual(['127.0.0.1']);
    for (const name of ['x-hop', 'proxy-authorization', 'te']) expect(headerNames(sent)).not.toContain(name);
  });
});

describe('activity proxy: the host form <id>.activities.localhost (PROTOCOL.md §18.2)', () => {
  /** A request to the platform's address naming the application's own host. */
  const viaHost = (
    path: string,
    options: { method?: string; headers?: Record<string, string>; body?: Buffer } = {},
    id = appId,
  ) =>
    rawRequest(`${platform.httpUrl}${path}`, {
      ...options,
      headers: { ...options.headers, host: `${id}.activities.localhost:${new URL(platform.httpUrl).port}` },
    });

  it('answers like the path form, in both of its own forms, byte for byte', async () => {
    const [pathForm] = await bothForms('/api/binary');
    const plain = await viaHost('/api/binary');
    const prefixed = await viaHost('/.proxy/api/binary');
    expectSame(plain, prefixed);
    // The same answer as the path form, but for the stricter policy's CSP, which names each form's own proxy base.
    const withoutCsp = (raw: string[]) =>
      raw.filter((_, i) => raw[i - (i % 2)]!.toLowerCase() !== 'content-security-policy');
    expect(withoutCsp(plain.rawHeaders)).toEqual(withoutCsp(pathForm.rawHeaders));
    expect(plain.body.equals(pathForm.body)).toBe(true);
    expect(headerValues(plain.rawHeaders, 'content-security-policy')[0]).toContain(
      `http://${appId}.activities.localhost:${new URL(platform.httpUrl).port}/ `,
    );
    const body = largeBody(1024 * 1024);
    const posted = await viaHost('/.proxy/api/echo?x=1', {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(JSON.parse(posted.body.toString())).toMatchObject({
      url: '/v1/echo?x=1',
      bodyLength: body.length,
      bodySha256: createHash('sha256').update(body).digest('hex'),
    });
  });

  it("every path on the application's host is the proxy's, the platform's own routes included", async () => {
    const echo = await viaHost('/api/v10/gateway');
    expect(JSON.parse(echo.body.toString()).url).toBe('/v1/v10/gateway');
    const unknown = await viaHost('/x', {}, '12345');
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body.toString())).toEqual({ code: 10002, message: 'Unknown Application' });
  });

  it("a page on an application's host cannot drive the platform's API (its Origin is refused)", async () => {
    const origin = `http://${appId}.activities.localhost:${new URL(platform.httpUrl).port}`;
    const response = await request(`${platform.apiBase}/gateway`, { headers: { origin } });
    expect(response.status).toBe(403);
    expect(response.body.message).toContain('Origin not allowed');
  });
});

describe('activity proxy: mappings', () => {
  it('the first mapping in the configured order wins; {name} placeholders take one segment into the target', async () => {
    const app = await createApp(platform, { name: 'Ordered Activity' });
    const mappings = [
      { prefix: '/api/special', target: `${upstream.host}/special` },
      { prefix: '/api', target: `${upstream.host}/general` },
      { prefix: '/tiles/{zoom}/{set}', target: `${upstream.host}/z{zoom}/sets/{set}` },
    ];
    expect((await setMappings(app.id, mappings)).status).toBe(200);
    const url = async (path: string) =>
      JSON.parse((await rawRequest(`${base(app.id)}${path}`)).body.toString()).url as string;
    expect(await url('/api/special/x')).toBe('/special/x');
    expect(await url('/api/specialty')).toBe('/general/specialty');
    expect(await url('/.proxy/tiles/12/roads/3/4.png?hd=1')).toBe('/z12/sets/roads/3/4.png?hd=1');
    expect((await setMappings(app.id, [mappings[1], mappings[0]])).status).toBe(200);
    expect(await url('/api/special/x')).toBe('/general/special/x');
  });

  it('a path no mapping covers is 404 with our error body, in both forms, and nothing reaches a target', async () => {
    const app = await createApp(platform, {
      name: 'Narrow Activity',
      url_mappings: [{ prefix: '/api', target: upstream.host }],
    });
    const before = upstream.seen.length;
    for (const path of ['/other', '/.proxy/other', '/apis', '/']) {
      const response = await request(`${base(app.id)}${path}`);
      expect(response.status, path).toBe(404);
      expect(response.body).toEqual({ code: 0, message: '404: No URL mapping of this application covers this path' });
    }
    expect(upstream.seen.length).toBe(before);
  });

  it('a target that cannot be reached is 502 with our error body', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const app = await createApp(platform, {
      name: 'Gone Activity',
      url_mappings: [{ prefix: '/', target: `127.0.0.1:${port}` }],
    });
    for (const path of ['/x', '/.proxy/x']) {
      const response = await request(`${base(app.id)}${path}`);
      expect(response.status).toBe(502);
      expect(response.body).toEqual({ code: 0, message: '502: The URL mapping target did not answer' });
    }
  });

  it('a target that breaks off mid-answer gives a broken answer, never a short one that looks whole', async () => {
    const breaking = http.createServer((_req, res) => {
      res.writeHead(200, { 'Content-Length': '1000' });
      res.write(Buffer.alloc(10));
      setImmediate(() => res.destroy());
    });
    await new Promise<void>((resolve) => breaking.listen(0, '127.0.0.1', resolve));
    const app = await createApp(platform, {
      name: 'Breaking Activity',
      url_mappings: [{ prefix: '/', target: `127.0.0.1:${(breaking.address() as AddressInfo).port}` }],
    });
    await expect(rawRequest(`${base(app.id)}/x`)).rejects.toThrow();
    await new Promise<void>((resolve) => breaking.close(() => resolve()));
  });

  it('a . or .. segment (also percent-encoded) is refused with 400 and reaches no target', async () => {
    const before = upstream.seen.length;
    for (const path of ['/api/../secret', '/api/./x', '/.proxy/api/%2e%2e/secret', '/api/%2E/x']) {
      const response = await rawRequest(`${base()}${path}`);
      expect(response.status, path).toBe(400);
      expect(JSON.parse(response.body.toString()).code).toBe(0);
    }
    expect(upstream.seen.length).toBe(before);
  });

  it('an unknown application id is 404 Unknown Application', async () => {
    for (const id of ['1', '99999999999999999', 'abc']) {
      const response = await request(`${base(id)}/x`);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ code: 10002, message: 'Unknown Application' });
    }
  });
});
