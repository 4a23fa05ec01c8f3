/**
 * The generated part of the bad-input tests (fast-check): mutated requests over every route the server registered
 * — path parameters, query strings, credentials, headers, content types and bodies (wrong types, deep and huge JSON,
 * broken JSON, unpaired surrogates). Whatever is sent, no answer is a 5xx, every error is one of our bodies, and no
 * answer repeats more than a bounded part of what was sent.
 */
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteEntry, RunningPlatform } from '../../src/index.js';
import { isOurErrorBody, request } from '../support/http.js';
import { startTestPlatform } from '../support/platform.js';
import { fullUser } from '../support/social.js';

/**
 * Modest by default: CI runs this on 2 cores (SVCPP_FUZZ_RUNS raises it for a longer local search). fast-check prints
 * the seed and the shrunk request of a failure, so it can be replayed.
 */
const RUNS = Number(process.env.SVCPP_FUZZ_RUNS ?? 400);

/**
 * A value no schema accepts whole (longer than every string limit), so any answer containing a long piece of it
 * repeated the request. Lower-case letters and digits only: it survives URL and JSON encoding unchanged.
 */
const POISON = randomBytes(3_000).toString('hex').slice(0, 5_000);
/** An answer may name a request key by 128 characters (PROTOCOL §2); any piece this long means more was repeated. */
const ECHO_PIECE = 160;

/** Field names of the platform's request bodies: mutations hit real fields, not only unknown keys. */
const FIELDS = [
  'secret',
  'content',
  'metadata',
  'lobby_metadata',
  'member_metadata',
  'members',
  'id',
  'flags',
  'additional_name',
  'remove_member',
  'idle_timeout_seconds',
  'override_event_webhooks_url',
  'channel_id',
  'external_user_id',
  'preferred_global_name',
  'provisional_user_id',
  'client_id',
  'client_secret',
  'external_auth_type',
  'external_auth_token',
  'parent_access_token',
  'child_application_id',
  'global_name',
  'username',
  'type',
  'game',
  'status',
  'activity',
  'user_ids',
  't',
  'd',
  'count',
  'duration_seconds',
  'spammer',
  'name',
  'redirect_uris',
  'grant_type',
  'code',
  'scope',
  'state',
  'x',
];

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=utf-16',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  ';;;',
  'application/',
  '*/*',
];

const asciiText = (maxLength: number) => fc.string({ unit: 'grapheme-ascii', maxLength });

/** Values for a field: right and wrong types, limits and just past them, the poison, and non-text. */
const fieldValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(POISON),
  fc.constant([POISON, POISON]),
  fc.constant({ [POISON]: POISON }),
  fc.constant(Array.from({ length: 3_000 }, (_, i) => i)),
  fc.constantFrom('1', '@me', '0', '99999999999999999999', '-1', '1.5', ''),
  fc.jsonValue({ maxDepth: 3 }),
);

/** Request bodies, as the raw text sent. */
const body: fc.Arbitrary<string | undefined> = fc.oneof(
  fc.constant(undefined),
  fc.dictionary(fc.constantFrom(...FIELDS), fieldValue, { maxKeys: 6 }).map((value) => JSON.stringify(value)),
  fc
    .array(fc.dictionary(fc.constantFrom(...FIELDS), fieldValue, { maxKeys: 4 }), { maxLength: 30 })
    .map((value) => JSON.stringify(value)),
  fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)),
  fc
    .integer({ min: 60, max: 100_000 })
    .map((depth) => `{"${FIELDS[depth % FIELDS.length]}":${'['.repeat(depth)}${']'.repeat(depth)}}`),
  fc.constantFrom('{"content":"\\ud800"}', '{"\\udfff":1}', '[{"id":"1","additional_name":"\\ud83d"}]', '"\\udc00"'),
  asciiText(60),
  fc.constantFrom('', '{', '{"a":', 'null', '[]', '{}', '\u0000', '{"__proto__":{"x":1}}', `"${POISON}"`),
);

/** One path parameter: plausible ids, long ones, odd characters, broken percent-encoding. */
const paramValue: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('1', '@me', '0', '99999999999999999999', 'bulk', '..', '%2F'),
  fc.bigInt({ min: 0n, max: 2n ** 64n }).map(String),
  fc.string({ maxLength: 30 }).map(encodeURIComponent),
  fc.integer({ min: 900, max: 3_000 }).map((length) => POISON.slice(0, length)),
  fc.constantFrom('%', '%Z', '%zz', '%E0%A4%A', '%ED%A0%80', '%C0%AF', '%00', '%FF'),
);

