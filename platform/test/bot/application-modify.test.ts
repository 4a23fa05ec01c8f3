/** `PATCH /applications/@me` (PROTOCOL.md §14.1): the limited intent flags and the event webhook URL, over real HTTP. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../helpers/http.js';
import { accessTokenFor } from '../helpers/platform.js';
import { startBotPlatform, type BotFixture } from './fixture.js';
import { botCall } from './helpers.js';

const MESSAGE_CONTENT_LIMITED = 1 << 19;
const PRESENCE_FULL = 1 << 12;

describe('PATCH /applications/@me', () => {
  let f: BotFixture;
  const current = async () => (await botCall(f, 'GET', '/applications/@me')).body as { flags: number; flags_new: string; event_webhooks_url: string | null; event_webhooks_status: number };

  beforeAll(async () => {
    f = await startBotPlatform();
  });
  afterAll(() => f.platform.close());

  it('toggles a _LIMITED privileged-intent flag; the answer and GET show it', async () => {
    const before = await current();
    const flags = before.flags ^ MESSAGE_CONTENT_LIMITED;
    const answer = await botCall(f, 'PATCH', '/applications/@me', { flags });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toMatchObject({ id: f.appId, flags, flags_new: String(flags) });
    expect((await current()).flags).toBe(flags);
    expect((await botCall(f, 'PATCH', '/applications/@me', { flags: before.flags })).body.flags).toBe(before.flags);
  });

  it('sets and clears the event webhook URL', async () => {
    const set = await botCall(f, 'PATCH', '/applications/@me', { event_webhooks_url: 'https://hooks.example/svcpp' });
    expect(set.body).toMatchObject({ event_webhooks_url: 'https://hooks.example/svcpp', event_webhooks_status: 2 });
    expect((await current()).event_webhooks_url).toBe('https://hooks.example/svcpp');
    expect((await botCall(f, 'PATCH', '/applications/@me', { event_webhooks_url: null })).body).toMatchObject({ event_webhooks_url: null, event_webhooks_status: 1 });
  });

  it('refuses other flag bits, a bad URL and the fields not kept here with 50035, changing nothing', async () => {
    const before = await current();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ flags: before.flags ^ PRESENCE_FULL }, 'flags'],
      [{ flags: -1 }, 'flags'],
      [{ flags: 'x' }, 'flags'],
      [{ event_webhooks_url: 'ftp://hooks.example' }, 'event_webhooks_url'],
      [{ event_webhooks_url: 'not a url' }, 'event_webhooks_url'],
    ];
    for (const [body, field] of cases) {
      const answer = await botCall(f, 'PATCH', '/applications/@me', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.code).toBe(50035);
      expect(answer.body.errors[field], JSON.stringify(answer.body)).toBeDefined();
    }
    const description = await botCall(f, 'PATCH', '/applications/@me', { description: 'A bot' });
    expect(description.status).toBe(400);
    expect(description.body.code).toBe(50035);
    expect(await current()).toEqual(before);
  });

  it('needs the bot token: a user token is refused, no token 401', async () => {
    const token = (await accessTokenFor(f.platform, { clientId: f.platform.devApp.id, scope: 'identify', user: 'bob' })).access_token;
    const asUser = await request(`${f.platform.apiBase}/applications/@me`, { method: 'PATCH', headers: { authorization: `Bearer ${token}` }, json: { flags: 0 } });
    expect([401, 403]).toContain(asUser.status);
    expect((await request(`${f.platform.apiBase}/applications/@me`, { method: 'PATCH', json: { flags: 0 } })).status).toBe(401);
  });
});
