/**
 * The bot-route sweep (PROTOCOL.md §14): every guild- and channel-scoped bot route, one table, each row checked for
 * no token (401), another application's bot that is not in the guild (403 50001), a bot in the guild without the
 * route's permission (403 50013, or 50001 where the published rule hides the object) and bad input (malformed ids
 * → the route's 404 code, bad bodies → 50035). Routes that set permission bits (roles, @everyone, overwrites, role
 * grants, invites' roles, command permissions) add to the missing-permission column a caller that holds the route's
 * permission but sets bits it does not hold (403 50013, nothing changed; PROTOCOL.md §14.2). Real HTTP against a
 * running platform. Route-specific rules are in the area's own test files; this table makes sure no route lacks the
 * checks. A second table does the same for the routes not reached through a guild: `/applications/@me`, the
 * partner-sdk bot routes, command permissions, invites by code and the upload (multipart) forms.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bot, request } from '../support/http.js';
import { accessTokenFor, createApp } from '../support/platform.js';
import { api, befriend, fullUser } from '../support/social.js';
import { startBotPlatform, type BotFixture } from './fixture.js';
import { multipart } from './helpers.js';

/** 👍 as a library puts it in the path. */
const THUMBS_UP = encodeURIComponent('👍');

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
  /**
   * Routes that set permission bits: the same route called by the fixture's bot — which holds MANAGE_ROLES and
   * MANAGE_CHANNELS, not ADMINISTRATOR nor KICK_MEMBERS — setting bits it does not hold (another path or body).
   */
  grant?: Array<(f: BotFixture) => { path?: string; body?: unknown }>;
}

const ADMINISTRATOR = (1n << 3n).toString();
const KICK_MEMBERS = (1n << 1n).toString();
/** Roles of the fixture below the bot's own: one carrying ADMINISTRATOR, one carrying nothing. */
const LOWER_ROLES = [
  { name: 'Lower Admin', permissions: ADMINISTRATOR },
  { name: 'Plain', permissions: '0' },
];
const roleNamed = (f: BotFixture, name: string) =>
  f.platform.store.botGuilds.listRoles(f.guildId).find((role) => role.name === name)!.id;
/** The fixture's owner overwrite in #general: it denies KICK_MEMBERS, which the bot does not hold. */
const ownerOverwrite = (f: BotFixture) => ({ id: f.ownerId, type: 1 as const, allow: '0', deny: KICK_MEMBERS });

