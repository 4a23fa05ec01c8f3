/**
 * The stricter proxy policy of applications created after application id 1263102905548800000 (PROTOCOL.md §18.3),
 * one application on each side of the threshold, and the rules of URL mappings as set through the development
 * route and the config (§18.2): bad input is a field error and changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATH_FORM_SANDBOX } from '../../src/activities/proxy.js';
import type { RunningPlatform } from '../../src/index.js';
import { request } from '../support/http.js';
import { createApp, startTestPlatform } from '../support/platform.js';
import { headerValues, rawRequest, startUpstream, type Upstream } from './upstream.js';

const THRESHOLD = '1263102905548800000';
const JUST_AFTER = '1263102905548800001';

let platform: RunningPlatform;
let upstream: Upstream;

const mappingsRoute = (id: string) => `${platform.apiBase}/dev/applications/${id}/url-mappings`;

beforeAll(async () => {
  upstream = await startUpstream();
  const url_mappings = [{ prefix: '/', target: upstream.host }];
  platform = await startTestPlatform({
    config: {
      applications: [
        { id: THRESHOLD, name: 'Threshold Activity', url_mappings },
        { id: JUST_AFTER, name: 'Newer Activity', url_mappings },
      ],
    },
  });
});
afterAll(async () => {
  await platform.close();
  await upstream.close();
});

describe('the stricter proxy policy (PROTOCOL.md §18.3)', () => {
  it('an application with id 1263102905548800000 (not after the threshold) gets no CSP of the policy from the proxy', async () => {
    const host = `${THRESHOLD}.activities.localhost:${new URL(platform.httpUrl).port}`;
    for (const path of ['/page', '/.proxy/page']) {
      const hostForm = await rawRequest(`${platform.httpUrl}${path}`, { headers: { host } });
      expect(hostForm.status).toBe(200);
      expect(headerValues(hostForm.rawHeaders, 'content-security-policy')).toEqual([]);
      // The path form (OURS, under the platform's origin) is sandboxed whatever the policy (§18.2).
      const pathForm = await rawRequest(`${platform.httpUrl}/activities/${THRESHOLD}${path}`);
      expect(pathForm.status).toBe(200);
      expect(headerValues(pathForm.rawHeaders, 'content-security-policy')).toEqual([PATH_FORM_SANDBOX]);
    }
  });

  it('an application with id 1263102905548800001 gets a CSP limiting its pages to its own proxy, in both forms', async () => {
    const proxyBase = `${platform.httpUrl}/activities/${JUST_AFTER}`;
    const plain = await rawRequest(`${proxyBase}/page`);
    const prefixed = await rawRequest(`${proxyBase}/.proxy/page`);
    expect(plain.rawHeaders).toEqual(prefixed.rawHeaders);
    const [policy] = headerValues(plain.rawHeaders, 'content-security-policy');
    expect(policy).toBe(
      `default-src ${proxyBase}/ data: blob:; script-src ${proxyBase}/ 'unsafe-inline' 'unsafe-eval'; ` +
        `style-src ${proxyBase}/ 'unsafe-inline'; ` +
        `connect-src ${proxyBase}/; form-action ${proxyBase}/; base-uri ${proxyBase}/`,
    );
    // The target's own answer is untouched otherwise.
    expect(JSON.parse(plain.body.toString()).url).toBe('/page');
  });

  it('an application created now (its id is a current snowflake) has the stricter policy', async () => {
    const app = await createApp(platform, {
      name: 'Fresh Activity',
      url_mappings: [{ prefix: '/', target: upstream.host }],
    });
    expect(BigInt(app.id) > BigInt(THRESHOLD)).toBe(true);
    const response = await rawRequest(`${platform.httpUrl}/activities/${app.id}/x`);
    const policies = headerValues(response.rawHeaders, 'content-security-policy');
    expect(policies).toHaveLength(2);
    expect(policies[0]).toMatch(/^default-src /);
    expect(policies[1]).toBe(PATH_FORM_SANDBOX);
  });
});

describe('URL mappings: the development route and the config (PROTOCOL.md §18.2)', () => {
  it('PUT replaces the list in order and GET reads it back', async () => {
    const app = await createApp(platform, { name: 'Mapped Activity' });
    const mappings = [
      { prefix: '/api', target: 'api.example.com/v2' },
      { prefix: '/img/{size}', target: 'images.example.com:8443/{size}' },
      { prefix: '/', target: 'www.example.com' },
    ];
    const put = await request(mappingsRoute(app.id), { method: 'PUT', json: { url_mappings: mappings } });
    expect(put.status, put.text).toBe(200);
    expect(put.body).toEqual({ url_mappings: mappings });
    expect((await request(mappingsRoute(app.id))).body).toEqual({ url_mappings: mappings });
    expect((await request(mappingsRoute(app.id), { method: 'PUT', json: { url_mappings: [] } })).body).toEqual({
      url_mappings: [],
    });
  });

  it('refuses bad mappings with field errors at their place and keeps the stored list', async () => {
    const app = await createApp(platform, {
      name: 'Strict Mapper',
      url_mappings: [{ prefix: '/keep', target: 'keep.example.com' }],
    });
    const cases: Array<[unknown, string[], string]> = [
      [{}, ['url_mappings'], 'BASE_TYPE_REQUIRED'],
      [
        { url_mappings: [{ prefix: 'api', target: 'a.example.com' }] },
        ['url_mappings', '0', 'prefix'],
        'URL_MAPPING_PREFIX_INVALID',
      ],
      [
        { url_mappings: [{ prefix: '/api/', target: 'a.example.com' }] },
        ['url_mappings', '0', 'prefix'],
        'URL_MAPPING_PREFIX_INVALID',
      ],
      [
        { url_mappings: [{ prefix: '/a//b', target: 'a.example.com' }] },
        ['url_mappings', '0', 'prefix'],
        'URL_MAPPING_PREFIX_INVALID',
      ],
      [
        { url_mappings: [{ prefix: '/a/../b', target: 'a.example.com' }] },
        ['url_mappings', '0', 'prefix'],
        'URL_MAPPING_PREFIX_INVALID',
      ],
      [
        { url_mappings: [{ prefix: '/a?x=1', target: 'a.example.com' }] },
        ['url_mappings', '0', 'prefix'],
        'URL_MAPPING_PREFIX_INVALID',
      ],
      [
        { url_mappings: [{ prefix: '/.proxy/api', target: 'a.example.com' }] },
        ['url_mappings', '0', 'prefix'],
        'URL_MAPPING_PREFIX_INVALID',
      ],
      [
        { url_mappings: [{ prefix: '/a{b}', target: 'a.example.com' }] },
        ['url_mappings', '0', 'prefix'],
        'URL_MAPPING_PREFIX_INVALID',
      ],
      [
        { url_mappings: [{ prefix: '/{a}/{a}', target: 'a.example.com' }] },
        ['url_mappings', '0', 'prefix'],
        'URL_MAPPING_PREFIX_INVALID',
      ],
      [
        { url_mappings: [{ prefix: `/${'a'.repeat(256)}`, target: 'a.example.com' }] },
        ['url_mappings', '0', 'prefix'],
        'BASE_TYPE_MAX_LENGTH',
      ],
      [
        { url_mappings: [{ prefix: '/api', target: 'https://a.example.com' }] },
        ['url_mappings', '0', 'target'],
        'URL_MAPPING_TARGET_INVALID',
      ],
      [
        { url_mappings: [{ prefix: '/api', target: 'a.example.com/x?y=1' }] },
        ['url_mappings', '0', 'target'],
        'URL_MAPPING_TARGET_INVALID',
      ],
      [
        { url_mappings: [{ prefix: '/api', target: 'user:pw@a.example.com' }] },
        ['url_mappings', '0', 'target'],
        'URL_MAPPING_TARGET_INVALID',
      ],
      [
        { url_mappings: [{ prefix: '/api', target: 'a_b!.example.com' }] },
        ['url_mappings', '0', 'target'],
        'URL_MAPPING_TARGET_INVALID',
      ],
      [
        { url_mappings: [{ prefix: '/api', target: '/only/a/path' }] },
        ['url_mappings', '0', 'target'],
        'URL_MAPPING_TARGET_INVALID',
      ],
      [{ url_mappings: [{ prefix: '/api', target: '' }] }, ['url_mappings', '0', 'target'], 'BASE_TYPE_MIN_LENGTH'],
      [
        { url_mappings: [{ prefix: '/api/{v}', target: '{w}.example.com' }] },
        ['url_mappings', '0', 'target'],
        'URL_MAPPING_TARGET_INVALID',
      ],
      [
        {
          url_mappings: [
            { prefix: '/api', target: 'a.example.com' },
            { prefix: '/api', target: 'b.example.com' },
          ],
        },
        ['url_mappings', '1', 'prefix'],
        'URL_MAPPING_PREFIX_DUPLICATE',
      ],
      [
        { url_mappings: Array.from({ length: 51 }, (_, i) => ({ prefix: `/p${i}`, target: 'a.example.com' })) },
        ['url_mappings'],
        'BASE_TYPE_MAX_LENGTH',
      ],
      [
        { url_mappings: [{ prefix: 7, target: 'a.example.com' }] },
        ['url_mappings', '0', 'prefix'],
        'STRING_TYPE_CONVERT',
      ],
    ];
    for (const [json, path, code] of cases) {
      const response = await request(mappingsRoute(app.id), { method: 'PUT', json });
      expect(response.status, JSON.stringify(json).slice(0, 120)).toBe(400);
      expect(response.body.code).toBe(50035);
      let node = response.body.errors;
      for (const key of path) node = node?.[key];
      expect(node?._errors?.[0]?.code, `${JSON.stringify(json).slice(0, 120)} → ${response.text}`).toBe(code);
    }
    expect((await request(mappingsRoute(app.id))).body).toEqual({
      url_mappings: [{ prefix: '/keep', target: 'keep.example.com' }],
    });
  });

  it('an application created with bad URL mappings is refused with the field error at its place in the config', async () => {
    const response = await request(`${platform.apiBase}/dev/applications`, {
      json: {
        name: 'Refused Mapper',
        url_mappings: [
          { prefix: '/ok', target: 'ok.example.com' },
          { prefix: 'bad', target: 'x.example.com' },
        ],
      },
    });
    expect(response.status).toBe(400);
    expect(response.body.errors.url_mappings['1'].prefix._errors[0].code).toBe('URL_MAPPING_PREFIX_INVALID');
    expect(platform.store.applications.findByName('Refused Mapper')).toBeUndefined();
  });

  it('the mapping routes answer 404 Unknown Application for an unknown application', async () => {
    for (const [method, json] of [
      ['GET', undefined],
      ['PUT', { url_mappings: [] }],
    ] as const) {
      const response = await request(mappingsRoute('12345'), { method, ...(json && { json }) });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ code: 10002, message: 'Unknown Application' });
    }
  });
});
