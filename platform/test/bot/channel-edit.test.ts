/**
 * Editing guild channels over HTTP (PROTOCOL.md §14.4 "Channels over HTTP"): Modify Channel (topic, nsfw, slowmode),
 * Edit / Delete Channel Permission, with CHANNEL_UPDATE, audit entries, bad input and authorization; slowmode
 * enforced on users (20016) but not on bots or holders of BYPASS_SLOWMODE. Over real HTTP and WebSocket.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../support/http.js';
import { accessTokenFor } from '../support/platform.js';
import { startBotPlatform, type BotFixture } from './fixture.js';
import { botCall, botSession, INTENTS } from './helpers.js';

describe('channel settings and permission overwrites over HTTP', () => {
  let f: BotFixture;
  let members = 0;
  /** A new user who joined the guild (each slowmode case starts without a recent message). */
  const newMember = async () => {
    const user = await botCall(f, 'POST', '/dev/users', { username: `slow_${++members}` });
    expect((await botCall(f, 'PUT', `/dev/guilds/${f.guildId}/members/${user.body.id}`, {})).status).toBe(201);
    return user.body.id as string;
  };
  const auditOf = async (actionType: number) =>
    (await botCall(f, 'GET', `/guilds/${f.guildId}/audit-logs?action_type=${actionType}`)).body
      .audit_log_entries as Array<Record<string, any>>;
  const postAs = (userId: string, content: string, channelId = f.generalId) =>
    botCall(f, 'POST', `/dev/channels/${channelId}/messages`, { content, author_id: userId });

  beforeAll(async () => {
    f = await startBotPlatform();
  });
  afterAll(() => f.platform.close());

  it('PATCH /channels/{id} sets topic, nsfw and slowmode: the channel, CHANNEL_UPDATE and audit entry 11 with the changes', async () => {
    const session = await botSession(f, INTENTS.GUILDS);
    try {
      const answer = await botCall(
        f,
        'PATCH',
        `/channels/${f.generalId}`,
        { topic: 'News only', nsfw: true, rate_limit_per_user: 30 },
        { 'X-Audit-Log-Reason': 'tidy%20up' },
      );
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body).toMatchObject({ id: f.generalId, topic: 'News only', nsfw: true, rate_limit_per_user: 30 });
      expect(await session.next('CHANNEL_UPDATE')).toMatchObject({
        id: f.generalId,
        guild_id: f.guildId,
        topic: 'News only',
        rate_limit_per_user: 30,
      });
      expect((await botCall(f, 'GET', `/channels/${f.generalId}`)).body).toMatchObject({
        topic: 'News only',
        nsfw: true,
        rate_limit_per_user: 30,
      });
      const [entry] = await auditOf(11);
      expect(entry).toMatchObject({ action_type: 11, target_id: f.generalId, reason: 'tidy up' });
      expect(entry!.changes).toEqual(
        expect.arrayContaining([
          { key: 'topic', old_value: null, new_value: 'News only' },
          { key: 'rate_limit_per_user', old_value: 0, new_value: 30 },
        ]),
      );
    } finally {
      await botCall(f, 'PATCH', `/channels/${f.generalId}`, { topic: null, nsfw: false, rate_limit_per_user: 0 });
      await session.close();
    }
  });

  it('PATCH refuses bad input with 50035 and changes nothing; unknown channel 10003; a voice channel has no topic', async () => {
    const before = (await botCall(f, 'GET', `/channels/${f.generalId}`)).body;
    for (const [body, field] of [
      [{ rate_limit_per_user: 21_601 }, 'rate_limit_per_user'],
      [{ rate_limit_per_user: -1 }, 'rate_limit_per_user'],
      [{ topic: 'x'.repeat(1025) }, 'topic'],
      [{ nsfw: 'yes' }, 'nsfw'],
    ] as const) {
      const answer = await botCall(f, 'PATCH', `/channels/${f.generalId}`, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.code).toBe(50035);
      expect(answer.body.errors[field], JSON.stringify(answer.body)).toBeDefined();
    }
    const refused = await botCall(f, 'PATCH', `/channels/${f.generalId}`, { default_forum_layout: 1 });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe(50035);
    expect((await botCall(f, 'PATCH', `/channels/${f.voiceId}`, { topic: 'voice topic' })).body.code).toBe(50035);
    expect((await botCall(f, 'PATCH', '/channels/123', { topic: 'x' })).body.code).toBe(10003);
    expect((await botCall(f, 'GET', `/channels/${f.generalId}`)).body).toEqual(before);
  });

  it('PUT an overwrite: stored, applied by the permission engine, CHANNEL_UPDATE, audit 13 then 14; DELETE: audit 15, then 10009', async () => {
    const session = await botSession(f, INTENTS.GUILDS);
    const VIEW_CHANNEL = String(1n << 10n);
    try {
      expect((await postAs(f.memberId, 'before')).status).toBe(200);
      const put = await botCall(f, 'PUT', `/channels/${f.generalId}/permissions/${f.memberId}`, {
        type: 1,
        deny: VIEW_CHANNEL,
      });
      expect(put.status, put.text).toBe(204);
      expect((await session.next('CHANNEL_UPDATE')).permission_overwrites).toEqual([
        { id: f.memberId, type: 1, allow: '0', deny: VIEW_CHANNEL, allow_new: '0', deny_new: VIEW_CHANNEL },
      ]);
      // The one permission engine reads it: bob can no longer see the channel.
      expect((await postAs(f.memberId, 'after')).body.code).toBe(50001);
      expect(
        (await botCall(f, 'PUT', `/channels/${f.generalId}/permissions/${f.memberId}`, { type: 1, deny: '0' })).status,
      ).toBe(204);
      expect((await postAs(f.memberId, 'again')).status).toBe(200);
      expect((await auditOf(13))[0]).toMatchObject({ target_id: f.generalId, options: { id: f.memberId, type: '1' } });
      expect((await auditOf(14))[0]!.changes).toEqual(
        expect.arrayContaining([{ key: 'deny', old_value: VIEW_CHANNEL, new_value: '0' }]),
      );

      expect((await botCall(f, 'DELETE', `/channels/${f.generalId}/permissions/${f.memberId}`)).status).toBe(204);
      expect((await botCall(f, 'GET', `/channels/${f.generalId}`)).body.permission_overwrites).toEqual([]);
      expect((await auditOf(15))[0]).toMatchObject({ target_id: f.generalId, options: { id: f.memberId, type: '1' } });
      const again = await botCall(f, 'DELETE', `/channels/${f.generalId}/permissions/${f.memberId}`);
      expect(again.status).toBe(404);
      expect(again.body).toEqual({ code: 10009, message: 'Unknown Overwrite' });
    } finally {
      await session.close();
    }
  });

  it('overwrite bad input (type, bits) is 50035; unknown role 10011 or member 10007; granting what the bot lacks, or without MANAGE_ROLES, 50013', async () => {
    const path = `/channels/${f.generalId}/permissions/${f.guildId}`;
    for (const body of [
      { type: 2 },
      {},
      { type: 0, allow: 'abc' },
      { type: 0, allow: String(1n << 47n) },
      { type: 0, deny: '1'.repeat(21) },
    ]) {
      const answer = await botCall(f, 'PUT', path, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.code).toBe(50035);
    }
    expect((await botCall(f, 'PUT', `/channels/${f.generalId}/permissions/123`, { type: 0 })).body.code).toBe(10011);
    expect((await botCall(f, 'PUT', `/channels/${f.generalId}/permissions/123`, { type: 1 })).body.code).toBe(10007);
    const ADMINISTRATOR = String(1n << 3n);
    expect((await botCall(f, 'PUT', path, { type: 0, allow: ADMINISTRATOR })).body.code).toBe(50013);
    // The bot takes MANAGE_ROLES from itself in this channel: it may no longer edit overwrites there.
    const botRole = (
      (await botCall(f, 'GET', `/guilds/${f.guildId}/roles`)).body as Array<{ id: string; name: string }>
    ).find((role) => role.name === 'Bot Role')!;
    expect(
      (
        await botCall(f, 'PUT', `/channels/${f.voiceId}/permissions/${botRole.id}`, {
          type: 0,
          deny: String(1n << 28n),
        })
      ).status,
    ).toBe(204);
    expect((await botCall(f, 'PUT', `/channels/${f.voiceId}/permissions/${f.memberId}`, { type: 1 })).body.code).toBe(
      50013,
    );
    expect((await botCall(f, 'DELETE', `/channels/${f.voiceId}/permissions/${botRole.id}`)).body.code).toBe(50013);
    expect((await botCall(f, 'GET', `/channels/${f.voiceId}`)).body.permission_overwrites).toHaveLength(1);
  });

  it('slowmode: a user waits (429 20016); bots and holders of BYPASS_SLOWMODE (the owner) do not', async () => {
    expect((await botCall(f, 'PATCH', `/channels/${f.generalId}`, { rate_limit_per_user: 3600 })).status).toBe(200);
    try {
      const member = await newMember();
      expect((await postAs(member, 'first')).status).toBe(200);
      const slowed = await postAs(member, 'second');
      expect(slowed.status).toBe(429);
      expect(slowed.body).toEqual({
        code: 20016,
        message: 'This action cannot be performed due to slowmode rate limit.',
      });
      expect(Number(slowed.headers['retry-after'])).toBeGreaterThan(0);
      for (const content of ['bot one', 'bot two'])
        expect((await botCall(f, 'POST', `/channels/${f.generalId}/messages`, { content })).status).toBe(200);
      for (const content of ['owner one', 'owner two']) expect((await postAs(f.ownerId, content)).status).toBe(200);
    } finally {
      await botCall(f, 'PATCH', `/channels/${f.generalId}`, { rate_limit_per_user: 0 });
    }
  });

  it("the SDK's channel list (Bearer) reads the same engine: a member's overwrite shows in its permissions and overwrites", async () => {
    const SEND_MESSAGES = 1n << 11n;
    const token = (await accessTokenFor(f.platform, { clientId: f.platform.devApp.id, scope: 'guilds', user: 'bob' }))
      .access_token;
    const general = async () =>
      (
        (
          await request(`${f.platform.apiBase}/guilds/${f.guildId}/channels`, {
            headers: { authorization: `Bearer ${token}` },
          })
        ).body as Array<Record<string, any>>
      ).find((c) => c.id === f.generalId)!;
    expect(BigInt((await general()).permissions) & SEND_MESSAGES).toBe(SEND_MESSAGES);
    expect(
      (
        await botCall(f, 'PUT', `/channels/${f.generalId}/permissions/${f.memberId}`, {
          type: 1,
          deny: String(SEND_MESSAGES),
        })
      ).status,
    ).toBe(204);
    try {
      const viewed = await general();
      expect(BigInt(viewed.permissions) & SEND_MESSAGES).toBe(0n);
      expect(viewed.permission_overwrites).toEqual([
        {
          id: f.memberId,
          type: 1,
          allow: '0',
          deny: String(SEND_MESSAGES),
          allow_new: '0',
          deny_new: String(SEND_MESSAGES),
        },
      ]);
    } finally {
      await botCall(f, 'DELETE', `/channels/${f.generalId}/permissions/${f.memberId}`);
    }
  });
});