const rows: Row[] = [
  { method: 'GET', path: (f) => `/guilds/${f.guildId}`, weak: 0, bad: { path: () => '/guilds/abc', code: 10004 } },
  {
    method: 'GET',
    path: (f) => `/guilds/${f.guildId}/channels`,
    weak: 0,
    bad: { path: () => '/guilds/1/channels', code: 10004 },
  },
  // (An unknown rule id is 10066 for a bot with MANAGE_GUILD: automod.test.ts; here the malformed guild id.)
  {
    method: 'GET',
    path: (f) => `/guilds/${f.guildId}/auto-moderation/rules/123`,
    weak: 50013,
    bad: { path: () => '/guilds/abc/auto-moderation/rules/123', code: 10004 },
  },
  {
    method: 'PATCH',
    path: (f) => `/guilds/${f.guildId}/auto-moderation/rules/123`,
    body: { name: 'sweep' },
    weak: 50013,
    bad: { body: { name: 'x'.repeat(101) }, code: 50035 },
  },
  {
    method: 'DELETE',
    path: (f) => `/guilds/${f.guildId}/auto-moderation/rules/123`,
    weak: 50013,
    bad: { path: () => '/guilds/abc/auto-moderation/rules/123', code: 10004 },
  },
  {
    method: 'GET',
    path: (f) => `/guilds/${f.guildId}/roles`,
    weak: 0,
    bad: { path: () => '/guilds/abc/roles', code: 10004 },
  },
  {
    method: 'GET',
    path: (f) => `/guilds/${f.guildId}/roles/member-counts`,
    weak: 0,
    bad: { path: () => '/guilds/1/roles/member-counts', code: 10004 },
  },
  {
    method: 'GET',
    path: (f) => `/guilds/${f.guildId}/roles/${f.guildId}`,
    weak: 0,
    bad: { path: (f) => `/guilds/${f.guildId}/roles/123`, code: 10011 },
  },
  {
    method: 'POST',
    path: (f) => `/guilds/${f.guildId}/roles`,
    body: { name: 'sweep' },
    weak: 50013,
    bad: { body: { name: 'x'.repeat(101) }, code: 50035 },
    grant: [() => ({ body: { name: 'sweep', permissions: ADMINISTRATOR } })],
  },
  {
    method: 'PATCH',
    path: (f) => `/guilds/${f.guildId}/roles/${f.guildId}`,
    body: { name: 'sweep' },
    weak: 50013,
    bad: { body: { hoist: 'yes' }, code: 50035 },
    // @everyone, and a role below the bot's own.
    grant: [
      () => ({ body: { permissions: (2248473465835073n | 8n).toString() } }),
      (f) => ({ path: `/guilds/${f.guildId}/roles/${roleNamed(f, 'Plain')}`, body: { permissions: ADMINISTRATOR } }),
    ],
  },
  {
    method: 'DELETE',
    path: (f) => `/guilds/${f.guildId}/roles/123`,
    weak: 50013,
    bad: { path: (f) => `/guilds/${f.guildId}/roles/123`, code: 10011 },
  },
  {
    method: 'GET',
    path: (f) => `/guilds/${f.guildId}/members?limit=10`,
    weak: 0,
    bad: { path: (f) => `/guilds/${f.guildId}/members?limit=1001`, code: 50035 },
  },
  {
    method: 'GET',
    path: (f) => `/guilds/${f.guildId}/members/search?query=b`,
    weak: 0,
    bad: { path: (f) => `/guilds/${f.guildId}/members/search`, code: 50035 },
  },
  {
    method: 'GET',
    path: (f) => `/guilds/${f.guildId}/members/${f.memberId}`,
    weak: 0,
    bad: { path: (f) => `/guilds/${f.guildId}/members/123`, code: 10007 },
  },
  {
    method: 'PATCH',
    path: (f) => `/guilds/${f.guildId}/members/${f.memberId}`,
    body: { nick: 'sweep' },
    weak: 50013,
    bad: { body: { nick: 'x'.repeat(33) }, code: 50035 },
    grant: [(f) => ({ body: { roles: [roleNamed(f, 'Lower Admin')] } })],
  },
  {
    method: 'DELETE',
    path: (f) => `/guilds/${f.guildId}/members/${f.ownerId}`,
    weak: 50013,
    bad: { path: () => '/guilds/abc/members/1', code: 10004 },
  },
  // CHANGE_NICKNAME and CREATE_INSTANT_INVITE are in @everyone's default set: the weak bot holds them.
  {
    method: 'PATCH',
    path: (f) => `/guilds/${f.guildId}/members/@me`,
    body: { nick: 'sweep' },
    weak: 0,
    bad: { body: { bio: 'x'.repeat(191) }, code: 50035 },
  },
  {
    method: 'PUT',
    path: (f) => `/guilds/${f.guildId}/members/${f.memberId}/roles/${f.guildId}`,
    weak: 50013,
    bad: { path: (f) => `/guilds/${f.guildId}/members/${f.memberId}/roles/123`, code: 10011 },
    // To another member, and to itself.
    grant: [
      (f) => ({ path: `/guilds/${f.guildId}/members/${f.memberId}/roles/${roleNamed(f, 'Lower Admin')}` }),
      (f) => ({ path: `/guilds/${f.guildId}/members/${f.botUserId}/roles/${roleNamed(f, 'Lower Admin')}` }),
    ],
  },
  {
    method: 'DELETE',
    path: (f) => `/guilds/${f.guildId}/members/${f.memberId}/roles/${f.guildId}`,
    weak: 50013,
    bad: { path: (f) => `/guilds/${f.guildId}/members/123/roles/${f.guildId}`, code: 10007 },
  },
  {
    method: 'GET',
    path: (f) => `/guilds/${f.guildId}/prune`,
    weak: 50013,
    bad: { path: (f) => `/guilds/${f.guildId}/prune?days=31`, code: 50035 },
  },
  {
    method: 'POST',
    path: (f) => `/guilds/${f.guildId}/prune`,
    body: { days: 30 },
    weak: 50013,
    bad: { body: { days: 0 }, code: 50035 },
  },
  {
    method: 'GET',
    path: (f) => `/guilds/${f.guildId}/audit-logs`,
    weak: 50013,
    bad: { path: (f) => `/guilds/${f.guildId}/audit-logs?limit=101`, code: 50035 },
  },
  {
    method: 'GET',
    path: (f) => `/guilds/${f.guildId}/messages/search?content=x`,
    weak: 0,
    bad: { path: (f) => `/guilds/${f.guildId}/messages/search?limit=26`, code: 50035 },
  },
  {
    method: 'POST',
    path: (f) => `/guilds/${f.guildId}/channels`,
    body: { name: 'sweep' },
    weak: 50013,
    bad: { body: { name: '' }, code: 50035 },
    grant: [
      (f) => ({ body: { name: 'sweep', permission_overwrites: [{ id: f.memberId, type: 1, allow: KICK_MEMBERS }] } }),
    ],
  },
  {
    method: 'GET',
    path: (f) => `/guilds/${f.guildId}/auto-moderation/rules`,
    weak: 50013,
    bad: { path: () => '/guilds/abc/auto-moderation/rules', code: 10004 },
  },
  {
    method: 'POST',
    path: (f) => `/guilds/${f.guildId}/auto-moderation/rules`,
    body: { name: 'r', event_type: 1, trigger_type: 1, actions: [{ type: 1 }] },
    weak: 50013,
    bad: { body: { name: 'r' }, code: 50035 },
  },
  {
    method: 'GET',
    path: (f) => `/channels/${f.generalId}`,
    weak: 0,
    bad: { path: () => '/channels/abc', code: 10003 },
  },
  {
    method: 'PATCH',
    path: (f) => `/channels/${f.generalId}`,
    body: { topic: 'sweep' },
    weak: 50013,
    bad: { body: { topic: 'x'.repeat(1025) }, code: 50035 },
    // Allowing a bit it lacks; leaving out (deleting) the owner's overwrite that denies one.
    grant: [
      (f) => ({
        body: { permission_overwrites: [ownerOverwrite(f), { id: f.memberId, type: 1, allow: KICK_MEMBERS }] },
      }),
      () => ({ body: { permission_overwrites: [] } }),
    ],
  },
  {
    method: 'DELETE',
    path: (f) => `/channels/${f.generalId}`,
    weak: 50013,
    bad: { path: () => '/channels/123', code: 10003 },
  },
  {
    method: 'PUT',
    path: (f) => `/channels/${f.generalId}/permissions/${f.memberId}`,
    body: { type: 1 },
    weak: 50013,
    bad: { body: { type: 7 }, code: 50035 },
    grant: [() => ({ body: { type: 1, allow: KICK_MEMBERS } }), () => ({ body: { type: 1, deny: ADMINISTRATOR } })],
  },
  {
    method: 'DELETE',
    path: (f) => `/channels/${f.generalId}/permissions/${f.memberId}`,
    weak: 50013,
    bad: { path: () => '/channels/abc/permissions/1', code: 10003 },
    // Deleting a deny grants what it denied.
    grant: [(f) => ({ path: `/channels/${f.generalId}/permissions/${f.ownerId}` })],
  },
  {
    method: 'PUT',
    path: (f) => `/channels/${f.voiceId}/voice-status`,
    body: { status: 'sweep' },
    weak: 50013,
    bad: { body: { status: 'x'.repeat(501) }, code: 50035 },
  },
  {
    method: 'GET',
    path: (f) => `/channels/${f.generalId}/messages`,
    weak: 0,
    bad: { path: (f) => `/channels/${f.generalId}/messages?limit=101`, code: 50035 },
  },
  {
    method: 'POST',
    path: (f) => `/channels/${f.voiceId}/messages`,
    body: { content: 'sweep' },
    weak: 0,
    bad: { body: { content: 'x'.repeat(2001) }, code: 50035 },
  },
  {
    method: 'POST',
    path: (f) => `/channels/${f.generalId}/messages/bulk-delete`,
    body: { messages: ['1', '2'] },
    weak: 50013,
    bad: { body: { messages: ['1'] }, code: 50035 },
  },
  {
    method: 'GET',
    path: (f) => `/channels/${f.generalId}/messages/123`,
    weak: 0,
    bad: { path: (f) => `/channels/${f.generalId}/messages/123`, code: 10008 },
  },
  {
    method: 'PATCH',
    path: (f) => `/channels/${f.generalId}/messages/123`,
    body: { content: 'x' },
    weak: 0,
    bad: { body: { content: 'x'.repeat(2001) }, code: 50035 },
  },
  {
    method: 'DELETE',
    path: (f) => `/channels/${f.generalId}/messages/123`,
    weak: 0,
    bad: { path: (f) => `/channels/${f.generalId}/messages/123`, code: 10008 },
  },
  {
    method: 'POST',
    path: (f) => `/channels/${f.generalId}/typing`,
    weak: 0,
    bad: { path: () => '/channels/abc/typing', code: 10003 },
  },
  // Reactions: the weak bot holds READ_MESSAGE_HISTORY and ADD_REACTIONS through @everyone, not MANAGE_MESSAGES.
  {
    method: 'PUT',
    path: (f) => `/channels/${f.generalId}/messages/123/reactions/${THUMBS_UP}/@me`,
    weak: 0,
    bad: { path: (f) => `/channels/${f.generalId}/messages/123/reactions/abc/@me`, code: 10014 },
  },
  {
    method: 'DELETE',
    path: (f) => `/channels/${f.generalId}/messages/123/reactions/${THUMBS_UP}/@me`,
    weak: 0,
    bad: { path: (f) => `/channels/${f.generalId}/messages/123/reactions/abc/@me`, code: 10014 },
  },
  {
    method: 'DELETE',
    path: (f) => `/channels/${f.generalId}/messages/123/reactions/${THUMBS_UP}/${f.memberId}`,
    weak: 50013,
    bad: { path: (f) => `/channels/${f.generalId}/messages/123/reactions/${THUMBS_UP}/${f.memberId}`, code: 10008 },
  },
  {
    method: 'GET',
    path: (f) => `/channels/${f.generalId}/messages/123/reactions/${THUMBS_UP}`,
    weak: 0,
    bad: { path: (f) => `/channels/${f.generalId}/messages/123/reactions/${THUMBS_UP}?limit=101`, code: 50035 },
  },
  {
    method: 'DELETE',
    path: (f) => `/channels/${f.generalId}/messages/123/reactions/${THUMBS_UP}`,
    weak: 50013,
    bad: { path: (f) => `/channels/${f.generalId}/messages/123/reactions/${THUMBS_UP}`, code: 10008 },
  },
  {
    method: 'DELETE',
    path: (f) => `/channels/${f.generalId}/messages/123/reactions`,
    weak: 50013,
    bad: { path: (f) => `/channels/${f.generalId}/messages/123/reactions`, code: 10008 },
  },
  {
    method: 'GET',
    path: (f) => `/channels/${f.generalId}/messages/pins`,
    weak: 0,
    bad: { path: (f) => `/channels/${f.generalId}/messages/pins?limit=51`, code: 50035 },
  },
  {
    method: 'PUT',
    path: (f) => `/channels/${f.generalId}/messages/pins/123`,
    weak: 50013,
    bad: { path: (f) => `/channels/${f.generalId}/messages/pins/123`, code: 10008 },
  },
  {
    method: 'DELETE',
    path: (f) => `/channels/${f.generalId}/messages/pins/123`,
    weak: 50013,
    bad: { path: (f) => `/channels/${f.generalId}/messages/pins/123`, code: 10008 },
  },
  {
    method: 'GET',
    path: (f) => `/channels/${f.generalId}/pins`,
    weak: 0,
    bad: { path: () => '/channels/abc/pins', code: 10003 },
  },
  {
    method: 'PUT',
    path: (f) => `/channels/${f.generalId}/pins/123`,
    weak: 50013,
    bad: { path: (f) => `/channels/${f.generalId}/pins/123`, code: 10008 },
  },
  {
    method: 'DELETE',
    path: (f) => `/channels/${f.generalId}/pins/123`,
    weak: 50013,
    bad: { path: (f) => `/channels/${f.generalId}/pins/123`, code: 10008 },
  },
  {
    method: 'POST',
    path: (f) => `/channels/${f.generalId}/invites`,
    body: {},
    weak: 0,
    bad: { body: { max_age: 604801 }, code: 50035 },
    // Whoever joins gets the invite's roles: a grant by the inviter.
    grant: [(f) => ({ body: { role_ids: [roleNamed(f, 'Lower Admin')] } })],
  },
  {
    method: 'GET',
    path: (f) => `/channels/${f.generalId}/invites`,
    weak: 50013,
    bad: { path: () => '/channels/abc/invites', code: 10003 },
  },
  // Voice state reads (PROTOCOL.md §13.8): membership is all they need; nobody is in voice, so a known user is 10065.
  {
    method: 'GET',
    path: (f) => `/guilds/${f.guildId}/voice-states/@me`,
    weak: 0,
    bad: { path: () => '/guilds/abc/voice-states/@me', code: 10004 },
  },
  {
    method: 'GET',
    path: (f) => `/guilds/${f.guildId}/voice-states/${f.memberId}`,
    weak: 0,
    bad: { path: (f) => `/guilds/${f.guildId}/voice-states/abc`, code: 10065 },
  },
  // Application emoji: another application's bot gets 50001 (they belong to the application, not a guild).
  {
    method: 'GET',
    path: (f) => `/applications/${f.appId}/emojis`,
    weak: 0,
    bad: { path: (f) => `/applications/${f.appId}/emojis/123`, code: 10014 },
  },
  {
    method: 'POST',
    path: (f) => `/applications/${f.appId}/emojis`,
    body: { name: 'sweep', image: 'data:image/png;base64,AAAA' },
    weak: 0,
    bad: { body: { name: 'a', image: 'x' }, code: 50035 },
  },
  {
    method: 'PATCH',
    path: (f) => `/applications/${f.appId}/emojis/123`,
    body: { name: 'sweep' },
    weak: 0,
    bad: { body: { name: 'no spaces allowed' }, code: 50035 },
  },
  {
    method: 'DELETE',
    path: (f) => `/applications/${f.appId}/emojis/123`,
    weak: 0,
    bad: { path: (f) => `/applications/${f.appId}/emojis/123`, code: 10014 },
  },
  // Activities (PROTOCOL.md §18): instances belong to the application; an unknown one is the published bare 404 (code
  // 0).
  {
    method: 'GET',
    path: (f) => `/applications/${f.appId}/activity-instances/i-1-gc-1-1`,
    weak: 0,
    bad: { path: (f) => `/applications/${f.appId}/activity-instances/nope`, code: 0 },
  },
];

