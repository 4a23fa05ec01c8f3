/**
 * The activity proxy never lets a request leave its mapping's path on the target (PROTOCOL.md §18.2): a dot segment
 * in any spelling the URL parser or the target could read as one — `\` for `/` (WHATWG URL does that for http and
 * https), `%5c`/`%5C`/`%2f`, `%2e` for `.`, and the same percent-encoded once more — is refused with 400 in the
 * path form and the host form, and the local target, which records every request, sees none of them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveTarget } from '../../src/activities/url-mappings.js';
import type { RunningPlatform } from '../../src/index.js';
import { createApp, startTestPlatform } from '../support/platform.js';
import { rawRequest, startUpstream, type Upstream } from './upstream.js';

let platform: RunningPlatform;
let upstream: Upstream;
let appId: string;

beforeAll(async () => {
  upstream = await startUpstream();
  platform = await startTestPlatform();
  appId = (
    await createApp(platform, {
      name: 'Escape Activity',
      url_mappings: [{ prefix: '/api', target: `${upstream.host}/base` }],
    })
  ).id;
});
afterAll(async () => {
  await platform?.close();
  await upstream?.close();
});

/** One raw request target, sent as is (no client-side URL normalisation), in the path form or the host form. */
function send(form: 'path' | 'host', path: string) {
  if (form === 'path') return rawRequest(`${platform.httpUrl}/activities/${appId}${path}`);
  return rawRequest(`${platform.httpUrl}${path}`, {
    headers: { host: `${appId}.activities.localhost:${new URL(platform.httpUrl).port}` },
  });
}

const ESCAPES = [
  '/api/..\\..\\secret',
  '/api/..\\secret',
  '/api\\..\\secret',
  '/api/x\\..\\..\\..\\secret',
  '/api/..%5c..%5csecret',
  '/api/..%5C..%5Csecret',
  '/api/..%5c..\\secret',
  '/api/..\\../secret',
  '/api/.%2e\\.%2E\\secret',
  '/api/%2e%2e%5csecret',
  '/api/%2E%2E/secret',
  '/api/..%2f..%2fsecret',
  '/api/%252e%252e/secret',
  '/api/..%255c..%255csecret',
  '/api/%252e%252e%252fsecret',
  '/.proxy/api/..\\..\\secret',
  '/.proxy/api/..%5C..%5Csecret',
];

describe('activity proxy: no path escapes through backslashes or encodings', () => {
  for (const form of ['path', 'host'] as const) {
    it(`every spelling of a dot segment is refused with 400 and reaches no target (${form} form)`, async () => {
      const before = upstream.seen.length;
      for (const path of ESCAPES) {
        const response = await send(form, path);
        expect(response.status, path).toBe(400);
        expect(JSON.parse(response.body.toString()), path).toEqual({ code: 0, message: '400: Bad Request' });
      }
      expect(upstream.seen.slice(before)).toEqual([]);
    });

    it(`paths with backslashes, encoded separators or dots that are no dot segment still reach the mapping (${form} form)`, async () => {
      const before = upstream.seen.length;
      const kept = ['/api/a%5Cb', '/api/a\\b', '/api/v1.2/x', '/api/..x', '/api/...', '/api/%2e%2ex'];
      for (const path of kept) {
        const response = await send(form, path);
        expect(response.status, path).toBe(200);
      }
      // What the target was asked for stays under the mapping's base path (`\` read as `/`, as the URL parser does).
      expect(upstream.seen.slice(before).map((seen) => seen.url)).toEqual([
        '/base/a%5Cb',
        '/base/a/b',
        '/base/v1.2/x',
        '/base/..x',
        '/base/...',
        '/base/%2e%2ex',
      ]);
    });
  }
});

describe('activity proxy: the URL finally requested stays under the target path (second line)', () => {
  it('resolveTarget reports an escape the URL parser would make, whatever hasDotSegment said', () => {
    const mappings = [{ prefix: '/api', target: '127.0.0.1:9/base' }];
    expect(resolveTarget(mappings, '/api/..\\..\\secret', '')).toBe('escapes');
    expect(resolveTarget(mappings, '/api/%2e%2e/secret', '')).toBe('escapes');
    const kept = resolveTarget(mappings, '/api/a\\b', '?q=1');
    expect(kept !== 'escapes' && kept?.url.toString()).toBe('http://127.0.0.1:9/base/a/b?q=1');
  });
});
