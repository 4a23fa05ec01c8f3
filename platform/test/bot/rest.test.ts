/** Bot API rows over real HTTP (PROTOCOL.md §14): rules, limits, error codes, authorization refusals, bad input. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../support/http.js';
import { BOT_ROLE_PERMISSIONS, startBotPlatform, type BotFixture } from './fixture.js';
import { botCall, botMultipart, botSession, INTENTS } from './helpers.js';

const v2Text = (content: string) => ({ type: 10, content });

describe('messages', () => {
  let f: BotFixture;
  beforeAll(async () => {
    f = await startBotPlatform();
  });
  afterAll(() => f.platform.close());
  const send = (body: unknown) => botCall(f, 'POST', `/channels/${f.generalId}/messages`, body);

  it('an empty message is 50006; bad input is 50035 with field errors', async () => {
    expect((await send({})).body).toMatchObject({ code: 50006 });
    const bad = await send({ content: 5 });
    expect(bad.body).toMatchObject({
      code: 50035,
      errors: { content: { _errors: [{ code: 'STRING_TYPE_CONVERT' }] } },
    });
    expect((await send({ content: 'x'.repeat(2001) })).body.errors.content._errors[0].code).toBe(
      'BASE_TYPE_MAX_LENGTH',
    );
  });

  it('more than 25 embed fields is an error, not a silent drop', async () => {
    const fields = Array.from({ length: 26 }, (_, i) => ({ name: `n${i}`, value: 'v' }));
    const response = await send({ embeds: [{ title: 't', fields }] });
    expect(response.status).toBe(400);
    expect(response.body.errors.embeds['0'].fields._errors[0].code).toBe('BASE_TYPE_MAX_LENGTH');
    expect((await send({ embeds: [{ title: 't', fields: fields.slice(0, 25) }] })).status).toBe(200);
  });

  it('legacy components: at most 5 action rows, and V2 types need the flag', async () => {
    const row = { type: 1, components: [{ type: 2, style: 1, label: 'b', custom_id: 'c' }] };
    expect((await send({ components: Array(6).fill(row) })).body.errors.components._errors[0].code).toBe(
      'BASE_TYPE_MAX_LENGTH',
    );
    expect((await send({ components: Array(5).fill(row) })).status).toBe(200);
    expect((await send({ components: [v2Text('no flag')] })).body.errors.components['0'].type._errors[0].code).toBe(
      'COMPONENT_TYPE_INVALID',
    );
  });

  it('Components V2: 40 components in all (nested ones count); content is refused; the flag cannot be removed', async () => {
    const V2 = 1 << 15;
    const container = (n: number) => ({ type: 17, components: Array.from({ length: n }, (_, i) => v2Text(`t${i}`)) });
    expect((await send({ flags: V2, components: [container(39)] })).status).toBe(200);
    expect((await send({ flags: V2, components: [container(40)] })).body.errors.components._errors[0].code).toBe(
      'BASE_TYPE_MAX_LENGTH',
    );
    const withContent = await send({ flags: V2, content: 'legacy', components: [v2Text('x')] });
    expect(withContent.body.errors.content._errors[0].code).toBe('MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2');
    const created = await send({ flags: V2, components: [v2Text('keep')] });
    const edit = await botCall(f, 'PATCH', `/channels/${f.generalId}/messages/${created.body.id}`, { flags: 0 });
    expect(edit.body.errors.flags._errors[0].code).toBe('MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG');
  });

  it('enforce_nonce returns the earlier message for the same nonce; without it a second message is created', async () => {
    const a = await send({ content: 'n', nonce: 'abc', enforce_nonce: true });
    const b = await send({ content: 'n', nonce: 'abc', enforce_nonce: true });
    expect(b.body.id).toBe(a.body.id);
    const c = await send({ content: 'n', nonce: 'abc' });
    expect(c.body.id).not.toBe(a.body.id);
  });

  it('a forward carries a snapshot and HAS_SNAPSHOT; a reply is type 19 with the reference', async () => {
    const source = await send({ content: 'original', embeds: [{ title: 'e' }] });
    const forward = await send({ message_reference: { type: 1, message_id: source.body.id, channel_id: f.generalId } });
    expect(forward.status, forward.text).toBe(200);
    expect(forward.body.flags & (1 << 14)).toBe(1 << 14);
    expect(forward.body.message_snapshots[0].message).toMatchObject({ content: 'original', type: 0 });
    expect(forward.body.message_snapshots[0].message.author).toBeUndefined();
    const reply = await send({ content: 'answer', message_reference: { message_id: source.body.id } });
    expect(reply.body).toMatchObject({ type: 19, message_reference: { message_id: source.body.id } });
  });

  it('attachments via multipart: description, is_spoiler and the SPOILER_ prefix, served at their url; 10 MiB each', async () => {
    const response = await botMultipart(f, 'POST', `/channels/${f.generalId}/messages`, [
      {
        name: 'payload_json',
        type: 'application/json',
        body: JSON.stringify({
          content: 'files',
          attachments: [{ id: 0, description: 'first', is_spoiler: true }, { id: 1 }],
        }),
      },
      { name: 'files[0]', filename: 'a.txt', type: 'text/plain', body: 'aaa' },
      { name: 'files[1]', filename: 'SPOILER_b.txt', type: 'text/plain', body: 'bbb' },
    ]);
    expect(response.status, response.text).toBe(200);
    const [a, b] = response.body.attachments;
    expect(a).toMatchObject({ filename: 'a.txt', description: 'first', size: 3, flags: 8 });
    expect(b).toMatchObject({ filename: 'SPOILER_b.txt', flags: 8 });
    expect((await request(a.url)).text).toBe('aaa');
    const big = await botMultipart(f, 'POST', `/channels/${f.generalId}/messages`, [
      { name: 'payload_json', body: JSON.stringify({ content: 'big' }) },
      { name: 'files[0]', filename: 'big.bin', body: Buffer.alloc(10 * 1024 * 1024 + 1) },
    ]);
    expect([big.status, big.body.code]).toEqual([413, 40005]);
  });

  it('edit and delete: others’ messages need MANAGE_MESSAGES to delete and cannot be edited (50005)', async () => {
    const theirs = await botCall(f, 'POST', `/dev/channels/${f.generalId}/messages`, {
      author_id: f.memberId,
      content: 'user text',
    });
    expect(
      (await botCall(f, 'PATCH', `/channels/${f.generalId}/messages/${theirs.body.id}`, { content: 'x' })).body.code,
    ).toBe(50005);
    expect((await botCall(f, 'DELETE', `/channels/${f.generalId}/messages/${theirs.body.id}`)).status).toBe(204);
    expect((await botCall(f, 'GET', `/channels/${f.generalId}/messages/${theirs.body.id}`)).body.code).toBe(10008);
  });

  it('bulk delete takes 2–100 ids', async () => {
    expect(
      (await botCall(f, 'POST', `/channels/${f.generalId}/messages/bulk-delete`, { messages: ['1'] })).body.errors
        .messages._errors[0].code,
    ).toBe('BASE_TYPE_MIN_LENGTH');
    const ids = [(await send({ content: '1' })).body.id, (await send({ content: '2' })).body.id];
    expect((await botCall(f, 'POST', `/channels/${f.generalId}/messages/bulk-delete`, { messages: ids })).status).toBe(
      204,
    );
  });

  it('unknown channel 10003; a channel of a guild the bot is not in 50001', async () => {
    expect((await botCall(f, 'POST', '/channels/123/messages', { content: 'x' })).body.code).toBe(10003);
    const devGuild = f.platform.store.guilds.findByName('Dev Guild')!;
    const devChannel = f.platform.store.guilds.findChannelByName(devGuild.id, 'general')!;
    expect((await botCall(f, 'POST', `/channels/${devChannel.id}/messages`, { content: 'x' })).body.code).toBe(50001);
  });
});

describe('pins', () => {
  let f: BotFixture;
  beforeAll(async () => {
    f = await startBotPlatform();
  });
  afterAll(() => f.platform.close());
  const post = async (content: string) =>
    (await botCall(f, 'POST', `/channels/${f.generalId}/messages`, { content })).body.id as string;

  it('pins paginate by pin time; the deprecated route returns an array; both routes pin', async () => {
    const ids = [await post('p1'), await post('p2'), await post('p3')];
    expect((await botCall(f, 'PUT', `/channels/${f.generalId}/messages/pins/${ids[0]}`)).status).toBe(204);
    await new Promise((r) => setTimeout(r, 5));
    expect((await botCall(f, 'PUT', `/channels/${f.generalId}/pins/${ids[1]}`)).status).toBe(204);
    await new Promise((r) => setTimeout(r, 5));
    expect((await botCall(f, 'PUT', `/channels/${f.generalId}/messages/pins/${ids[2]}`)).status).toBe(204);
    const page = await botCall(f, 'GET', `/channels/${f.generalId}/messages/pins?limit=2`);
    expect(page.body.items.map((i: any) => i.message.id)).toEqual([ids[2], ids[1]]);
    expect(page.body.has_more).toBe(true);
    const rest = await botCall(
      f,
      'GET',
      `/channels/${f.generalId}/messages/pins?limit=2&before=${encodeURIComponent(page.body.items[1].pinned_at)}`,
    );
    expect(rest.body).toMatchObject({ has_more: false, items: [{ message: { id: ids[0] } }] });
    const old = await botCall(f, 'GET', `/channels/${f.generalId}/pins`);
    expect(old.body.map((m: any) => m.id)).toEqual([ids[2], ids[1], ids[0]]);
  });

  it('at most 250 pins per channel (30003)', async () => {
    const store = f.platform.store.botGuilds;
    const channel = f.platform.store.guilds.findChannelByName(f.guildId, 'general')!;
    const already = store.countPins(channel.id);
    for (let i = already; i < 250; i++) {
      const id = await post(`fill ${i}`);
      store.updateMessage({ ...store.getMessage(channel.id, id)!, pinnedAt: 1000 + i });
    }
    expect(
      (await botCall(f, 'PUT', `/channels/${f.generalId}/messages/pins/${await post('one too many')}`)).body.code,
    ).toBe(30003);
  });

  it('pinning needs PIN_MESSAGES: MANAGE_MESSAGES alone is refused with 50013', async () => {
    const withoutPin = (BigInt(BOT_ROLE_PERMISSIONS) & ~(1n << 51n)).toString();
    const g = await startBotPlatform({ botPermissions: withoutPin });
    try {
      const id = (await botCall(g, 'POST', `/channels/${g.generalId}/messages`, { content: 'x' })).body.id;
      expect((await botCall(g, 'PUT', `/channels/${g.generalId}/messages/pins/${id}`)).body.code).toBe(50013);
    } finally {
      await g.platform.close();
    }
  });
});

describe('content the application cannot read', () => {
  it('without the MESSAGE_CONTENT grant, others’ messages read blank over REST and cannot be forwarded (160014)', async () => {
    const g = await startBotPlatform({ messageContent: false });
    try {
      const theirs = await botCall(g, 'POST', `/dev/channels/${g.generalId}/messages`, {
        author_id: g.memberId,
        content: 'secret',
      });
      expect((await botCall(g, 'GET', `/channels/${g.generalId}/messages/${theirs.body.id}`)).body.content).toBe('');
      const forward = await botCall(g, 'POST', `/channels/${g.generalId}/messages`, {
        message_reference: { type: 1, message_id: theirs.body.id, channel_id: g.generalId },
      });
      expect([forward.status, forward.body.code]).toEqual([403, 160014]);
    } finally {
      await g.platform.close();
    }
  });
});

describe('guilds, roles, members, voice status, audit log, invites', () => {
  let f: BotFixture;
  beforeAll(async () => {
    f = await startBotPlatform();
  });
  afterAll(() => f.platform.close());

  it('/applications/@me carries flags and flags_new; POST /guilds stays removed', async () => {
    const app = await botCall(f, 'GET', '/applications/@me');
    expect(app.body).toMatchObject({
      id: f.appId,
      flags: (1 << 15) | (1 << 19),
      flags_new: String((1 << 15) | (1 << 19)),
    });
    expect((await botCall(f, 'POST', '/guilds', { name: 'new' })).status).toBe(404);
  });

  it('roles: deprecated color still works, gradient colors need ENHANCED_ROLE_COLORS, member counts exclude @everyone', async () => {
    const role = await botCall(f, 'POST', `/guilds/${f.guildId}/roles`, { name: 'red', color: 0xff0000 });
    expect(role.body).toMatchObject({ color: 0xff0000, colors: { primary_color: 0xff0000, secondary_color: null } });
    const gradient = await botCall(f, 'POST', `/guilds/${f.guildId}/roles`, {
      name: 'g',
      colors: { primary_color: 1, secondary_color: 2 },
    });
    expect(gradient.body.errors.colors._errors[0].code).toBe('BASE_TYPE_INVALID');
    const counts = await botCall(f, 'GET', `/guilds/${f.guildId}/roles/member-counts`);
    expect(counts.body[f.guildId]).toBeUndefined();
    expect(Object.values(counts.body)).toContain(1);
    // A role may not grant what its creator lacks.
    expect(
      (await botCall(f, 'POST', `/guilds/${f.guildId}/roles`, { name: 'admin', permissions: '8' })).body.code,
    ).toBe(50013);
  });

  it('at most 250 roles besides @everyone (30005), and the refused role is not created', async () => {
    const g = await startBotPlatform();
    try {
      const store = g.platform.store.botGuilds;
      const template = store.listRoles(g.guildId).find((role) => role.name === 'Bot Role')!;
      const have = store.listRoles(g.guildId).length - 1;
      // Roles up to the limit written straight to the store (setup), below the bot's own role.
      for (let i = have; i < 250; i++)
        store.upsertRole({
          ...template,
          id: String(4_000_000_000_000_000_000n + BigInt(i)),
          name: `filler ${i}`,
          position: 0,
          permissions: '0',
        });
      const refused = await botCall(g, 'POST', `/guilds/${g.guildId}/roles`, { name: 'one too many' });
      expect([refused.status, refused.body.code]).toEqual([400, 30005]);
      expect(store.listRoles(g.guildId).some((role) => role.name === 'one too many')).toBe(false);
    } finally {
      await g.platform.close();
    }
  });

  it('members: Modify Current Member sets banner, avatar and bio (≤ 190); Modify Guild Member changes only BYPASSES_VERIFICATION', async () => {
    const me = await botCall(f, 'PATCH', `/guilds/${f.guildId}/members/@me`, {
      bio: 'hello',
      banner: 'data:image/png;base64,AAAA',
      avatar: null,
    });
    expect(me.body).toMatchObject({ bio: 'hello', user: { id: f.botUserId } });
    expect(me.body.banner).toEqual(expect.any(String));
    expect(
      (await botCall(f, 'PATCH', `/guilds/${f.guildId}/members/@me`, { bio: 'x'.repeat(191) })).body.errors.bio
        ._errors[0].code,
    ).toBe('BASE_TYPE_MAX_LENGTH');
    const flags = await botCall(f, 'PATCH', `/guilds/${f.guildId}/members/${f.memberId}`, { flags: 1 });
    expect(flags.body.errors.flags._errors[0].code).toBe('BASE_TYPE_INVALID');
    const bypass = await botCall(f, 'PATCH', `/guilds/${f.guildId}/members/${f.memberId}`, { flags: 4 });
    expect(bypass.body.flags).toBe(4);
  });

  it('listing members needs the GUILD_MEMBERS grant (50001 without it)', async () => {
    expect((await botCall(f, 'GET', `/guilds/${f.guildId}/members?limit=1000`)).body).toHaveLength(3);
    const g = await startBotPlatform({ guildMembers: false });
    try {
      expect((await botCall(g, 'GET', `/guilds/${g.guildId}/members`)).body.code).toBe(50001);
    } finally {
      await g.platform.close();
    }
  });

  it('voice status: ≤ 500 characters, voice channels only (50024), audit entries 192 / 193 with the decoded reason', async () => {
    expect(
      (await botCall(f, 'PUT', `/channels/${f.voiceId}/voice-status`, { status: 'x'.repeat(501) })).body.errors.status
        ._errors[0].code,
    ).toBe('BASE_TYPE_MAX_LENGTH');
    expect((await botCall(f, 'PUT', `/channels/${f.generalId}/voice-status`, { status: 'x' })).body.code).toBe(50024);
    const reason = { 'x-audit-log-reason': encodeURIComponent('raid time ✓') };
    expect((await botCall(f, 'PUT', `/channels/${f.voiceId}/voice-status`, { status: 'Raid' }, reason)).status).toBe(
      204,
    );
    expect((await botCall(f, 'PUT', `/channels/${f.voiceId}/voice-status`, { status: null })).status).toBe(204);
    const log = await botCall(f, 'GET', `/guilds/${f.guildId}/audit-logs?limit=2`);
    expect(log.body.audit_log_entries.map((e: any) => e.action_type)).toEqual([193, 192]);
    expect(log.body.audit_log_entries[1]).toMatchObject({
      reason: 'raid time ✓',
      options: { status: 'Raid', channel_id: f.voiceId },
    });
    expect(
      (await botCall(f, 'GET', `/guilds/${f.guildId}/audit-logs?action_type=192`)).body.audit_log_entries,
    ).toHaveLength(1);
  });

  it('voice status needs MANAGE_CHANNELS besides SET_VOICE_CHANNEL_STATUS when the bot is not in the channel (50013)', async () => {
    const g = await startBotPlatform({ botPermissions: (BigInt(BOT_ROLE_PERMISSIONS) & ~(1n << 4n)).toString() });
    try {
      expect((await botCall(g, 'PUT', `/channels/${g.voiceId}/voice-status`, { status: 'x' })).body.code).toBe(50013);
    } finally {
      await g.platform.close();
    }
  });

  it('invites: role_ids come back as partial roles; a bad target-users file names its lines; the targets read back as CSV', async () => {
    const role = await botCall(f, 'POST', `/guilds/${f.guildId}/roles`, { name: 'invitee' });
    const invite = await botCall(f, 'POST', `/channels/${f.generalId}/invites`, { role_ids: [role.body.id] });
    expect(invite.status, invite.text).toBe(200);
    expect(invite.body.roles).toEqual([
      {
        id: role.body.id,
        name: 'invitee',
        position: role.body.position,
        color: 0,
        colors: role.body.colors,
        icon: null,
        unicode_emoji: null,
      },
    ]);
    const listed = await botCall(f, 'GET', `/channels/${f.generalId}/invites`);
    expect(listed.body.map((i: any) => i.code)).toContain(invite.body.code);

    const bad = await botMultipart(f, 'POST', `/channels/${f.generalId}/invites`, [
      { name: 'payload_json', body: '{}' },
      {
        name: 'target_users_file',
        filename: 'users.csv',
        type: 'text/csv',
        body: `user_id\n${f.memberId}\nnot-an-id\n`,
      },
    ]);
    expect(bad.body.errors.target_users_file._errors[0].message).toBe(
      'Line 3: invalid user ID - must be a valid Discord snowflake',
    );

    const ok = await botMultipart(f, 'POST', `/channels/${f.generalId}/invites`, [
      { name: 'payload_json', body: '{}' },
      {
        name: 'target_users_file',
        filename: 'users.csv',
        type: 'text/csv',
        body: `${f.memberId}\n${f.memberId}\n${f.ownerId}\n`,
      },
    ]);
    const csv = await botCall(f, 'GET', `/invites/${ok.body.code}/target-users`);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const lines = csv.text.trim().split('\n');
    expect(lines[0]).toBe('user_id');
    expect(lines.slice(1).sort()).toEqual([f.memberId, f.ownerId].sort());
    expect((await botCall(f, 'GET', `/invites/${ok.body.code}/target-users/job-status`)).body).toMatchObject({
      status: 2,
      total_users: 2,
      processed_users: 2,
    });
    expect((await botCall(f, 'GET', '/invites/nope/target-users')).body.code).toBe(10006);
  });

  it('Delete Invite answers the invite, fires INVITE_DELETE, writes audit 42 with the reason; the code is gone', async () => {
    const session = await botSession(f, INTENTS.GUILDS | INTENTS.GUILD_INVITES);
    try {
      const invite = await botCall(f, 'POST', `/channels/${f.generalId}/invites`, { max_age: 60 });
      const deleted = await botCall(f, 'DELETE', `/invites/${invite.body.code}`, undefined, {
        'x-audit-log-reason': encodeURIComponent('spam ✓'),
      });
      expect(deleted.status, deleted.text).toBe(200);
      expect(deleted.body).toMatchObject({ code: invite.body.code, max_age: 60, channel: { id: f.generalId } });
      expect(await session.next('INVITE_DELETE')).toEqual({
        channel_id: f.generalId,
        guild_id: f.guildId,
        code: invite.body.code,
      });
      expect((await botCall(f, 'GET', `/invites/${invite.body.code}`)).body.code).toBe(10006);
      expect((await botCall(f, 'DELETE', `/invites/${invite.body.code}`)).body.code).toBe(10006);
      const log = await botCall(f, 'GET', `/guilds/${f.guildId}/audit-logs?action_type=42`);
      expect(log.body.audit_log_entries).toEqual([
        expect.objectContaining({ action_type: 42, target_id: invite.body.code, reason: 'spam ✓' }),
      ]);
    } finally {
      session.close();
    }
  });

  it('role_ids need MANAGE_ROLES (50013)', async () => {
    const g = await startBotPlatform({ botPermissions: (BigInt(BOT_ROLE_PERMISSIONS) & ~(1n << 28n)).toString() });
    try {
      const response = await botCall(g, 'POST', `/channels/${g.generalId}/invites`, { role_ids: [g.guildId] });
      expect(response.body.code).toBe(50013);
    } finally {
      await g.platform.close();
    }
  });
});

describe('prune', () => {
  it('needs MANAGE_GUILD and KICK_MEMBERS; counts and removes role-less members who joined more than `days` ago', async () => {
    const f = await startBotPlatform();
    try {
      expect((await botCall(f, 'GET', `/guilds/${f.guildId}/prune?days=1`)).body.code).toBe(50013);
      const store = f.platform.store.botGuilds;
      const botRole = store.listRoles(f.guildId).find((role) => role.name === 'Bot Role')!;
      store.upsertRole({ ...botRole, permissions: String(BigInt(botRole.permissions) | (1n << 1n) | (1n << 5n)) });
      const bob = store.getMember(f.guildId, f.memberId)!;
      store.upsertMember({ ...bob, joinedAt: Date.now() - 3 * 86_400_000 });
      expect((await botCall(f, 'GET', `/guilds/${f.guildId}/prune?days=1`)).body).toEqual({ pruned: 1 });
      expect((await botCall(f, 'GET', `/guilds/${f.guildId}/prune?days=5`)).body).toEqual({ pruned: 0 });
      expect((await botCall(f, 'GET', `/guilds/${f.guildId}/prune?days=31`)).body.errors.days._errors[0].code).toBe(
        'NUMBER_TYPE_MAX',
      );
      expect((await botCall(f, 'POST', `/guilds/${f.guildId}/prune`, { days: 1 })).body).toEqual({ pruned: 1 });
      expect(store.getMember(f.guildId, f.memberId)).toBeUndefined();
      const log = await botCall(f, 'GET', `/guilds/${f.guildId}/audit-logs?action_type=21`);
      expect(log.body.audit_log_entries[0]).toMatchObject({
        action_type: 21,
        options: { delete_member_days: '1', members_removed: '1' },
      });
    } finally {
      await f.platform.close();
    }
  });
});

describe('permission overwrites', () => {
  it('a role overwrite denies, a member overwrite allows again; overwrites carry allow_new / deny_new; roles permissions_new', async () => {
    const f = await startBotPlatform();
    try {
      const store = f.platform.store.botGuilds;
      const channel = f.platform.store.guilds.findChannelByName(f.guildId, 'general')!;
      const botRole = store.listRoles(f.guildId).find((role) => role.name === 'Bot Role')!;
      const SEND = String(1n << 11n);
      // @everyone also grants SEND_MESSAGES: the role overwrite must deny it for the bot to lose it.
      store.setChannelSettings({
        ...store.channelSettings(channel.id),
        overwrites: [{ id: botRole.id, type: 0, allow: '0', deny: SEND }],
      });
      expect((await botCall(f, 'POST', `/channels/${f.generalId}/messages`, { content: 'x' })).body.code).toBe(50013);
      store.setChannelSettings({
        ...store.channelSettings(channel.id),
        overwrites: [
          { id: botRole.id, type: 0, allow: '0', deny: SEND },
          { id: f.botUserId, type: 1, allow: SEND, deny: '0' },
        ],
      });
      expect((await botCall(f, 'POST', `/channels/${f.generalId}/messages`, { content: 'x' })).status).toBe(200);
      const got = await botCall(f, 'GET', `/channels/${f.generalId}`);
      expect(got.body.permission_overwrites[1]).toEqual({
        id: f.botUserId,
        type: 1,
        allow: SEND,
        deny: '0',
        allow_new: SEND,
        deny_new: '0',
      });
      const roles = await botCall(f, 'GET', `/guilds/${f.guildId}/roles`);
      expect(
        roles.body.every(
          (role: { permissions: string; permissions_new: string }) => role.permissions_new === role.permissions,
        ),
      ).toBe(true);
      // An @everyone overwrite denying VIEW_CHANNEL hides the channel (50001) although the bot's role grants it…
      const VIEW = String(1n << 10n);
      store.setChannelSettings({
        ...store.channelSettings(channel.id),
        overwrites: [{ id: f.guildId, type: 0, allow: '0', deny: VIEW }],
      });
      expect((await botCall(f, 'POST', `/channels/${f.generalId}/messages`, { content: 'x' })).body.code).toBe(50001);
      // …until a role overwrite allows it again.
      store.setChannelSettings({
        ...store.channelSettings(channel.id),
        overwrites: [
          { id: f.guildId, type: 0, allow: '0', deny: VIEW },
          { id: botRole.id, type: 0, allow: VIEW, deny: '0' },
        ],
      });
      expect((await botCall(f, 'POST', `/channels/${f.generalId}/messages`, { content: 'x' })).status).toBe(200);
    } finally {
      await f.platform.close();
    }
  });
});

describe('search guild messages', () => {
  it('answers 202 110000 while the index is built, then filters by content, author, channel and pinned, with paging', async () => {
    const f = await startBotPlatform();
    try {
      const first = await botCall(f, 'GET', `/guilds/${f.guildId}/messages/search?content=x`);
      expect([first.status, first.body.code]).toEqual([202, 110000]);
      expect(first.body.retry_after).toBeGreaterThan(0);
      const mine = (await botCall(f, 'POST', `/channels/${f.generalId}/messages`, { content: 'Needle in a haystack' }))
        .body.id;
      await botCall(f, 'POST', `/dev/channels/${f.generalId}/messages`, {
        author_id: f.memberId,
        content: 'another needle',
      });
      await botCall(f, 'POST', `/channels/${f.generalId}/messages`, { content: 'hay only' });
      const byContent = await botCall(f, 'GET', `/guilds/${f.guildId}/messages/search?content=needle`);
      expect(byContent.body.total_results).toBe(2);
      expect(byContent.body.messages.map((m: any[]) => m[0].content)).toEqual([
        'another needle',
        'Needle in a haystack',
      ]);
      const byAuthor = await botCall(
        f,
        'GET',
        `/guilds/${f.guildId}/messages/search?content=needle&author_id=${f.botUserId}`,
      );
      expect(byAuthor.body.messages.map((m: any[]) => m[0].id)).toEqual([mine]);
      const paged = await botCall(
        f,
        'GET',
        `/guilds/${f.guildId}/messages/search?content=needle&limit=1&offset=1&sort_order=asc`,
      );
      expect(paged.body).toMatchObject({ total_results: 2, messages: [[{ content: 'another needle' }]] });
      const otherChannel = await botCall(f, 'GET', `/guilds/${f.guildId}/messages/search?channel_id=${f.voiceId}`);
      expect(otherChannel.body.total_results).toBe(0);
      expect(
        (await botCall(f, 'GET', `/guilds/${f.guildId}/messages/search?limit=26`)).body.errors.limit._errors[0].code,
      ).toBe('NUMBER_TYPE_MAX');
    } finally {
      await f.platform.close();
    }
  });

  it('needs the application’s MESSAGE_CONTENT grant (50001)', async () => {
    const f = await startBotPlatform({ messageContent: false });
    try {
      expect((await botCall(f, 'GET', `/guilds/${f.guildId}/messages/search`)).body.code).toBe(50001);
    } finally {
      await f.platform.close();
    }
  });
});

describe('application emoji', () => {
  const PNG =
    'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk' +
    '+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
  it('own application only; names unique and 2–32 word characters; at most 2,000 (30008); unknown 10014', async () => {
    const f = await startBotPlatform();
    try {
      const base = `/applications/${f.appId}/emojis`;
      const made = await botCall(f, 'POST', base, { name: 'party', image: PNG });
      expect(made.status, made.text).toBe(201);
      expect(made.body).toMatchObject({ name: 'party', animated: false, available: true });
      expect((await botCall(f, 'POST', base, { name: 'party', image: PNG })).body.errors.name._errors[0].code).toBe(
        'APPLICATION_EMOJI_NAME_ALREADY_TAKEN',
      );
      expect((await botCall(f, 'POST', base, { name: 'a', image: PNG })).body.errors.name._errors[0].code).toBe(
        'BASE_TYPE_MIN_LENGTH',
      );
      expect((await botCall(f, 'POST', base, { name: 'no-dash', image: 'not a data uri' })).body.errors).toMatchObject({
        name: {},
        image: {},
      });
      expect((await botCall(f, 'GET', `/applications/${f.platform.devApp.id}/emojis`)).body.code).toBe(50001);
      expect((await botCall(f, 'GET', `${base}/123`)).body.code).toBe(10014);
      // Fill up to the limit through the store (setup), then the API refuses the next one.
      const store = f.platform.store.botGuilds;
      f.platform.store.transaction(() => {
        for (let i = store.countEmojis(f.appId); i < 2000; i++)
          store.upsertEmoji({
            id: String(3_000_000_000_000_000_000n + BigInt(i)),
            applicationId: f.appId,
            name: `e${i}`,
            image: 'x',
            userId: f.botUserId,
            animated: false,
          });
      });
      expect((await botCall(f, 'POST', base, { name: 'overflow', image: PNG })).body.code).toBe(30008);
      expect((await botCall(f, 'GET', base)).body.items).toHaveLength(2000);
    } finally {
      await f.platform.close();
    }
  });
});