/** Placeholders for the ids a row's path names: the key is the same whatever fixture the row runs against. */
const PLACEHOLDERS = {
  guildId: ':g',
  generalId: ':text',
  voiceId: ':voice',
  memberId: ':m',
  ownerId: ':owner',
  appId: ':app',
} as BotFixture;
const key = (row: Row) => `${row.method} ${row.path(PLACEHOLDERS)}`;

describe('every guild and channel bot route: no token, another application, missing permission, bad input', () => {
  let f: BotFixture;
  let weak: BotFixture;
  let strangerToken: string;
  const call = (fixture: BotFixture, token: string | null, method: string, path: string, json?: unknown) =>
    request(`${fixture.platform.apiBase}${path}`, {
      method,
      headers: token ? bot(token) : {},
      ...(json !== undefined && { json }),
    });

  beforeAll(async () => {
    f = await startBotPlatform({ lowerRoles: LOWER_ROLES });
    const settings = f.platform.store.botGuilds.channelSettings(f.generalId);
    f.platform.store.botGuilds.setChannelSettings({
      ...settings,
      overwrites: [...settings.overwrites, ownerOverwrite(f)],
    });
    // VIEW_CHANNEL and SEND_MESSAGES only.
    weak = await startBotPlatform({
      botPermissions: ((1n << 10n) | (1n << 11n)).toString(),
      guildMembers: true,
      messageContent: true,
    });
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
    for (const grant of row.grant ?? []) {
      const { path: grantPath = path, body = row.body } = grant(f);
      const before = guildState(f);
      const answer = await call(f, f.botToken, row.method, grantPath, body);
      expect(answer.body.code, `setting bits it does not hold: ${row.method} ${grantPath} ${answer.text}`).toBe(50013);
      expect(guildState(f), 'nothing changed').toEqual(before);
    }
    const bad = await call(f, f.botToken, row.method, (row.bad.path ?? row.path)(f), row.bad.body ?? row.body);
    expect(bad.body.code, `bad input: ${bad.text}`).toBe(row.bad.code);
  });
});

