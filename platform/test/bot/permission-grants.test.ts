/**
 * Who may set permissions (PROTOCOL.md §14.2): a caller without ADMINISTRATOR changes only bits it holds — on a role
 * (@everyone included), in a channel overwrite, or by granting a role that carries them (to a member, to itself,
 * through an invite). The fixture's bot holds MANAGE_ROLES and MANAGE_CHANNELS but not ADMINISTRATOR or
 * KICK_MEMBERS; its roles "Lower Admin" (ADMINISTRATOR) and "Plain" sit below its own, so the hierarchy allows
 * every call here and only the bit rule decides. Real HTTP against a running platform.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startBotPlatform, type BotFixture } from './fixture.js';
import { botCall } from './helpers.js';

const ADMINISTRATOR = 1n << 3n;
const KICK_MEMBERS = 1n << 1n;
/** Held by the fixture's bot role. */
const MANAGE_MESSAGES = 1n << 13n;
const EVERYONE = 2248473465835073n;

let f: BotFixture;
beforeEach(async () => {
  f = await startBotPlatform({
    lowerRoles: [
      { name: 'Lower Admin', permissions: ADMINISTRATOR.toString() },
      { name: 'Plain', permissions: '0' },
    ],
  });
});
afterEach(async () => {
  await f.platform.close();
});

const store = () => f.platform.store.botGuilds;
const role = (name: string) =>
  store()
    .listRoles(f.guildId)
    .find((r) => r.name === name)!;
const everyone = () =>
  store()
    .listRoles(f.guildId)
    .find((r) => r.id === f.guildId);
const rolesOf = (userId: string) => store().getMember(f.guildId, userId)!.roles;
const expectRefused = async (method: string, path: string, body?: unknown) => {
  const answer = await botCall(f, method, path, body);
  expect([method, path, answer.status, answer.body.code]).toEqual([method, path, 403, 50013]);
};

describe('roles', () => {
  it('a MANAGE_ROLES bot cannot make @everyone, or a role below its own, administrator — by edit or by creation — and nothing changes', async () => {
    const everyoneBefore = everyone();
    await expectRefused('PATCH', `/guilds/${f.guildId}/roles/${f.guildId}`, {
      permissions: (EVERYONE | ADMINISTRATOR).toString(),
    });
    await expectRefused('PATCH', `/guilds/${f.guildId}/roles/${role('Plain').id}`, {
      permissions: ADMINISTRATOR.toString(),
    });
    await expectRefused('POST', `/guilds/${f.guildId}/roles`, { name: 'mine', permissions: ADMINISTRATOR.toString() });
    expect(everyone()).toEqual(everyoneBefore);
    expect(role('Plain').permissions).toBe('0');
    expect(
      store()
        .listRoles(f.guildId)
        .some((r) => r.name === 'mine'),
    ).toBe(false);
    // Bits it holds it may set, on @everyone too.
    const plain = await botCall(f, 'PATCH', `/guilds/${f.guildId}/roles/${role('Plain').id}`, {
      permissions: MANAGE_MESSAGES.toString(),
    });
    expect(plain.status, plain.text).toBe(200);
    const widened = await botCall(f, 'PATCH', `/guilds/${f.guildId}/roles/${f.guildId}`, {
      permissions: (EVERYONE | MANAGE_MESSAGES).toString(),
    });
    expect(widened.body.permissions).toBe((EVERYONE | MANAGE_MESSAGES).toString());
  });

  it('bits already there are no change: a role keeping a bit the bot lacks can be renamed and given bits it holds; taking that bit away is refused', async () => {
    store().upsertRole({ ...role('Plain'), permissions: KICK_MEMBERS.toString() });
    const path = `/guilds/${f.guildId}/roles/${role('Plain').id}`;
    expect((await botCall(f, 'PATCH', path, { name: 'renamed' })).status).toBe(200);
    expect(
      (await botCall(f, 'PATCH', path, { permissions: (KICK_MEMBERS | MANAGE_MESSAGES).toString() })).body.permissions,
    ).toBe((KICK_MEMBERS | MANAGE_MESSAGES).toString());
    await expectRefused('PATCH', path, { permissions: MANAGE_MESSAGES.toString() });
    expect(role('renamed').permissions).toBe((KICK_MEMBERS | MANAGE_MESSAGES).toString());
  });
});

