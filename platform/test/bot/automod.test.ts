/**
 * AutoMod (PROTOCOL.md §14.11) over real HTTP and WebSocket: KEYWORD rules CRUD with the published limits, the
 * AUTO_MODERATION_RULE_* events and audit 140–142, enforcement on create and edit (400 200000, nothing stored,
 * AUTO_MODERATION_ACTION_EXECUTION, audit 143), exemptions, bad input and authorization.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bot, request } from '../support/http.js';
import { createApp } from '../support/platform.js';
import { BOT_ROLE_PERMISSIONS, startBotPlatform, type BotFixture } from './fixture.js';
import { botCall, botSession } from './helpers.js';
import { findKeyword } from '../../src/bot-api/guilds/automod/keywords.js';

const MANAGE_GUILD = String(1n << 5n);
const AUTO_MODERATION_CONFIGURATION = 1 << 20;
const AUTO_MODERATION_EXECUTION = 1 << 21;
const GUILD_MESSAGES = 1 << 9;

const keywordRule = (name: string, keywords: string[], extra: Record<string, unknown> = {}) => ({
  name,
  event_type: 1,
  trigger_type: 1,
  trigger_metadata: { keyword_filter: keywords },
  actions: [{ type: 1, metadata: { custom_message: 'Please keep it civil.' } }],
  enabled: true,
  ...extra,
});

describe('AutoMod keyword matching (unit)', () => {
  it('whole words, * prefix/suffix/substring wildcards, case-insensitive, allow list', () => {
    expect(findKeyword('what a Cat!', ['cat'], [])).toEqual({ keyword: 'cat', content: 'Cat' });
    expect(findKeyword('concatenate', ['cat'], [])).toBeUndefined();
    expect(findKeyword('catalogue', ['cat*'], [])?.content).toBe('catalogue');
    expect(findKeyword('bobcat', ['*cat'], [])?.content).toBe('bobcat');
    expect(findKeyword('concatenate', ['*cat*'], [])?.content).toBe('concatenate');
    expect(findKeyword('a catalogue', ['cat*'], ['catalogue'])).toBeUndefined();
    expect(findKeyword('a catalogue and cats', ['cat*'], ['catalogue'])?.content).toBe('cats');
    expect(findKeyword('say (b) now', ['(b)'], [])?.content).toBe('(b)');
    expect(findKeyword('x.y', ['x.y'], [])?.content).toBe('x.y');
    expect(findKeyword('xzy', ['x.y'], [])).toBeUndefined();
  });
});

describe('AutoMod rules and enforcement over HTTP', () => {
  let f: BotFixture;
  let managerRoleId: string;
  const rules = () => `/guilds/${f.guildId}/auto-moderation/rules`;
  const auditOf = async (actionType: number) =>
    (await botCall(f, 'GET', `/guilds/${f.guildId}/audit-logs?action_type=${actionType}`)).body
      .audit_log_entries as Array<Record<string, any>>;

  beforeAll(async () => {
    f = await startBotPlatform({
      lowerRoles: [{ name: 'Rule Manager', permissions: MANAGE_GUILD, members: ['Test Bot'] }],
    });
    managerRoleId = (
      (await botCall(f, 'GET', `/guilds/${f.guildId}/roles`)).body as Array<{ id: string; name: string }>
    ).find((r) => r.name === 'Rule Manager')!.id;
  });
  afterAll(() => f.platform.close());

  it('create, get, list, modify, delete: published shape, AUTO_MODERATION_RULE_* events, audit 140/141/142', async () => {
    const session = await botSession(f, AUTO_MODERATION_CONFIGURATION);
    try {
      const created = await botCall(
        f,
        'POST',
        rules(),
        keywordRule('No spoilers', ['spoiler*'], { exempt_channels: [f.voiceId] }),
        { 'X-Audit-Log-Reason': 'be%20nice' },
      );
      expect(created.status, created.text).toBe(200);
      expect(created.body).toEqual({
        id: expect.any(String),
        guild_id: f.guildId,
        name: 'No spoilers',
        creator_id: f.botUserId,
        event_type: 1,
        trigger_type: 1,
        trigger_metadata: { keyword_filter: ['spoiler*'], regex_patterns: [], allow_list: [] },
        actions: [{ type: 1, metadata: { custom_message: 'Please keep it civil.' } }],
        enabled: true,
        exempt_roles: [],
        exempt_channels: [f.voiceId],
      });
      const id = created.body.id as string;
      expect(await session.next('AUTO_MODERATION_RULE_CREATE')).toEqual(created.body);
      expect((await botCall(f, 'GET', `${rules()}/${id}`)).body).toEqual(created.body);
      expect((await botCall(f, 'GET', rules())).body).toEqual([created.body]);

      expect(
        (await botCall(f, 'GET', `/guilds/${f.guildId}/audit-logs?action_type=140`)).body.auto_moderation_rules,
      ).toEqual([created.body]);
      const modified = await botCall(f, 'PATCH', `${rules()}/${id}`, { name: 'Renamed', enabled: false });
      expect(modified.status, modified.text).toBe(200);
      expect(modified.body).toMatchObject({
        id,
        name: 'Renamed',
        enabled: false,
        trigger_metadata: { keyword_filter: ['spoiler*'] },
      });
      expect(await session.next('AUTO_MODERATION_RULE_UPDATE')).toEqual(modified.body);

      expect((await botCall(f, 'DELETE', `${rules()}/${id}`)).status).toBe(204);
      expect((await session.next('AUTO_MODERATION_RULE_DELETE')).id).toBe(id);
      expect((await botCall(f, 'GET', `${rules()}/${id}`)).body.code).toBe(10066);
      expect((await botCall(f, 'DELETE', `${rules()}/${id}`)).body.code).toBe(10066);
      expect((await auditOf(140))[0]).toMatchObject({ target_id: id, reason: 'be nice' });
      expect((await auditOf(141))[0]!.changes).toEqual(
        expect.arrayContaining([{ key: 'name', old_value: 'No spoilers', new_value: 'Renamed' }]),
      );
      expect((await auditOf(142))[0]).toMatchObject({ target_id: id });
    } finally {
      await session.close();
    }
  });

  it('bad input is 50035 with the field and creates nothing; at most 6 keyword rules', async () => {
    for (const [body, field] of [
      [{ ...keywordRule('a', ['x']), name: '' }, 'name'],
      [{ ...keywordRule('a', ['x']), trigger_type: 3 }, 'trigger_type'],
      [{ ...keywordRule('a', ['x']), event_type: 2 }, 'event_type'],
      [keywordRule('a', ['x'.repeat(61)]), 'trigger_metadata'],
      [
        keywordRule(
          'a',
          Array.from({ length: 1001 }, (_, i) => `k${i}`),
        ),
        'trigger_metadata',
      ],
      [
        { ...keywordRule('a', ['x']), trigger_metadata: { keyword_filter: ['x'], regex_patterns: ['a+'] } },
        'trigger_metadata',
      ],
      [
        { ...keywordRule('a', ['x']), actions: [{ type: 1, metadata: { custom_message: 'm'.repeat(151) } }] },
        'actions',
      ],
      [{ ...keywordRule('a', ['x']), actions: [{ type: 3, metadata: { duration_seconds: 60 } }] }, 'actions'],
      [{ ...keywordRule('a', ['x']), actions: [] }, 'actions'],
      [{ ...keywordRule('a', ['x']), exempt_roles: ['123'] }, 'exempt_roles'],
      [{ ...keywordRule('a', ['x']), exempt_channels: ['123'] }, 'exempt_channels'],
      [{ ...keywordRule('a', ['x']), exempt_roles: Array.from({ length: 21 }, () => f.guildId) }, 'exempt_roles'],
    ] as const) {
      const answer = await botCall(f, 'POST', rules(), body);
      expect(answer.status, JSON.stringify(body).slice(0, 200)).toBe(400);
      expect(answer.body.code).toBe(50035);
      expect(answer.body.errors[field], JSON.stringify(answer.body).slice(0, 300)).toBeDefined();
    }
    expect((await botCall(f, 'GET', rules())).body).toEqual([]);

    const ids: string[] = [];
    try {
      for (let i = 0; i < 6; i++)
        ids.push((await botCall(f, 'POST', rules(), keywordRule(`r${i}`, ['x'], { enabled: false }))).body.id);
      const seventh = await botCall(f, 'POST', rules(), keywordRule('r6', ['x']));
      expect(seventh.body.code).toBe(50035);
      expect(seventh.body.errors.trigger_type._errors[0].code).toBe('AUTO_MODERATION_MAX_RULES_OF_TYPE_EXCEEDED');
      expect((await botCall(f, 'PATCH', `${rules()}/${ids[0]}`, { enabled: 'yes' })).body.code).toBe(50035);
    } finally {
      for (const id of ids) await botCall(f, 'DELETE', `${rules()}/${id}`);
    }
  });

  it('authorization: no token 401; a bot not in the guild 50001; without MANAGE_GUILD 50013', async () => {
    expect((await request(`${f.platform.apiBase}${rules()}`)).status).toBe(401);
    const other = await createApp(f.platform, { name: 'Stranger' });
    expect((await request(`${f.platform.apiBase}${rules()}`, { headers: bot(other.bot_token) })).body.code).toBe(50001);
    expect(
      (
        await request(`${f.platform.apiBase}${rules()}`, {
          method: 'POST',
          headers: bot(other.bot_token),
          json: keywordRule('a', ['x']),
        })
      ).body.code,
    ).toBe(50001);
    const plain = await startBotPlatform({ botPermissions: BOT_ROLE_PERMISSIONS });
    try {
      for (const [method, path, body] of [
        ['GET', `/guilds/${plain.guildId}/auto-moderation/rules`, undefined],
        ['POST', `/guilds/${plain.guildId}/auto-moderation/rules`, keywordRule('a', ['x'])],
        ['GET', `/guilds/${plain.guildId}/auto-moderation/rules/1`, undefined],
        ['PATCH', `/guilds/${plain.guildId}/auto-moderation/rules/1`, { name: 'b' }],
        ['DELETE', `/guilds/${plain.guildId}/auto-moderation/rules/1`, undefined],
      ] as const) {
        expect((await botCall(plain, method, path, body)).body.code, `${method} ${path}`).toBe(50013);
      }
    } finally {
      await plain.platform.close();
    }
  });

  it('enforcement: a matching message is refused 400 200000 and not stored; ACTION_EXECUTION and audit 143; exemptions; edits too', async () => {
    const rule = await botCall(
      f,
      'POST',
      rules(),
      keywordRule('No spoilers', ['spoiler*'], {
        exempt_channels: [],
        trigger_metadata: { keyword_filter: ['spoiler*'], allow_list: ['spoilers-ok'] },
      }),
    );
    expect(rule.status, rule.text).toBe(200);
    const session = await botSession(f, AUTO_MODERATION_EXECUTION | GUILD_MESSAGES);
    const postAs = (userId: string, content: string, channelId = f.generalId) =>
      botCall(f, 'POST', `/dev/channels/${channelId}/messages`, { content, author_id: userId });
    try {
      const blocked = await postAs(f.memberId, 'Huge SPOILERS ahead');
      expect(blocked.status).toBe(400);
      expect(blocked.body).toEqual({ code: 200000, message: 'Message was blocked by automatic moderation' });
      expect(await session.next('AUTO_MODERATION_ACTION_EXECUTION')).toEqual({
        guild_id: f.guildId,
        action: { type: 1, metadata: { custom_message: 'Please keep it civil.' } },
        rule_id: rule.body.id,
        rule_trigger_type: 1,
        user_id: f.memberId,
        channel_id: f.generalId,
        content: 'Huge SPOILERS ahead',
        matched_keyword: 'spoiler*',
        matched_content: 'SPOILERS',
      });
      expect(
        (await botCall(f, 'GET', `/channels/${f.generalId}/messages?limit=5`)).body.map(
          (m: { content: string }) => m.content,
        ),
      ).not.toContain('Huge SPOILERS ahead');
      expect((await auditOf(143))[0]).toMatchObject({
        user_id: f.memberId,
        options: { channel_id: f.generalId, auto_moderation_rule_name: 'No spoilers' },
      });

      // Allowed: the allow list, other words, the owner (all permissions), and holders of MANAGE_GUILD (the bot now).
      expect((await postAs(f.memberId, 'spoilers-ok here')).status).toBe(200);
      expect((await postAs(f.memberId, 'no problem')).status).toBe(200);
      expect((await postAs(f.ownerId, 'spoiler: it ends well')).status).toBe(200);
      const own = await botCall(f, 'POST', `/channels/${f.generalId}/messages`, { content: 'clean text' });
      expect(own.status).toBe(200);
      expect(
        (await botCall(f, 'PATCH', `/channels/${f.generalId}/messages/${own.body.id}`, { content: 'spoiler alert' }))
          .status,
      ).toBe(200);

      // Without MANAGE_GUILD the bot is checked too, on create and on edit (the published 400 on update).
      expect(
        (await botCall(f, 'DELETE', `/guilds/${f.guildId}/members/${f.botUserId}/roles/${managerRoleId}`)).status,
      ).toBe(204);
      expect((await botCall(f, 'POST', `/channels/${f.generalId}/messages`, { content: 'spoilers!' })).body.code).toBe(
        200000,
      );
      const edited = await botCall(f, 'PATCH', `/channels/${f.generalId}/messages/${own.body.id}`, {
        content: 'more spoilers',
      });
      expect(edited.status).toBe(400);
      expect(edited.body.code).toBe(200000);
      expect((await botCall(f, 'GET', `/channels/${f.generalId}/messages/${own.body.id}`)).body.content).toBe(
        'spoiler alert',
      );
    } finally {
      await session.close();
      await botCall(f, 'PUT', `/guilds/${f.guildId}/members/${f.botUserId}/roles/${managerRoleId}`);
      await botCall(f, 'DELETE', `${rules()}/${rule.body.id}`);
    }
  });
});