/**
 * What a refused permission write must leave as it was: roles, members, #general's overwrites and invites, channels.
 */
function guildState(f: BotFixture) {
  const store = f.platform.store.botGuilds;
  return {
    roles: store.listRoles(f.guildId),
    members: store.listMembers(f.guildId, null, 1000),
    overwrites: store.channelSettings(f.generalId).overwrites,
    invites: store.listChannelInvites(f.generalId).length,
    channels: f.platform.store.guilds.listChannels(f.guildId).length,
  };
}

// ---- Application, invite, partner-sdk and upload routes (PROTOCOL.md §14.1, §14.7, §14.8, §5, §14.4) ----
// The same four checks for routes that are not reached through a guild id: what "another application" means is
// stated per row (an application's own object has no other application to ask for it: a user's token stands in).

interface Prepared {
  path: string;
  /** A JSON body, or multipart parts (uploads). */
  json?: unknown;
  parts?: Parameters<typeof multipart>[0];
}

interface WiderRow {
  name: string;
  method: string;
  /** The call for a fixture; the token that owns the object is `owner(s)` (the fixture's bot unless stated). */
  prepare: (s: SweepSide) => Promise<Prepared>;
  /** The call for the missing-permission check when it differs from `prepare`. */
  prepareWeak?: (s: SweepSide) => Promise<Prepared>;
  owner?: (s: SweepSide) => string;
  /** Who lacks the route's permission when it is not the owner's token on the weak fixture (a user route: a member). */
  weakCaller?: (s: SweepSide) => string;
  /** Routes that set permissions: a caller holding the route's permission sets what it could not itself (→ 50013). */
  grant?: { caller: (s: SweepSide) => string; prepare: (s: SweepSide) => Promise<Prepared> };
  /** Status without a token (401 unless the route is published without required authentication). */
  noToken?: number;
  /** Who plays "another application" and the code it gets; 0 = answered (200), with the reason in `why`. */
  other: { who: 'stranger-bot' | 'user-token'; code: number; why?: string };
  /** Code of a caller holding the object's application but not the route's permission; 0 = nothing to lack. */
  weak: number;
  /** The owner's answer when it is a refusal of this fixture's state rather than a success. */
  ownerCode?: number;
  /** Bad input and its code; null where the route takes no input at all. */
  bad: ((s: SweepSide, ok: Prepared) => Promise<Prepared>) | null;
  badCode?: number;
}