describe('granting roles', () => {
  it('a role carrying bits the bot lacks is not granted — to a member, to the bot itself, or through an invite — though it sits below the bot’s role', async () => {
    const admin = role('Lower Admin').id;
    await expectRefused('PUT', `/guilds/${f.guildId}/members/${f.botUserId}/roles/${admin}`);
    await expectRefused('PUT', `/guilds/${f.guildId}/members/${f.memberId}/roles/${admin}`);
    await expectRefused('PATCH', `/guilds/${f.guildId}/members/${f.memberId}`, { roles: [admin] });
    await expectRefused('POST', `/channels/${f.generalId}/invites`, { role_ids: [admin] });
    expect(rolesOf(f.botUserId)).not.toContain(admin);
    expect(rolesOf(f.memberId)).toEqual([]);
    expect(store().listChannelInvites(f.generalId)).toEqual([]);
    // A role whose bits it holds is granted; taking a role away hands nothing over.
    expect(
      (await botCall(f, 'PUT', `/guilds/${f.guildId}/members/${f.memberId}/roles/${role('Plain').id}`)).status,
    ).toBe(204);
    store().upsertMember({ ...store().getMember(f.guildId, f.memberId)!, roles: [role('Plain').id, admin] });
    expect((await botCall(f, 'DELETE', `/guilds/${f.guildId}/members/${f.memberId}/roles/${admin}`)).status).toBe(204);
    expect(rolesOf(f.memberId)).toEqual([role('Plain').id]);
    // A role the member keeps is no grant: dropping Plain while the admin role stays is fine.
    store().upsertMember({ ...store().getMember(f.guildId, f.memberId)!, roles: [role('Plain').id, admin] });
    const kept = await botCall(f, 'PATCH', `/guilds/${f.guildId}/members/${f.memberId}`, { roles: [admin] });
    expect(kept.status, kept.text).toBe(200);
    expect(kept.body.roles).toEqual([admin]);
  });
});

describe('channel overwrites', () => {
  it('allowing or denying bits the bot lacks, or deleting an overwrite that holds them, is refused; bits kept are no change', async () => {
    const settings = store().channelSettings(f.generalId);
    store().setChannelSettings({
      ...settings,
      overwrites: [{ id: f.ownerId, type: 1, allow: '0', deny: KICK_MEMBERS.toString() }],
    });
    await expectRefused('PUT', `/channels/${f.generalId}/permissions/${f.memberId}`, {
      type: 1,
      allow: KICK_MEMBERS.toString(),
    });
    await expectRefused('PUT', `/channels/${f.generalId}/permissions/${f.memberId}`, {
      type: 1,
      deny: ADMINISTRATOR.toString(),
    });
    await expectRefused('PATCH', `/channels/${f.generalId}`, { permission_overwrites: [] });
    await expectRefused('DELETE', `/channels/${f.generalId}/permissions/${f.ownerId}`);
    await expectRefused('POST', `/guilds/${f.guildId}/channels`, {
      name: 'mine',
      permission_overwrites: [{ id: f.memberId, type: 1, allow: KICK_MEMBERS.toString() }],
    });
    expect(store().channelSettings(f.generalId).overwrites).toEqual([
      { id: f.ownerId, type: 1, allow: '0', deny: KICK_MEMBERS.toString() },
    ]);
    // The owner's deny of KICK_MEMBERS kept, MANAGE_MESSAGES (held) added: a change of held bits only.
    const put = await botCall(f, 'PUT', `/channels/${f.generalId}/permissions/${f.ownerId}`, {
      type: 1,
      deny: (KICK_MEMBERS | MANAGE_MESSAGES).toString(),
    });
    expect(put.status, put.text).toBe(204);
    expect(store().channelSettings(f.generalId).overwrites).toEqual([
      { id: f.ownerId, type: 1, allow: '0', deny: (KICK_MEMBERS | MANAGE_MESSAGES).toString() },
    ]);
  });
});

describe('administrators', () => {
  it('a bot holding ADMINISTRATOR sets any bit (the owner holds every bit too)', async () => {
    const botRole = role('Bot Role');
    store().upsertRole({ ...botRole, permissions: (BigInt(botRole.permissions) | ADMINISTRATOR).toString() });
    const widened = await botCall(f, 'PATCH', `/guilds/${f.guildId}/roles/${f.guildId}`, {
      permissions: (EVERYONE | ADMINISTRATOR | KICK_MEMBERS).toString(),
    });
    expect(widened.status, widened.text).toBe(200);
    expect(
      (await botCall(f, 'PUT', `/guilds/${f.guildId}/members/${f.memberId}/roles/${role('Lower Admin').id}`)).status,
    ).toBe(204);
    expect(
      (
        await botCall(f, 'PUT', `/channels/${f.generalId}/permissions/${f.memberId}`, {
          type: 1,
          allow: KICK_MEMBERS.toString(),
        })
      ).status,
    ).toBe(204);
  });
});
