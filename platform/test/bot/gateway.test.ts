/** The bot gateway over a real WebSocket (PROTOCOL.md §14.3): READY guilds, GUILD_CREATE, op 8, op 43, intents. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOT_ROLE_PERMISSIONS, startBotPlatform, type BotFixture } from './fixture.js';
import { botCall, botSession, INTENTS } from './helpers.js';
import { GatewayClient } from '../support/gateway-client.js';

describe('bot gateway', () => {
  let f: BotFixture;
  beforeAll(async () => {
    f = await startBotPlatform();
  });
  afterAll(() => f.platform.close());

  it('READY lists the guild as unavailable, then GUILD_CREATE brings it with channels, roles and the bot member', async () => {
    const s = await botSession(f, INTENTS.GUILDS);
    try {
      expect(s.ready.guilds).toEqual([{ id: f.guildId, unavailable: true }]);
      expect(s.ready.application).toMatchObject({ id: f.appId, flags: (1 << 15) | (1 << 19) });
      const guild = await s.next('GUILD_CREATE');
      expect(guild).toMatchObject({ id: f.guildId, unavailable: false, member_count: 3, large: false });
      expect(guild.channels.map((c: any) => c.name).sort()).toEqual(['general', 'lounge']);
      expect(guild.roles.every((r: any) => typeof r.permissions === 'string')).toBe(true);
      expect(guild.members.map((m: any) => m.user.id)).toEqual([f.botUserId]);
    } finally {
      await s.close();
    }
  });

  it('sends no GUILD_CREATE without the GUILDS intent', async () => {
    const s = await botSession(f, INTENTS.GUILD_MESSAGES);
    try {
      await botCall(f, 'GET', '/users/@me');
      expect(s.seen.filter((e) => e.t === 'GUILD_CREATE')).toEqual([]);
    } finally {
      await s.close();
    }
  });

  it('op 8: user_ids answers with one chunk and not_found; the nonce is echoed', async () => {
    const s = await botSession(f, INTENTS.GUILDS | INTENTS.GUILD_MEMBERS);
    try {
      s.client.send(8, { guild_id: f.guildId, limit: 0, user_ids: [f.memberId, '123456789012345678'], nonce: 'n1' });
      const chunk = await s.next('GUILD_MEMBERS_CHUNK');
      expect(chunk).toMatchObject({
        guild_id: f.guildId,
        chunk_index: 0,
        chunk_count: 1,
        not_found: ['123456789012345678'],
        nonce: 'n1',
      });
      expect(chunk.members.map((m: any) => m.user.id)).toEqual([f.memberId]);
    } finally {
      await s.close();
    }
  });

  it('op 8: a query matches usernames by prefix', async () => {
    const s = await botSession(f, INTENTS.GUILDS);
    try {
      s.client.send(8, { guild_id: f.guildId, query: 'ali', limit: 10 });
      const chunk = await s.next('GUILD_MEMBERS_CHUNK');
      expect(chunk.members.map((m: any) => m.user.id)).toEqual([f.ownerId]);
    } finally {
      await s.close();
    }
  });

  it('op 8: the full list needs GUILD_MEMBERS (else 4001), and a second one within 30 s gets RATE_LIMITED', async () => {
    const without = await botSession(f, INTENTS.GUILDS);
    const closed = new Promise<number>((resolve) =>
      without.client.once('socketClose', (code: number) => resolve(code)),
    );
    without.client.send(8, { guild_id: f.guildId, query: '', limit: 0 });
    expect(await closed).toBe(4001);

    const s = await botSession(f, INTENTS.GUILDS | INTENTS.GUILD_MEMBERS);
    try {
      s.client.send(8, { guild_id: f.guildId, query: '', limit: 0, nonce: 'all-1' });
      const chunk = await s.next('GUILD_MEMBERS_CHUNK');
      expect(chunk.members).toHaveLength(3);
      s.client.send(8, { guild_id: f.guildId, query: '', limit: 0, nonce: 'all-2' });
      const limited = await s.next('RATE_LIMITED');
      expect(limited).toMatchObject({ opcode: 8, meta: { guild_id: f.guildId, nonce: 'all-2' } });
      expect(limited.retry_after).toBeGreaterThan(0);
      expect(limited.retry_after).toBeLessThanOrEqual(30);
    } finally {
      await s.close();
    }
  });

  it('op 43 answers CHANNEL_INFO with the voice status and start time; both changes are dispatched', async () => {
    const s = await botSession(f, INTENTS.GUILDS);
    try {
      expect((await botCall(f, 'PUT', `/channels/${f.voiceId}/voice-status`, { status: 'Raid night' })).status).toBe(
        204,
      );
      expect(await s.next('VOICE_CHANNEL_STATUS_UPDATE')).toEqual({
        id: f.voiceId,
        guild_id: f.guildId,
        status: 'Raid night',
      });
      const dev = await botCall(f, 'PUT', `/dev/channels/${f.voiceId}/voice-start-time`, {
        voice_start_time: 1_800_000_000,
      });
      expect(dev.status).toBe(204);
      expect(await s.next('VOICE_CHANNEL_START_TIME_UPDATE')).toEqual({
        id: f.voiceId,
        guild_id: f.guildId,
        voice_start_time: 1_800_000_000,
      });
      s.client.send(43, { guild_id: f.guildId, fields: ['status', 'voice_start_time'] });
      expect(await s.next('CHANNEL_INFO')).toEqual({
        guild_id: f.guildId,
        channels: [{ id: f.voiceId, status: 'Raid night', voice_start_time: 1_800_000_000 }],
      });
    } finally {
      await s.close();
    }
  });

  it('op 43 with a malformed payload closes 4001', async () => {
    const s = await botSession(f, INTENTS.GUILDS);
    const closed = new Promise<number>((resolve) => s.client.once('socketClose', (code: number) => resolve(code)));
    s.client.send(43, { guild_id: f.guildId, fields: ['topic'] });
    expect(await closed).toBe(4001);
  });

  it('MESSAGE_CREATE reaches bots with GUILD_MESSAGES; without MESSAGE_CONTENT the content of others is blanked', async () => {
    const full = await botSession(f, INTENTS.GUILD_MESSAGES | INTENTS.MESSAGE_CONTENT);
    const blank = await botSession(f, INTENTS.GUILD_MESSAGES);
    try {
      const posted = await botCall(f, 'POST', `/dev/channels/${f.generalId}/messages`, {
        author_id: f.memberId,
        content: 'hi bot',
      });
      expect(posted.status, posted.text).toBe(200);
      expect((await full.next('MESSAGE_CREATE')).content).toBe('hi bot');
      expect((await blank.next('MESSAGE_CREATE')).content).toBe('');
    } finally {
      await full.close();
      await blank.close();
    }
  });

  it('GUILD_MEMBER_ADD when a user joins (dev route), only with GUILD_MEMBERS', async () => {
    const s = await botSession(f, INTENTS.GUILDS | INTENTS.GUILD_MEMBERS);
    try {
      const user = await botCall(f, 'POST', '/dev/users', { username: 'joiner' });
      const joined = await botCall(f, 'PUT', `/dev/guilds/${f.guildId}/members/${user.body.id}`, {});
      expect(joined.status).toBe(201);
      expect(await s.next('GUILD_MEMBER_ADD')).toMatchObject({ guild_id: f.guildId, user: { id: user.body.id } });
    } finally {
      await s.close();
    }
  });

  it('a privileged intent without the application flag closes 4014', async () => {
    const g = await startBotPlatform({ guildMembers: false, messageContent: false });
    try {
      const client = new GatewayClient({
        url: g.platform.gatewayUrl,
        token: g.botToken,
        intents: INTENTS.GUILDS | INTENTS.GUILD_MEMBERS,
        autoReconnect: false,
      });
      const closed = new Promise<number>((resolve) => client.once('socketClose', (code: number) => resolve(code)));
      await client.connect().catch(() => undefined);
      expect(await closed).toBe(4014);
    } finally {
      await g.platform.close();
    }
  });
});

describe('GUILD_MEMBER_UPDATE and GUILD_MEMBER_REMOVE', () => {
  let f: BotFixture;
  beforeAll(async () => {
    // KICK_MEMBERS and MANAGE_NICKNAMES besides the usual set.
    f = await startBotPlatform({
      botPermissions: (BigInt(BOT_ROLE_PERMISSIONS) | (1n << 1n) | (1n << 27n)).toString(),
    });
  });
  afterAll(() => f.platform.close());

  it('with GUILD_MEMBERS: a nickname change sends UPDATE, a kick sends REMOVE', async () => {
    const s = await botSession(f, INTENTS.GUILDS | INTENTS.GUILD_MEMBERS);
    try {
      expect((await botCall(f, 'PATCH', `/guilds/${f.guildId}/members/${f.memberId}`, { nick: 'Bobby' })).status).toBe(
        200,
      );
      expect(await s.next('GUILD_MEMBER_UPDATE')).toMatchObject({
        guild_id: f.guildId,
        nick: 'Bobby',
        user: { id: f.memberId },
      });
      expect((await botCall(f, 'DELETE', `/guilds/${f.guildId}/members/${f.memberId}`)).status).toBe(204);
      expect(await s.next('GUILD_MEMBER_REMOVE')).toMatchObject({ guild_id: f.guildId, user: { id: f.memberId } });
    } finally {
      await s.close();
    }
  });

  it("without GUILD_MEMBERS the bot still gets the UPDATE about itself, and not the others'", async () => {
    const s = await botSession(f, INTENTS.GUILDS);
    try {
      const other = (await botCall(f, 'POST', '/dev/users', { username: `other_${Date.now()}` })).body.id as string;
      expect((await botCall(f, 'PUT', `/dev/guilds/${f.guildId}/members/${other}`, {})).status).toBe(201);
      expect((await botCall(f, 'PATCH', `/guilds/${f.guildId}/members/${other}`, { nick: 'not for you' })).status).toBe(
        200,
      );
      expect((await botCall(f, 'PATCH', `/guilds/${f.guildId}/members/@me`, { nick: 'Me' })).status).toBe(200);
      // Events arrive in publish order: had the other member's update been sent, it would come first.
      expect(await s.next('GUILD_MEMBER_UPDATE')).toMatchObject({
        guild_id: f.guildId,
        nick: 'Me',
        user: { id: f.botUserId },
      });
    } finally {
      await s.close();
    }
  });
});