interface SweepSide {
  f: BotFixture;
  /** An invite of the fixture's guild made by `inviterId`. */
  invite: (inviterId: string) => string;
  /** An invite of the fixture's guild made by its owner (so the fixture's bot is not the inviter). */
  ownersInvite: () => string;
  /** A DM between two new users of the dev application, and its message id. */
  devAppDm: () => Promise<{ a: string; b: string; messageId: string }>;
  /**
   * `Bearer` tokens of the fixture's application with `applications.commands.permissions.update`: the owner (alice)
   * and bob — on the strong fixture a manager of the guild and its roles (not an administrator), on the weak one
   * a plain member.
   */
  bearer: { alice: string; bob: string };
  /** A new global command of the fixture's application (`default_member_permissions` as given). */
  command: (defaultMemberPermissions?: string) => Promise<string>;
}

const COMMAND_PERMISSIONS_SCOPE = 'applications.commands.permissions.update';
const SWEEP_REDIRECT = 'http://127.0.0.1:5555/callback';

const csvFile = (ids: string[]) => ({
  name: 'target_users_file',
  filename: 'users.csv',
  type: 'text/csv',
  body: ids.join('\n') + '\n',
});

const commandPermissionsPath = (s: SweepSide, commandId: string) =>
  `/applications/${s.f.appId}/guilds/${s.f.guildId}/commands/${commandId}/permissions`;