const query: fc.Arbitrary<string> = fc.oneof(
  fc.constant(''),
  fc
    .dictionary(
      fc.constantFrom('limit', 'before', 'game', 'action', 'client_id', 'scope', 'user_code', 'x'),
      fc.oneof(asciiText(20), fc.constant(POISON)),
      { maxKeys: 3 },
    )
    .map((entries) => `?${new URLSearchParams(entries as Record<string, string>).toString()}`),
  fc.constantFrom('?limit=%ZZ', '?limit=1&limit=2', '?%ED%A0%80=1', '?a[b][c]=1'),
);

/** Headers a client may add, with odd values (Node's client refuses control characters, so these are printable). */
const extraHeaders: fc.Arbitrary<Record<string, string>> = fc.dictionary(
  fc.constantFrom(
    'accept',
    'accept-encoding',
    'content-encoding',
    'expect',
    'range',
    'if-none-match',
    'x-http-method-override',
    'accept-version',
    'cookie',
    'host',
    'origin',
    'x-svcpp-dev-token',
  ),
  fc.oneof(
    asciiText(40),
    fc.constantFrom(
      '100-continue',
      'gzip',
      'application/json',
      'bytes=0-1',
      '*/*',
      'null',
      'http://localhost:1',
      'https://attacker.example',
      '[::1]',
      POISON,
    ),
  ),
  { maxKeys: 3 },
);

interface Credentials {
  bot: string;
  bearer: string;
}

const authorization = (credentials: Credentials): fc.Arbitrary<string | undefined> =>
  fc.oneof(
    fc.constant(undefined),
    fc.constant(`Bot ${credentials.bot}`),
    fc.constant(`Bearer ${credentials.bearer}`),
    fc.constantFrom('Bot', 'Bearer ', 'Basic Og==', `Bearer ${POISON}`, 'Token x'),
    asciiText(40),
  );

/** The browser pages answer their own errors as HTML (PROTOCOL §3). */
const HTML_PAGES = new Set(['/oauth2/authorize', '/activate']);
/** …and so do the developer portal's pages (PROTOCOL.md §15). */
const isHtmlPage = (url: string) => HTML_PAGES.has(url) || url === '/developers' || url.startsWith('/developers/');

function longestEcho(text: string): boolean {
  for (let i = 0; i + ECHO_PIECE <= POISON.length; i += ECHO_PIECE)
    if (text.includes(POISON.slice(i, i + ECHO_PIECE))) return true;
  return false;
}

describe('bad input (generated)', () => {
  let platform: RunningPlatform;
  let credentials: Credentials;
  let routes: RouteEntry[];
  beforeAll(async () => {
    platform = await startTestPlatform();
    credentials = { bot: platform.devApp.botToken, bearer: (await fullUser(platform)).token };
    routes = [...platform.routes];
  });
  afterAll(() => platform.close());

  it('no mutated request to any route gets a 5xx, a foreign error body or its own input back', async () => {
    const sample = fc.record({
      route: fc.constantFrom(...routes),
      params: fc.array(paramValue, { minLength: 4, maxLength: 4 }),
      query,
      authorization: authorization(credentials),
      contentType: fc.option(fc.constantFrom(...CONTENT_TYPES), { nil: undefined }),
      body,
      extraHeaders,
    });
    await fc.assert(
      fc.asyncProperty(sample, async (input) => {
        let index = 0;
        const path = input.route.url.replace(/:\w+/g, () => input.params[index++]!);
        const headers: Record<string, string> = { ...input.extraHeaders };
        if (input.authorization !== undefined) headers.authorization = input.authorization;
        if (input.contentType !== undefined && input.body !== undefined) headers['content-type'] = input.contentType;
        const response = await request(`${platform.httpUrl}${path}${input.query}`, {
          method: input.route.method,
          headers,
          ...(input.body !== undefined && { raw: input.body }),
        });
        const what = `${input.route.method} ${path.slice(0, 120)} → ${response.status} ${response.text.slice(0, 300)}`;
        expect(response.status, what).toBeLessThan(500);
        expect(longestEcho(response.text), what).toBe(false);
        if (response.status >= 400 && input.route.method !== 'HEAD') {
          const html = isHtmlPage(input.route.url) && String(response.headers['content-type']).startsWith('text/html');
          expect(html || isOurErrorBody(response), what).toBe(true);
        }
      }),
      { numRuns: RUNS },
    );
  });
});
