/**
 * The bot-route sweep (PROTOCOL.md §14): every guild- and channel-scoped bot route, one table, each row checked for
 * no token (401), another application's bot that is not in the guild (403 50001), a bot in the guild without the
 * route's permission (403 50013, or 50001 where the published rule hides the object) and bad input (malformed ids
 * → the route's 404 code, bad bodies → 50035). Real HTTP against a running platform. Route-specific rules are in
 * the area's own test files; this table makes sure no route lacks the four checks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bot, request } from '../helpers/http.js';
import { createApp } from '../helpers/platform.js';
import { startBotPlatform, type BotFixture } from './fixture.js';

interface Row {
  method: string;
  /** The path for the fixture `f` (ids of its guild, channels and members). */
  path: (f: BotFixture) => string;
  body?: unknown;
  /**
   * Code a bot without the route's permission gets (the weak fixture's role holds VIEW_CHANNEL and SEND_MESSAGES;
   * @everyone the default set); 0 where the route needs nothing the weak bot lacks (membership, VIEW_CHANNEL).
   */
  weak: number;
  /** Bad input: another path or body, and the code it must get. */
  bad: { path?: (f: BotFixture) => string; body?: unknown; code: number };
}

const rows: Row[] = [
  { method: 'GET', path: (f) => `/guilds/${f.guildId}`, weak: 0, bad: { path: () => '/guilds/abc', code: 10004 } },
  { method: 'GET', path: (f) => `/guilds/${f.guildId}/channels`, weak: 0, bad: { path: () => '/guilds/1/channels', code: 10004 } },
  // (An unknown rule id is 10066 for a bot with MANAGE_GUILD: automod.test.ts; here the malformed guild id.)
  { method: 'GET', path: (f) => `/guilds/${f.guildId}/auto-moderation/rules/123`, weak: 50013, bad: { path: () => '/guilds/abc/auto-moderation/rules/123', code: 10004 } },
  { method: 'PATCH', path: (f) => `/guilds/${f.guildId}/auto-moderation/rules/123`, body: { name: 'sweep' }, weak: 50013, bad: { body: { name: 'x'.repeat(101) }, code: 50035 } },
  { method: 'DELETE', path: (f) => `/guilds/${f.guildId}/auto-moderation/rules/123`, weak: 50013, bad: { path: () => '/guilds/abc/auto-moderation/rules/123', code: 10004 } },
  { method: 'GET', path: (f) => `/guilds/${f.guildId}/roles`, weak: 0, bad: { path: () => '/guilds/abc/roles', code: 10004 } },
  { method: 'GET', path: (f) => `/guilds/${f.guildId}/roles/member-counts`, weak: 0, bad: { path: () => '/guilds/1/roles/member-counts', code: 10004 } },
  { method: 'GET', path: (f) => `/guilds/${f.guildId}/roles/${f.guildId}`, weak: 0, bad: { path: (f) => `/guilds/${f.guildId}/roles/123`, code: 10011 } },
  { method: 'POST', path: (f) => `/guilds/${f.guildId}/roles`, body: { name: 'sweep' }, weak: 50013, bad: { body: { name: 'x'.repeat(101) }, code: 50035 } },
  { method: 'PATCH', path: (f) => `/guilds/${f.guildId}/roles/${f.guildId}`, body: { name: 'sweep' }, weak: 50013, bad: { body: { hoist: 'yes' }, code: 50035 } },
  { method: 'DELETE', path: (f) => `/guilds/${f.guildId}/roles/123`, weak: 50013, bad: { path: (f) => `/guilds/${f.guildId}/roles/123`, code: 10011 } },
  { method: 'GET', path: (f) => `/guilds/${f.guildId}/members?limit=10`, weak: 0, bad: { path: (f) => `/guilds/${f.guildId}/members?limit=1001`, code: 50035 } },
  { method: 'GET', path: (f) => `/guilds/${f.guildId}/members/search?query=b`, weak: 0, bad: { path: (f) => `/guilds/${f.guildId}/members/search`, code: 50035 } },
  { method: 'GET', path: (f) => `/guilds/${f.guildId}/members/${f.memberId}`, weak: 0, bad: { path: (f) => `/guilds/${f.guildId}/members/123`, code: 10007 } },
  { method: 'PATCH', path: (f) => `/guilds/${f.guildId}/members/${f.memberId}`, body: { nick: 'sweep' }, weak: 50013, bad: { body: { nick: 'x'.repeat(33) }, code: 50035 } },
  { method: 'DELETE', path: (f) => `/guilds/${f.guildId}/members/${f.ownerId}`, weak: 50013, bad: { path: () => '/guilds/abc/members/1', code: 10004 } },
  // CHANGE_NICKNAME and CREATE_INSTANT_INVITE are in @everyone's default set: the weak bot holds them.
  { method: 'PATCH', path: (f) => `/guilds/${f.guildId}/members/@me`, body: { nick: 'sweep' }, weak: 0, bad: { body: { bio: 'x'.repeat(191) }, code: 50035 } },
  { method: 'PUT', path: (f) => `/guilds/${f.guildId}/members/${f.memberId}/roles/${f.guildId}`, weak: 50013, bad: { path: (f) => `/guilds/${f.guildId}/members/${f.memberId}/roles/123`, code: 10011 } },
  { method: 'DELETE', path: (f) => `/guilds/${f.guildId}/members/${f.memberId}/roles/${f.guildId}`, weak: 50013, bad: { path: (f) => `/guilds/${f.guildId}/members/123/roles/${f.guildId}`, code: 10007 } },
  { method: 'GET', path: (f) => `/guilds/${f.guildId}/prune`, weak: 50013, bad: { path: (f) => `/guilds/${f.guildId}/prune?days=31`, code: 50035 } },
  { method: 'POST', path: (f) => `/guilds/${f.guildId}/prune`, body: { days: 30 }, weak: 50013, bad: { body: { days: 0 }, code: 50035 } },
  { method: 'GET', path: (f) => `/guilds/${f.guildId}/audit-logs`, weak: 50013, bad: { path: (f) => `/guilds/${f.guildId}/audit-logs?limit=101`, code: 50035 } },
  { method: 'GET', path: (f) => `/guilds/${f.guildId}/messages/search?content=x`, weak: 0, bad: { path: (f) => `/guilds/${f.guildId}/messages/search?limit=26`, code: 50035 } },
  { method: 'POST', path: (f) => `/guilds/${f.guildId}/channels`, body: { name: 'sweep' }, weak: 50013, bad: { body: { name: '' }, code: 50035 } },
  { method: 'GET', path: (f) => `/guilds/${f.guildId}/auto-moderation/rules`, weak: 50013, bad: { path: () => '/guilds/abc/auto-moderation/rules', code: 10004 } },
  { method: 'POST', path: (f) => `/guilds/${f.guildId}/auto-moderation/rules`, body: { name: 'r', event_type: 1, trigger_type: 1, actions: [{ type: 1 }] }, weak: 50013, bad: { body: { name: 'r' }, code: 50035 } },
  { method: 'GET', path: (f) => `/channels/${f.generalId}`, weak: 0, bad: { path: () => '/channels/abc', code: 10003 } },
  { method: 'PATCH', path: (f) => `/channels/${f.generalId}`, body: { topic: 'sweep' }, weak: 50013, bad: { body: { topic: 'x'.repeat(1025) }, code: 50035 } },
  { method: 'DELETE', path: (f) => `/channels/${f.generalId}`, weak: 50013, bad: { path: () => '/channels/123', code: 10003 } },
  { method: 'PUT', path: (f) => `/channels/${f.generalId}/permissions/${f.memberId}`, body: { type: 1 }, weak: 50013, bad: { body: { type: 7 }, code: 50035 } },
  { method: 'DELETE', path: (f) => `/channels/${f.generalId}/permissions/${f.memberId}`, weak: 50013, bad: { path: () => '/channels/abc/permissions/1', code: 10003 } },
  { method: 'PUT', path: (f) => `/channels/${f.voiceId}/voice-status`, body: { status: 'sweep' }, weak: 50013, bad: { body: { status: 'x'.repeat(501) }, code: 50035 } },
  { method: 'GET', path: (f) => `/channels/${f.generalId}/messages`, weak: 0, bad: { path: (f) => `/channels/${f.generalId}/messages?limit=101`, code: 50035 } },
  { method: 'POST', path: (f) => `/channels/${f.voiceId}/messages`, body: { content: 'sweep' }, weak: 0, bad: { body: { content: 'x'.repeat(2001) }, code: 50035 } },
  { method: 'POST', path: (f) => `/channels/${f.generalId}/messages/bulk-delete`, body: { messages: ['1', '2'] }, weak: 50013, bad: { body: { messages: ['1'] }, code: 50035 } },
  { method: 'GET', path: (f) => `/channels/${f.generalId}/messages/123`, weak: 0, bad: { path: (f) => `/channels/${f.generalId}/messages/123`, code: 10008 } },
  { method: 'PATCH', path: (f) => `/channels/${f.generalId}/messages/123`, body: { content: 'x' }, weak: 0, bad: { body: { content: 'x'.repeat(2001) }, code: 50035 } },
  { method: 'DELETE', path: (f) => `/channels/${f.generalId}/messages/123`, weak: 0, bad: { path: (f) => `/channels/${f.generalId}/messages/123`, code: 10008 } },
  { method: 'GET', path: (f) => `/channels/${f.generalId}/messages/pins`, weak: 0, bad: { path: (f) => `/channels/${f.generalId}/messages/pins?limit=51`, code: 50035 } },
  { method: 'PUT', path: (f) => `/channels/${f.generalId}/messages/pins/123`, weak: 50013, bad: { path: (f) => `/channels/${f.generalId}/messages/pins/123`, code: 10008 } },
  { method: 'DELETE', path: (f) => `/channels/${f.generalId}/messages/pins/123`, weak: 50013, bad: { path: (f) => `/channels/${f.generalId}/messages/pins/123`, code: 10008 } },
  { method: 'GET', path: (f) => `/channels/${f.generalId}/pins`, weak: 0, bad: { path: () => '/channels/abc/pins', code: 10003 } },
  { method: 'PUT', path: (f) => `/channels/${f.generalId}/pins/123`, weak: 50013, bad: { path: (f) => `/channels/${f.generalId}/pins/123`, code: 10008 } },
  { method: 'DELETE', path: (f) => `/channels/${f.generalId}/pins/123`, weak: 50013, bad: { path: (f) => `/channels/${f.generalId}/pins/123`, code: 10008 } },
  { method: 'POST', path: (f) => `/channels/${f.generalId}/invites`, body: {}, weak: 0, bad: { body: { max_age: 604801 }, code: 50035 } },
  { method: 'GET', path: (f) => `/channels/${f.generalId}/invites`, weak: 50013, bad: { path: () => '/channels/abc/invites', code: 10003 } },
  // Application emoji: another application's bot gets 50001 (they belong to the application, not a guild).
  { method: 'GET', path: (f) => `/applications/${f.appId}/emojis`, weak: 0, bad: { path: (f) => `/applications/${f.appId}/emojis/123`, code: 10014 } },
  { method: 'POST', path: (f) => `/applications/${f.appId}/emojis`, body: { name: 'sweep', image: 'data:image/png;base64,AAAA' }, weak: 0, bad: { body: { name: 'a', image: 'x' }, code: 50035 } },
  { method: 'PATCH', path: (f) => `/applications/${f.appId}/emojis/123`, body: { name: 'sweep' }, weak: 0, bad: { body: { name: 'no spaces allowed' }, code: 50035 } },
  { method: 'DELETE', path: (f) => `/applications/${f.appId}/emojis/123`, weak: 0, bad: { path: (f) => `/applications/${f.appId}/emojis/123`, code: 10014 } },
  // Activities (PROTOCOL.md §18): instances belong to the application; an unknown one is the published bare 404 (code 0).
  { method: 'GET', path: (f) => `/applications/${f.appId}/activity-instances/i-1-gc-1-1`, weak: 0, bad: { path: (f) => `/applications/${f.appId}/activity-instances/nope`, code: 0 } },
];