const widerRows: WiderRow[] = [
  {
    name: 'PUT /applications/:app/guilds/:g/commands/:cmd/permissions',
    method: 'PUT',
    prepare: async (s) => ({
      path: commandPermissionsPath(s, await s.command()),
      json: { permissions: [{ id: s.f.guildId, type: 1, permission: true }] },
    }),
    owner: (s) => `Bearer ${s.bearer.alice}`,
    // Bearer tokens only: another application's bot is refused as every bot is (the other application's user token
    // with the scope gets 50001: command-permissions.test.ts).
    other: { who: 'stranger-bot', code: 20001 },
    weakCaller: (s) => `Bearer ${s.bearer.bob}`,
    weak: 50013,
    // Bob manages the guild and its roles but cannot run a command gated on BAN_MEMBERS: he may not open it to anyone.
    grant: {
      caller: (s) => `Bearer ${s.bearer.bob}`,
      prepare: async (s) => ({
        path: commandPermissionsPath(s, await s.command((1n << 2n).toString())),
        json: { permissions: [{ id: s.f.guildId, type: 1, permission: true }] },
      }),
    },
    bad: async (_s, ok) => ({ ...ok, json: { permissions: [{ id: 'abc', type: 1, permission: true }] } }),
    badCode: 50035,
  },
  {
    name: 'GET /applications/@me',
    method: 'GET',
    prepare: async () => ({ path: '/applications/@me' }),
    // The caller's own application is the object: a user's token stands in for "not this application".
    other: { who: 'user-token', code: 20002 },
    weak: 0,
    bad: null,
  },
  {
    name: 'PATCH /applications/@me',
    method: 'PATCH',
    prepare: async () => ({ path: '/applications/@me', json: { description: 'sweep' } }),
    // The caller's own application is the object: a user's token stands in for "not this application".
    other: { who: 'user-token', code: 20002 },
    weak: 0,
    bad: async (_s, ok) => ({ ...ok, json: { tags: ['a', 'b', 'c', 'd', 'e', 'f'] } }),
    badCode: 50035,
  },
  {
    name: 'PUT /partner-sdk/dms/:u1/:u2/messages/:m/moderation-metadata',
    method: 'PUT',
    prepare: async (s) => {
      const dm = await s.devAppDm();
      return {
        path: `/partner-sdk/dms/${dm.a}/${dm.b}/messages/${dm.messageId}/moderation-metadata`,
        json: { verdict: 'clean' },
      };
    },
    owner: (s) => s.f.platform.devApp.botToken,
    // Another application's DM is not visible: the published rule answers Unknown Message.
    other: { who: 'stranger-bot', code: 10008 },
    weak: 0,
    bad: async (_s, ok) => ({ ...ok, json: Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`k${i}`, 'v'])) }),
    badCode: 50035,
  },
  {
    name: 'POST /partner-sdk/token/bot',
    method: 'POST',
    prepare: async (s) => {
      const external_user_id = `sweep-${Math.random().toString(36).slice(2, 10)}`;
      const issued = await request(`${s.f.platform.apiBase}/partner-sdk/token/bot`, {
        method: 'POST',
        headers: bot(s.f.botToken),
        json: { external_user_id },
      });
      expect(issued.status, issued.text).toBe(200);
      const user = await request(`${s.f.platform.apiBase}/users/@me`, {
        headers: { authorization: `Bearer ${issued.body.access_token}` },
      });
      return { path: '/partner-sdk/token/bot', json: { external_user_id, provisional_user_id: user.body.id } };
    },
    // External ids are kept apart per application: another application cannot claim this one's provisional account.
    other: { who: 'stranger-bot', code: 50035 },
    weak: 0,
    bad: async (_s, ok) => ({ ...ok, json: { external_user_id: '' } }),
    badCode: 50035,
  },
  {
    name: 'POST /partner-sdk/provisional-accounts/unmerge/bot',
    method: 'POST',
    prepare: async (s) => {
      const issued = await request(`${s.f.platform.apiBase}/partner-sdk/token/bot`, {
        method: 'POST',
        headers: bot(s.f.botToken),
        json: { external_user_id: 'sweep-unmerge' },
      });
      expect(issued.status, issued.text).toBe(200);
      return { path: '/partner-sdk/provisional-accounts/unmerge/bot', json: { external_user_id: 'sweep-unmerge' } };
    },
    // External ids are kept apart per application: another application does not know this one.
    other: { who: 'stranger-bot', code: 10013 },
    // A still-provisional account has nothing to unmerge (50229); the merged case is in merge-unmerge.test.ts.
    ownerCode: 50229,
    weak: 0,
    bad: async (_s, ok) => ({ ...ok, json: { external_user_id: 'x'.repeat(1025) } }),
    badCode: 50035,
  },
  {
    name: 'GET /invites/:code',
    method: 'GET',
    prepare: async (s) => ({ path: `/invites/${s.ownersInvite()}?with_counts=true` }),
    // Published without required authentication: an invite is meant to be shared.
    noToken: 200,
    other: { who: 'stranger-bot', code: 0, why: 'an invite is meant to be shared: anyone may read it' },
    weak: 0,
    bad: async () => ({ path: '/invites/no-such-code' }),
    badCode: 10006,
  },
  {
    name: 'DELETE /invites/:code',
    method: 'DELETE',
    prepare: async (s) => ({ path: `/invites/${s.ownersInvite()}` }),
    other: { who: 'stranger-bot', code: 50001 },
    weak: 50013,
    bad: async () => ({ path: '/invites/bad!code' }),
    badCode: 10006,
  },
  {
    name: 'GET /invites/:code/target-users',
    method: 'GET',
    prepare: async (s) => ({ path: `/invites/${s.ownersInvite()}/target-users` }),
    other: { who: 'stranger-bot', code: 50001 },
    weak: 50013,
    bad: async () => ({ path: '/invites/no-such-code/target-users' }),
    badCode: 10006,
  },
  {
    name: 'PUT /invites/:code/target-users (multipart)',
    method: 'PUT',
    // The bot replaces the list of its own invite; on the owner's invite it lacks MANAGE_GUILD.
    prepare: async (s) => ({
      path: `/invites/${s.invite(s.f.botUserId)}/target-users`,
      parts: [csvFile([s.f.memberId])],
    }),
    prepareWeak: async (s) => ({ path: `/invites/${s.ownersInvite()}/target-users`, parts: [csvFile([s.f.memberId])] }),
    other: { who: 'stranger-bot', code: 50001 },
    weak: 50013,
    bad: async (_s, ok) => ({ ...ok, parts: [csvFile(['not-an-id'])] }),
    badCode: 50035,
  },
  {
    name: 'GET /invites/:code/target-users/job-status',
    method: 'GET',
    prepare: async (s) => ({ path: `/invites/${s.ownersInvite()}/target-users/job-status` }),
    other: { who: 'stranger-bot', code: 50001 },
    weak: 50013,
    bad: async () => ({ path: '/invites/no-such-code/target-users/job-status' }),
    badCode: 10006,
  },
  {
    name: 'POST /channels/:id/invites (multipart target_users_file)',
    method: 'POST',
    prepare: async (s) => ({
      path: `/channels/${s.f.generalId}/invites`,
      parts: [{ name: 'payload_json', body: '{}' }, csvFile([s.f.memberId])],
    }),
    other: { who: 'stranger-bot', code: 50001 },
    // CREATE_INSTANT_INVITE is in @everyone's default set.
    weak: 0,
    bad: async (s, ok) => ({ ...ok, parts: [{ name: 'payload_json', body: '{}' }, csvFile([s.f.memberId, 'x1'])] }),
    badCode: 50035,
  },
  {
    name: 'POST /channels/:id/messages (multipart files)',
    method: 'POST',
    prepare: async (s) => ({
      path: `/channels/${s.f.generalId}/messages`,
      parts: [
        {
          name: 'payload_json',
          body: JSON.stringify({ content: 'upload', attachments: [{ id: 0, description: 'a file' }] }),
        },
        { name: 'files[0]', filename: 'a.txt', type: 'text/plain', body: 'hello' },
      ],
    }),
    other: { who: 'stranger-bot', code: 50001 },
    // The weak bot's channel overwrite denies ATTACH_FILES.
    weak: 50013,
    bad: async (_s, ok) => ({
      ...ok,
      parts: [
        ok.parts![0]!,
        {
          name: 'files[0]',
          filename: 'big.bin',
          type: 'application/octet-stream',
          body: Buffer.alloc(10 * 1024 * 1024 + 1),
        },
      ],
    }),
    badCode: 40005,
  },
  {
    name: 'PATCH /channels/:id/messages/:m (multipart files)',
    method: 'PATCH',
    prepare: async (s) => {
      const sent = await request(`${s.f.platform.apiBase}/channels/${s.f.generalId}/messages`, {
        method: 'POST',
        headers: bot(s.f.botToken),
        json: { content: 'to edit' },
      });
      expect(sent.status, sent.text).toBe(200);
      return {
        path: `/channels/${s.f.generalId}/messages/${sent.body.id}`,
        parts: [
          {
            name: 'payload_json',
            body: JSON.stringify({ content: 'edited', attachments: [{ id: 0, description: 'a file' }] }),
          },
          { name: 'files[0]', filename: 'b.txt', type: 'text/plain', body: 'hello' },
        ],
      };
    },
    other: { who: 'stranger-bot', code: 50001 },
    weak: 50013,
    bad: async (_s, ok) => ({
      ...ok,
      parts: [
        { name: 'payload_json', body: JSON.stringify({ attachments: [{ id: 0, description: 'x'.repeat(1025) }] }) },
        ok.parts![1]!,
      ],
    }),
    badCode: 50035,
  },
];

