/**
 * Channels over HTTP (PROTOCOL.md §14.4 "Channels over HTTP"): Create Guild Channel, Delete Channel and the Modify
 * Channel fields beyond topic/nsfw/slowmode (name, position, parent_id, bitrate, user_limit, permission_overwrites),
 * with CHANNEL_CREATE/UPDATE/DELETE, audit entries 10/11/12, bad input and authorization. Real HTTP and WebSocket.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bot, request } from '../support/http.js';
import { createApp } from '../support/platform.js';
import { startBotPlatform, type BotFixture } from './fixture.js';
import { botCall, botSession, INTENTS } from './helpers.js';

const VIEW_CHANNEL = String(1n << 10n);
const SEND_MESSAGES = String(1n << 11n);

describe('channel create, delete and modify over HTTP', () => {
  let f: BotFixture;
  const auditOf = async (actionType: number) =>
    (await botCall(f, 'GET', `/guilds/${f.guildId}/audit-logs?action_type=${actionType}`)).body
      .audit_log_entries as Array<Record<string, any>>;
  const create = (body: unknown, headers: Record<string, string> = {}) =>
    botCall(f, 'POST', `/guilds/${f.guildId}/channels`, body, headers);
  const channelIds = async () =>
    ((await botCall(f, 'GET', `/guilds/${f.guildId}/channels`)).body as Array<{ id: string }>).map((c) => c.id);

  beforeAll(async () => {
    f = await startBotPlatform();
  });
  afterAll(() => f.platform.close());

  it('POST /guilds/{id}/channels creates text, voice and category channels: 201, CHANNEL_CREATE, audit 10, listed', async () => {
    const session = await botSession(f, INTENTS.GUILDS);
    try {
      const category = await create({ name: 'Games', type: 4 }, { 'X-Audit-Log-Reason': 'new%20area' });
      expect(category.status, category.text).toBe(201);
      expect(category.body).toMatchObject({
        type: 4,
        name: 'Games',
        guild_id: f.guildId,
        parent_id: null,
        permission_overwrites: [],
      });
      expect(await session.next('CHANNEL_CREATE')).toMatchObject({ id: category.body.id, type: 4 });

      const text = await create({
        name: 'strategy',
        type: 0,
        topic: 'Plans',
        rate_limit_per_user: 10,
        nsfw: true,
        parent_id: category.body.id,
        permission_overwrites: [{ id: f.memberId, type: 1, allow: '0', deny: SEND_MESSAGES }],
        // discord.js sends the fields it was not given as null.
        rtc_region: null,
        available_tags: null,
      });
      expect(text.status, text.text).toBe(201);
      expect(text.body).toMatchObject({
        type: 0,
        name: 'strategy',
        topic: 'Plans',
        rate_limit_per_user: 10,
        nsfw: true,
        parent_id: category.body.id,
        permission_overwrites: [
          { id: f.memberId, type: 1, allow: '0', deny: SEND_MESSAGES, allow_new: '0', deny_new: SEND_MESSAGES },
        ],
      });
      expect((await session.next('CHANNEL_CREATE')).id).toBe(text.body.id);
      // The permission engine reads the overwrite at once: bob cannot post there.
      expect(
        (await botCall(f, 'POST', `/dev/channels/${text.body.id}/messages`, { content: 'hi', author_id: f.memberId }))
          .body.code,
      ).toBe(50013);

      const voice = await create({ name: 'Squad', type: 2, bitrate: 32_000, user_limit: 5 });
      expect(voice.status, voice.text).toBe(201);
      expect(voice.body).toMatchObject({ type: 2, bitrate: 32_000, user_limit: 5 });
      expect((await botCall(f, 'GET', `/channels/${voice.body.id}`)).body).toEqual(voice.body);
      expect(await channelIds()).toEqual(expect.arrayContaining([category.body.id, text.body.id, voice.body.id]));

      const [entry] = (await auditOf(10)).filter((e) => e.target_id === category.body.id);
      expect(entry).toMatchObject({ action_type: 10, user_id: f.botUserId, reason: 'new area' });
      expect(entry!.changes).toEqual(
        expect.arrayContaining([
          { key: 'name', new_value: 'Games' },
          { key: 'type', new_value: 4 },
        ]),
      );
    } finally {
      await session.close();
    }
  });

  it('create refuses bad input with 50035 and creates nothing', async () => {
    const before = await channelIds();
    const category = (await create({ name: 'Parent', type: 4 })).body.id as string;
    for (const [body, field] of [
      [{}, 'name'],
      [{ name: '' }, 'name'],
      [{ name: 'x'.repeat(101) }, 'name'],
      [{ name: 'a', type: 5 }, 'type'],
      [{ name: 'a', type: 0, bitrate: 64_000 }, 'bitrate'],
      [{ name: 'a', type: 2, topic: 'voice topic' }, 'topic'],
      [{ name: 'a', type: 2, bitrate: 7_999 }, 'bitrate'],
      [{ name: 'a', type: 2, user_limit: 100 }, 'user_limit'],
      [{ name: 'a', rate_limit_per_user: 21_601 }, 'rate_limit_per_user'],
      [{ name: 'a', parent_id: f.generalId }, 'parent_id'],
      [{ name: 'a', type: 4, parent_id: category }, 'parent_id'],
      [
        { name: 'a', permission_overwrites: [{ id: f.memberId, type: 1, allow: String(1n << 47n) }] },
        'permission_overwrites',
      ],
      [{ name: 'a', permission_overwrites: [{ id: f.memberId, type: 3 }] }, 'permission_overwrites'],
      [{ name: 'a', rtc_region: 'us-west' }, 'rtc_region'],
      [{ name: 'a', unknown_field: 1 }, '_errors'],
    ] as const) {
      const answer = await create(body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.code).toBe(50035);
      expect(answer.body.errors[field], JSON.stringify(answer.body)).toBeDefined();
    }
    expect((await create({ name: 'a', permission_overwrites: [{ id: '123', type: 0 }] })).body.code).toBe(10011);
    expect((await create({ name: 'a', permission_overwrites: [{ id: '123', type: 1 }] })).body.code).toBe(10007);
    expect((await botCall(f, 'POST', '/guilds/123/channels', { name: 'a' })).body.code).toBe(10004);
    expect(await channelIds()).toEqual([...before, category]);
  });

  it('PATCH moves and renames: name, position, parent_id, bitrate, user_limit, permission_overwrites; CHANNEL_UPDATE and audit 11', async () => {
    const session = await botSession(f, INTENTS.GUILDS);
    try {
      const category = (await create({ name: 'Voice area', type: 4 })).body.id as string;
      const voice = (await create({ name: 'Room', type: 2 })).body.id as string;
      await session.next('CHANNEL_CREATE');
      await session.next('CHANNEL_CREATE');
      const answer = await botCall(f, 'PATCH', `/channels/${voice}`, {
        name: 'Big room',
        position: 7,
        parent_id: category,
        bitrate: 96_000,
        user_limit: 10,
        permission_overwrites: [{ id: f.memberId, type: 1, deny: VIEW_CHANNEL }],
      });
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body).toMatchObject({
        name: 'Big room',
        position: 7,
        parent_id: category,
        bitrate: 96_000,
        user_limit: 10,
      });
      expect(answer.body.permission_overwrites).toEqual([
        { id: f.memberId, type: 1, allow: '0', deny: VIEW_CHANNEL, allow_new: '0', deny_new: VIEW_CHANNEL },
      ]);
      expect(await session.next('CHANNEL_UPDATE')).toMatchObject({ id: voice, name: 'Big room', parent_id: category });
      expect((await botCall(f, 'GET', `/channels/${voice}`)).body).toEqual(answer.body);
      const [entry] = (await auditOf(11)).filter((e) => e.target_id === voice);
      expect(entry!.changes).toEqual(
        expect.arrayContaining([
          { key: 'name', old_value: 'Room', new_value: 'Big room' },
          { key: 'parent_id', old_value: null, new_value: category },
          { key: 'bitrate', old_value: 64_000, new_value: 96_000 },
          { key: 'user_limit', old_value: 0, new_value: 10 },
          expect.objectContaining({ key: 'permission_overwrites', old_value: [] }),
        ]),
      );
      // null clears the parent; an empty list clears the overwrites.
      const cleared = await botCall(f, 'PATCH', `/channels/${voice}`, { parent_id: null, permission_overwrites: [] });
      expect(cleared.body).toMatchObject({ parent_id: null, permission_overwrites: [] });
    } finally {
      await session.close();
    }
  });

  it('PATCH refuses bad input with 50035 and changes nothing', async () => {
    const before = (await botCall(f, 'GET', `/channels/${f.voiceId}`)).body;
    for (const [body, field] of [
      [{ name: '' }, 'name'],
      [{ bitrate: 96_001 }, 'bitrate'],
      [{ user_limit: -1 }, 'user_limit'],
      [{ position: -1 }, 'position'],
      [{ parent_id: f.generalId }, 'parent_id'],
      [{ parent_id: 'abc' }, 'parent_id'],
      [{ permission_overwrites: [{ id: f.memberId, type: 1, deny: 'x' }] }, 'permission_overwrites'],
      [{ video_quality_mode: 2 }, 'video_quality_mode'],
    ] as const) {
      const answer = await botCall(f, 'PATCH', `/channels/${f.voiceId}`, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.code).toBe(50035);
      expect(answer.body.errors[field], JSON.stringify(answer.body)).toBeDefined();
    }
    // A text channel has no bitrate.
    expect((await botCall(f, 'PATCH', `/channels/${f.generalId}`, { bitrate: 64_000 })).body.code).toBe(50035);
    expect((await botCall(f, 'GET', `/channels/${f.voiceId}`)).body).toEqual(before);
  });

  it('DELETE /channels/{id}: the channel, CHANNEL_DELETE, audit 12; its messages and children are let go; then 10003', async () => {
    const session = await botSession(f, INTENTS.GUILDS);
    try {
      const category = (await create({ name: 'Old', type: 4 })).body.id as string;
      const child = (await create({ name: 'old-chat', parent_id: category })).body.id as string;
      expect((await botCall(f, 'POST', `/channels/${child}/messages`, { content: 'soon gone' })).status).toBe(200);

      const gone = await botCall(f, 'DELETE', `/channels/${child}`, undefined, { 'X-Audit-Log-Reason': 'cleanup' });
      expect(gone.status, gone.text).toBe(200);
      expect(gone.body).toMatchObject({ id: child, name: 'old-chat', type: 0 });
      expect(await session.next('CHANNEL_DELETE')).toMatchObject({ id: child, guild_id: f.guildId });
      expect((await botCall(f, 'GET', `/channels/${child}`)).body.code).toBe(10003);
      expect((await botCall(f, 'GET', `/channels/${child}/messages`)).body.code).toBe(10003);
      expect((await botCall(f, 'DELETE', `/channels/${child}`)).body.code).toBe(10003);
      expect((await auditOf(12)).find((e) => e.target_id === child)).toMatchObject({
        reason: 'cleanup',
        changes: expect.arrayContaining([{ key: 'name', old_value: 'old-chat' }]),
      });

      // Deleting a category leaves its channels without a parent.
      const orphan = (await create({ name: 'orphan', parent_id: category })).body.id as string;
      expect((await botCall(f, 'DELETE', `/channels/${category}`)).status).toBe(200);
      expect((await botCall(f, 'GET', `/channels/${orphan}`)).body.parent_id).toBeNull();
      expect((await botCall(f, 'DELETE', '/channels/abc')).body.code).toBe(10003);
    } finally {
      await session.close();
    }
  });

  it('authorization: no token 401, a bot not in the guild 50001, no access to the channel 50001', async () => {
    const anonymous = await request(`${f.platform.apiBase}/guilds/${f.guildId}/channels`, {
      method: 'POST',
      json: { name: 'a' },
    });
    expect(anonymous.status).toBe(401);
    expect((await request(`${f.platform.apiBase}/channels/${f.generalId}`, { method: 'DELETE' })).status).toBe(401);
    const other = await createApp(f.platform, { name: 'Stranger' });
    const asOther = (method: string, path: string, json?: unknown) =>
      request(`${f.platform.apiBase}${path}`, {
        method,
        headers: bot(other.bot_token),
        ...(json !== undefined && { json }),
      });
    expect((await asOther('POST', `/guilds/${f.guildId}/channels`, { name: 'a' })).body.code).toBe(50001);
    expect((await asOther('PATCH', `/channels/${f.generalId}`, { name: 'a' })).body.code).toBe(50001);
    expect((await asOther('DELETE', `/channels/${f.generalId}`)).body.code).toBe(50001);
    // A channel hidden from the bot (its role denied VIEW_CHANNEL there) cannot be edited or deleted.
    const hidden = (await create({ name: 'hidden' })).body.id as string;
    const botRole = (
      (await botCall(f, 'GET', `/guilds/${f.guildId}/roles`)).body as Array<{ id: string; name: string }>
    ).find((r) => r.name === 'Bot Role')!;
    expect(
      (await botCall(f, 'PUT', `/channels/${hidden}/permissions/${botRole.id}`, { type: 0, deny: VIEW_CHANNEL }))
        .status,
    ).toBe(204);
    expect((await botCall(f, 'DELETE', `/channels/${hidden}`)).body.code).toBe(50001);
    expect((await botCall(f, 'PATCH', `/channels/${hidden}`, { name: 'x' })).body.code).toBe(50001);
  });
});

describe('channel routes without the permissions', () => {
  it('no MANAGE_CHANNELS → 50013 for create, modify and delete; overwrites in a body need MANAGE_ROLES', async () => {
    // VIEW_CHANNEL, SEND_MESSAGES, VIEW_AUDIT_LOG only.
    const weak = await startBotPlatform({ botPermissions: ((1n << 10n) | (1n << 11n) | (1n << 7n)).toString() });
    // MANAGE_CHANNELS without MANAGE_ROLES.
    const noRoles = await startBotPlatform({ botPermissions: ((1n << 10n) | (1n << 11n) | (1n << 4n)).toString() });
    try {
      expect((await botCall(weak, 'POST', `/guilds/${weak.guildId}/channels`, { name: 'a' })).body.code).toBe(50013);
      expect((await botCall(weak, 'PATCH', `/channels/${weak.generalId}`, { name: 'a' })).body.code).toBe(50013);
      expect((await botCall(weak, 'DELETE', `/channels/${weak.generalId}`)).body.code).toBe(50013);
      expect((await botCall(weak, 'GET', `/channels/${weak.generalId}`)).body.name).toBe('general');

      const overwrites = [{ id: noRoles.memberId, type: 1, deny: SEND_MESSAGES }];
      expect(
        (
          await botCall(noRoles, 'POST', `/guilds/${noRoles.guildId}/channels`, {
            name: 'a',
            permission_overwrites: overwrites,
          })
        ).body.code,
      ).toBe(50013);
      expect(
        (await botCall(noRoles, 'PATCH', `/channels/${noRoles.generalId}`, { permission_overwrites: overwrites })).body
          .code,
      ).toBe(50013);
      expect((await botCall(noRoles, 'GET', `/channels/${noRoles.generalId}`)).body.permission_overwrites).toEqual([]);
      // Without overwrites, MANAGE_CHANNELS is enough.
      expect((await botCall(noRoles, 'POST', `/guilds/${noRoles.guildId}/channels`, { name: 'fine' })).status).toBe(
        201,
      );
    } finally {
      await weak.platform.close();
      await noRoles.platform.close();
    }
  });
});