const key = (row: Row) => `${row.method} ${row.path({ guildId: ':g', generalId: ':text', voiceId: ':voice', memberId: ':m', ownerId: ':owner', appId: ':app' } as BotFixture)}`;

describe('every guild and channel bot route: no token, another application, missing permission, bad input', () => {
  let f: BotFixture;
  let weak: BotFixture;
  let strangerToken: string;
  const call = (fixture: BotFixture, token: string | null, method: string, path: string, json?: unknown) =>
    request(`${fixture.platform.apiBase}${path}`, { method, headers: token ? bot(token) : {}, ...(json !== undefined && { json }) });

  beforeAll(async () => {
    f = await startBotPlatform();
    // VIEW_CHANNEL and SEND_MESSAGES only.
    weak = await startBotPlatform({ botPermissions: ((1n << 10n) | (1n << 11n)).toString(), guildMembers: true, messageContent: true });
    strangerToken = (await createApp(f.platform, { name: 'Stranger' })).bot_token;
  });
  afterAll(async () => {
    await f.platform.close();
    await weak.platform.close();
  });

  it.each(rows.map((row) => [key(row), row] as const))('%s', async (_name, row) => {
    const path = row.path(f);
    expect((await call(f, null, row.method, path, row.body)).status, 'no token').toBe(401);
    const stranger = await call(f, strangerToken, row.method, path, row.body);
    expect(stranger.status, `another application's bot: ${stranger.text}`).toBe(403);
    expect(stranger.body.code).toBe(50001);
    if (row.weak !== 0) {
      const answer = await call(weak, weak.botToken, row.method, row.path(weak), row.body);
      expect(answer.body.code, `missing permission: ${answer.text}`).toBe(row.weak);
    }
    const bad = await call(f, f.botToken, row.method, (row.bad.path ?? row.path)(f), row.bad.body ?? row.body);
    expect(bad.body.code, `bad input: ${bad.text}`).toBe(row.bad.code);
  });
});