describe('application, invite, partner-sdk and upload routes: no token, another application, missing permission, bad input', () => {
  let strong: SweepSide;
  let weak: SweepSide;
  let strangerToken: string;
  let userToken: string;

  const invite = (f: BotFixture, inviterId: string) => {
    const code = `sweep${Math.random().toString(36).slice(2, 10)}`;
    f.platform.store.botGuilds.insertInvite({
      code,
      guildId: f.guildId,
      channelId: f.generalId,
      inviterId,
      maxAge: 0,
      maxUses: 0,
      uses: 0,
      temporary: false,
      roleIds: [],
      createdAt: Date.now(),
      job: null,
    });
    return code;
  };
  let commands = 0;
  const side = async (f: BotFixture): Promise<SweepSide> => ({
    f,
    bearer: Object.fromEntries(
      await Promise.all(
        (['alice', 'bob'] as const).map(async (user) => [
          user,
          (
            await accessTokenFor(f.platform, {
              clientId: f.appId,
              scope: `identify ${COMMAND_PERMISSIONS_SCOPE}`,
              user,
              redirectUri: SWEEP_REDIRECT,
            })
          ).access_token,
        ]),
      ),
    ) as SweepSide['bearer'],
    command: async (defaultMemberPermissions) => {
      const json = {
        name: `sweep-${++commands}`,
        description: 'x',
        ...(defaultMemberPermissions !== undefined && { default_member_permissions: defaultMemberPermissions }),
      };
      const created = await request(`${f.platform.apiBase}/applications/${f.appId}/commands`, {
        method: 'POST',
        headers: bot(f.botToken),
        json,
      });
      expect(created.status, created.text).toBe(201);
      return created.body.id as string;
    },
    invite: (inviterId) => invite(f, inviterId),
    ownersInvite: () => invite(f, f.ownerId),
    devAppDm: async () => {
      const [a, b] = [await fullUser(f.platform), await fullUser(f.platform)];
      await befriend(f.platform, a, b);
      const dm = await api(f.platform, a.token, 'POST', `/users/${b.id}/messages`, { content: 'sweep' });
      expect(dm.status, dm.text).toBe(201);
      return { a: a.id, b: b.id, messageId: dm.body.id as string };
    },
  });

  const send = (s: SweepSide, token: string | null, method: string, call: Prepared) => {
    const auth = token === null ? {} : token.startsWith('Bearer ') ? { authorization: token } : bot(token);
    if (call.parts) {
      const body = multipart(call.parts);
      return request(`${s.f.platform.apiBase}${call.path}`, {
        method,
        headers: { ...auth, ...body.headers },
        raw: body.raw,
      });
    }
    return request(`${s.f.platform.apiBase}${call.path}`, {
      method,
      headers: auth,
      ...(call.json !== undefined && { json: call.json }),
    });
  };

  beforeAll(async () => {
    const application = { provisional_accounts_enabled: true, redirect_uris: [SWEEP_REDIRECT], public_client: true };
    // Bob manages the guild and its roles on the strong fixture (the command permissions row's grant check).
    const managers = { name: 'Managers', permissions: ((1n << 5n) | (1n << 28n)).toString(), members: ['bob'] };
    strong = await side(await startBotPlatform({ application, lowerRoles: [managers] }));
    const weakFixture = await startBotPlatform({ botPermissions: ((1n << 10n) | (1n << 11n)).toString(), application });
    const settings = weakFixture.platform.store.botGuilds.channelSettings(weakFixture.generalId);
    weakFixture.platform.store.botGuilds.setChannelSettings({
      ...settings,
      overwrites: [...settings.overwrites, { id: weakFixture.botUserId, type: 1, allow: '0', deny: String(1n << 15n) }],
    });
    weak = await side(weakFixture);
    strangerToken = (await createApp(strong.f.platform, { name: 'Stranger' })).bot_token;
    const bob = await accessTokenFor(strong.f.platform, {
      clientId: strong.f.platform.devApp.id,
      scope: 'identify guilds',
      user: 'bob',
    });
    userToken = `Bearer ${bob.access_token}`;
  });
  afterAll(async () => {
    await strong.f.platform.close();
    await weak.f.platform.close();
  });

  it.each(widerRows.map((row) => [row.name, row] as const))('%s', async (_name, row) => {
    const ok = await row.prepare(strong);
    expect((await send(strong, null, row.method, ok)).status, 'no token').toBe(row.noToken ?? 401);

    const other = await send(strong, row.other.who === 'user-token' ? userToken : strangerToken, row.method, ok);
    if (row.other.code === 0) {
      expect(other.status, `another application's bot: ${other.text}`).toBe(200);
    } else {
      expect(other.body.code, `another application's bot: ${other.text}`).toBe(row.other.code);
    }

    if (row.weak !== 0) {
      const answer = await send(
        weak,
        (row.weakCaller ?? row.owner ?? ((s) => s.f.botToken))(weak),
        row.method,
        await (row.prepareWeak ?? row.prepare)(weak),
      );
      expect(answer.body.code, `missing permission: ${answer.text}`).toBe(row.weak);
    }
    if (row.grant) {
      const answer = await send(strong, row.grant.caller(strong), row.method, await row.grant.prepare(strong));
      expect(answer.body.code, `setting what it could not itself: ${answer.text}`).toBe(50013);
    }

    const owner = (row.owner ?? ((s) => s.f.botToken))(strong);
    if (row.bad) {
      const bad = await send(strong, owner, row.method, await row.bad(strong, ok));
      expect(bad.body.code, `bad input: ${bad.text}`).toBe(row.badCode);
    }
    // The object's own application is answered (the four refusals above changed nothing it relies on).
    const answered = await send(strong, owner, row.method, row.bad ? await row.prepare(strong) : ok);
    if (row.ownerCode !== undefined) expect(answered.body.code, `the owner: ${answered.text}`).toBe(row.ownerCode);
    else expect(answered.status, `the owner: ${answered.text}`).toBeLessThan(300);
  });
});
