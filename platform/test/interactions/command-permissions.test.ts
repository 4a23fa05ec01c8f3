/**
 * Command permissions (PROTOCOL.md §17.9): the three published routes with their authorization (Bearer with
 * applications.commands.permissions.update for the PUT; bot tokens refused), ≤ 100 overwrites, the
 * APPLICATION_COMMAND_PERMISSIONS_UPDATE dispatch, and their effect — with default_member_permissions — when a user
 * invokes a command through the development route. Real platform, real HTTP and gateway.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBotPlatform } from '../bot/fixture.js';
import { botCall, botSession, INTENTS } from '../bot/helpers.js';
import { bearer, request } from '../support/http.js';
import { accessTokenFor, testClock } from '../support/platform.js';
import { createCommand, trigger, type InteractionFixture } from './support.js';

const SCOPE = 'applications.commands.permissions.update';
const REDIRECT = 'http://127.0.0.1:5555/callback';
const MANAGE_GUILD = (1n << 5n).toString();

let f: InteractionFixture;
let session: Awaited<ReturnType<typeof botSession>>;
let aliceToken: string;
let bobToken: string;
let modRoleId: string;

beforeAll(async () => {
  const clock = testClock();
  const fixture = await startBotPlatform({
    extra: { now: clock.now },
    application: { redirect_uris: [REDIRECT], public_client: true },
    lowerRoles: [{ name: 'Mods', members: ['bob'] }],
  });
  f = { ...fixture, clock };
  session = await botSession(f, INTENTS.GUILDS);
  aliceToken = (
    await accessTokenFor(f.platform, {
      clientId: f.appId,
      scope: `identify ${SCOPE}`,
      user: 'alice',
      redirectUri: REDIRECT,
    })
  ).access_token;
  bobToken = (
    await accessTokenFor(f.platform, {
      clientId: f.appId,
      scope: `identify ${SCOPE}`,
      user: 'bob',
      redirectUri: REDIRECT,
    })
  ).access_token;
  modRoleId = f.platform.store.botGuilds.listRoles(f.guildId).find((role) => role.name === 'Mods')!.id;
});
afterAll(async () => {
  session?.close();
  await f?.platform.close();
});

const path = (commandId?: string) =>
  `${f.platform.apiBase}/applications/${f.appId}/guilds/${f.guildId}/commands/` +
  `${commandId === undefined ? '' : `${commandId}/`}permissions`;
const put = (commandId: string, permissions: unknown[], token = aliceToken) =>
  request(path(commandId), { method: 'PUT', headers: bearer(token), json: { permissions } });
const invoke = (commandId: string, userId: string, channelId = f.generalId) =>
  trigger(f, { type: 2, user_id: userId, application_id: f.appId, channel_id: channelId, command_id: commandId });

describe('command permission routes', () => {
  it('PUT with a Bearer token replaces the overwrites, fires APPLICATION_COMMAND_PERMISSIONS_UPDATE; GET one and all with the bot token', async () => {
    const id = await createCommand(f, { name: 'ban', description: 'x' });
    const permissions = [
      { id: modRoleId, type: 1, permission: true },
      { id: f.ownerId, type: 2, permission: false },
    ];
    const saved = await put(id, permissions);
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body).toEqual({ id, application_id: f.appId, guild_id: f.guildId, permissions });
    expect(await session.next('APPLICATION_COMMAND_PERMISSIONS_UPDATE')).toEqual(saved.body);

    const one = await botCall(f, 'GET', `/applications/${f.appId}/guilds/${f.guildId}/commands/${id}/permissions`);
    expect(one.status, one.text).toBe(200);
    expect(one.body).toEqual(saved.body);
    const all = await botCall(f, 'GET', `/applications/${f.appId}/guilds/${f.guildId}/commands/permissions`);
    expect(all.body).toContainEqual(saved.body);
    // A Bearer token of the application with the scope reads them too.
    expect((await request(path(id), { headers: bearer(bobToken) })).body).toEqual(saved.body);

    const replaced = await put(id, [{ id: f.guildId, type: 1, permission: false }]);
    expect(replaced.body.permissions).toEqual([{ id: f.guildId, type: 1, permission: false }]);
    expect(
      (await botCall(f, 'GET', `/applications/${f.appId}/guilds/${f.guildId}/commands/${id}/permissions`)).body
        .permissions,
    ).toHaveLength(1);
  });

  it('refuses bot tokens (20001), tokens without the scope (50026), members who cannot manage the guild and roles (50013), another application (50001), no credentials (401)', async () => {
    const id = await createCommand(f, { name: 'kick', description: 'x' });
    const body = { permissions: [{ id: f.guildId, type: 1, permission: false }] };
    const asBot = await botCall(
      f,
      'PUT',
      `/applications/${f.appId}/guilds/${f.guildId}/commands/${id}/permissions`,
      body,
    );
    expect(asBot.status).toBe(403);
    expect(asBot.body.code).toBe(20001);
    const narrow = (
      await accessTokenFor(f.platform, { clientId: f.appId, scope: 'identify', user: 'alice', redirectUri: REDIRECT })
    ).access_token;
    const noScope = await put(id, body.permissions, narrow);
    expect(noScope.status).toBe(403);
    expect(noScope.body.code).toBe(50026);
    const bob = await put(id, body.permissions, bobToken);
    expect(bob.status).toBe(403);
    expect(bob.body.code).toBe(50013);
    const otherApp = (
      await accessTokenFor(f.platform, { clientId: f.platform.devApp.id, scope: `identify ${SCOPE}`, user: 'alice' })
    ).access_token;
    const wrongApp = await put(id, body.permissions, otherApp);
    expect(wrongApp.status).toBe(403);
    expect(wrongApp.body.code).toBe(50001);
    expect((await request(path(id), { method: 'PUT', json: body })).status).toBe(401);
    expect((await request(path(id))).status).toBe(401);
    // Nothing was written by any of them.
    expect(
      (await botCall(f, 'GET', `/applications/${f.appId}/guilds/${f.guildId}/commands/${id}/permissions`)).body.code,
    ).toBe(10066);
  });

  it('refuses bad input: more than 100 overwrites, bad types and ids, unknown roles, users or channels, duplicates; unknown command 10063, guild 10004', async () => {
    const id = await createCommand(f, { name: 'mute', description: 'x' });
    const field = async (permissions: unknown[]) => {
      const response = await put(id, permissions);
      expect(response.status, response.text).toBe(400);
      expect(response.body.code).toBe(50035);
      return response.body.errors;
    };
    const many = Array.from({ length: 101 }, (_, i) => ({ id: String(10_000 + i), type: 2, permission: true }));
    expect((await field(many)).permissions._errors[0].code).toBe('BASE_TYPE_MAX_LENGTH');
    expect((await field([{ id: f.guildId, type: 4, permission: true }])).permissions['0'].type).toBeDefined();
    expect((await field([{ id: 'abc', type: 1, permission: true }])).permissions['0'].id).toBeDefined();
    expect((await field([{ id: f.guildId, type: 1, permission: 'yes' }])).permissions['0'].permission).toBeDefined();
    expect((await field([{ id: '123', type: 1, permission: true }])).permissions['0'].id._errors[0].code).toBe(
      'APPLICATION_COMMAND_PERMISSIONS_UNKNOWN_TARGET',
    );
    expect((await field([{ id: '123', type: 2, permission: true }])).permissions['0'].id._errors[0].code).toBe(
      'APPLICATION_COMMAND_PERMISSIONS_UNKNOWN_TARGET',
    );
    expect((await field([{ id: '123', type: 3, permission: true }])).permissions['0'].id._errors[0].code).toBe(
      'APPLICATION_COMMAND_PERMISSIONS_UNKNOWN_TARGET',
    );
    expect(
      (
        await field([
          { id: f.memberId, type: 2, permission: true },
          { id: f.memberId, type: 2, permission: false },
        ])
      ).permissions['1'].id._errors[0].code,
    ).toBe('APPLICATION_COMMAND_PERMISSIONS_DUPLICATE');
    expect((await put('999', [])).body.code).toBe(10063);
    expect(
      (
        await request(`${f.platform.apiBase}/applications/${f.appId}/guilds/999/commands/${id}/permissions`, {
          method: 'PUT',
          headers: bearer(aliceToken),
          json: { permissions: [] },
        })
      ).body.code,
    ).toBe(10004);
    expect(
      (await botCall(f, 'GET', `/applications/${f.appId}/guilds/${f.guildId}/commands/999/permissions`)).body.code,
    ).toBe(10063);
    expect((await botCall(f, 'GET', `/applications/999/guilds/${f.guildId}/commands/permissions`)).body.code).toBe(
      50001,
    );
    // "All channels" (guild id − 1) and @everyone (the guild id) are valid targets.
    expect(
      (
        await put(id, [
          { id: (BigInt(f.guildId) - 1n).toString(), type: 3, permission: true },
          { id: f.guildId, type: 1, permission: true },
        ])
      ).status,
    ).toBe(200);
  });
});

describe('enforcement when a user invokes a command', () => {
  it('default_member_permissions: members without the bits get 403 50013; "0" admits only administrators', async () => {
    const manage = await createCommand(f, {
      name: 'settings',
      description: 'x',
      default_member_permissions: MANAGE_GUILD,
    });
    expect((await invoke(manage, f.memberId)).body.code).toBe(50013);
    expect((await invoke(manage, f.ownerId)).status).toBe(200);
    const disabled = await createCommand(f, { name: 'disabled', description: 'x', default_member_permissions: '0' });
    expect((await invoke(disabled, f.memberId)).body.code).toBe(50013);
    expect((await invoke(disabled, f.ownerId)).status).toBe(200);
  });

  it('a user or role overwrite wins over default_member_permissions; a denied channel refuses everyone', async () => {
    const id = await createCommand(f, { name: 'purge', description: 'x', default_member_permissions: MANAGE_GUILD });
    expect((await invoke(id, f.memberId)).body.code).toBe(50013);
    expect((await put(id, [{ id: modRoleId, type: 1, permission: true }])).status).toBe(200);
    expect((await invoke(id, f.memberId)).status).toBe(200);
    expect(
      (
        await put(id, [
          { id: modRoleId, type: 1, permission: true },
          { id: f.memberId, type: 2, permission: false },
        ])
      ).status,
    ).toBe(200);
    expect((await invoke(id, f.memberId)).body.code).toBe(50013);
    expect((await put(id, [{ id: f.generalId, type: 3, permission: false }])).status).toBe(200);
    expect((await invoke(id, f.ownerId)).body.code).toBe(50013);
    expect((await invoke(id, f.ownerId, f.voiceId)).status).toBe(200);
  });

  it('application-wide overwrites (under the application id) apply to commands without their own; deleting a command drops its permissions', async () => {
    const a = await createCommand(f, { name: 'alpha', description: 'x' });
    const b = await createCommand(f, { name: 'beta', description: 'x' });
    expect((await put(f.appId, [{ id: f.guildId, type: 1, permission: false }])).status).toBe(200);
    expect(
      (await botCall(f, 'GET', `/applications/${f.appId}/guilds/${f.guildId}/commands/${f.appId}/permissions`)).body.id,
    ).toBe(f.appId);
    expect((await invoke(a, f.memberId)).body.code).toBe(50013);
    expect((await put(b, [{ id: f.guildId, type: 1, permission: true }])).status).toBe(200);
    expect((await invoke(b, f.memberId)).status).toBe(200);
    expect((await put(f.appId, [])).status).toBe(200);
    expect((await invoke(a, f.memberId)).status).toBe(200);

    expect((await botCall(f, 'DELETE', `/applications/${f.appId}/commands/${b}`)).status).toBe(204);
    const all = await botCall(f, 'GET', `/applications/${f.appId}/guilds/${f.guildId}/commands/permissions`);
    expect(all.body.map((entry: any) => entry.id)).not.toContain(b);
  });
});

describe('who may edit command permissions (published: run the command, manage what changes)', () => {
  const BAN_MEMBERS = (1n << 2n).toString();
  const MANAGE_ROLES = 1n << 28n;
  let g: Awaited<ReturnType<typeof startBotPlatform>>;
  let bob: string;
  let alice: string;
  const roleId = (name: string) =>
    g.platform.store.botGuilds.listRoles(g.guildId).find((role) => role.name === name)!.id;
  const edit = (commandId: string, permissions: unknown[], token = bob) =>
    request(`${g.platform.apiBase}/applications/${g.appId}/guilds/${g.guildId}/commands/${commandId}/permissions`, {
      method: 'PUT',
      headers: bearer(token),
      json: { permissions },
    });
  const stored = async (commandId: string) =>
    (await botCall(g, 'GET', `/applications/${g.appId}/guilds/${g.guildId}/commands/${commandId}/permissions`)).body
      .permissions ?? null;

  beforeAll(async () => {
    // Bob manages the guild and its roles (not an administrator); "Low" is below his role, "High" above it.
    g = await startBotPlatform({
      application: { redirect_uris: [REDIRECT], public_client: true },
      lowerRoles: [
        { name: 'Low', permissions: '0' },
        { name: 'Managers', permissions: ((1n << 5n) | MANAGE_ROLES).toString(), members: ['bob'] },
        { name: 'High', permissions: '0' },
      ],
    });
    bob = (
      await accessTokenFor(g.platform, {
        clientId: g.appId,
        scope: `identify ${SCOPE}`,
        user: 'bob',
        redirectUri: REDIRECT,
      })
    ).access_token;
    alice = (
      await accessTokenFor(g.platform, {
        clientId: g.appId,
        scope: `identify ${SCOPE}`,
        user: 'alice',
        redirectUri: REDIRECT,
      })
    ).access_token;
  });
  afterAll(async () => {
    await g?.platform.close();
  });

  it('a command gated on bits the editor lacks cannot be opened to anyone, nor the application’s entry while such a command exists (50013)', async () => {
    const ban = await createCommand(g, { name: 'ban', description: 'x', default_member_permissions: BAN_MEMBERS });
    const refused = await edit(ban, [{ id: g.guildId, type: 1, permission: true }]);
    expect([refused.status, refused.body.code]).toEqual([403, 50013]);
    const appWide = await edit(g.appId, [{ id: g.guildId, type: 1, permission: true }]);
    expect([appWide.status, appWide.body.code]).toEqual([403, 50013]);
    expect([await stored(ban), await stored(g.appId)]).toEqual([null, null]);
    // The owner (who can run it) may; and once the owner let Bob's role run it, Bob may edit it too.
    expect((await edit(ban, [{ id: roleId('Managers'), type: 1, permission: true }], alice)).status).toBe(200);
    const kept = [
      { id: roleId('Managers'), type: 1, permission: true },
      { id: roleId('Low'), type: 1, permission: true },
    ];
    expect((await edit(ban, kept)).status).toBe(200);
    expect(await stored(ban)).toEqual(kept);
    expect((await botCall(g, 'DELETE', `/applications/${g.appId}/commands/${ban}`)).status).toBe(204);
  });

  it('only what the editor manages may change: roles below its highest (and @everyone), members below it (and itself), channels where it holds MANAGE_ROLES', async () => {
    const open = await createCommand(g, { name: 'open', description: 'x' });
    const store = g.platform.store.botGuilds;
    store.setChannelSettings({
      ...store.channelSettings(g.voiceId),
      overwrites: [{ id: g.memberId, type: 1, allow: '0', deny: MANAGE_ROLES.toString() }],
    });
    for (const [what, overwrite] of [
      ['its own highest role', { id: roleId('Managers'), type: 1, permission: false }],
      ['a role above it', { id: roleId('High'), type: 1, permission: false }],
      ['the owner', { id: g.ownerId, type: 2, permission: false }],
      ['a channel where it lacks MANAGE_ROLES', { id: g.voiceId, type: 3, permission: false }],
    ] as const) {
      const answer = await edit(open, [overwrite]);
      expect([what, answer.status, answer.body.code]).toEqual([what, 403, 50013]);
    }
    expect(await stored(open)).toBeNull();
    const allowed = [
      { id: g.guildId, type: 1, permission: false },
      { id: roleId('Low'), type: 1, permission: true },
      { id: g.memberId, type: 2, permission: true },
      { id: g.generalId, type: 3, permission: true },
      { id: (BigInt(g.guildId) - 1n).toString(), type: 3, permission: true },
    ];
    expect((await edit(open, allowed)).status).toBe(200);
    // An entry it could not make, set by the owner, may stay as it is while Bob changes others.
    const withOwners = [...allowed, { id: roleId('High'), type: 1, permission: true }];
    expect((await edit(open, withOwners, alice)).status).toBe(200);
    expect(
      (
        await edit(
          open,
          withOwners.filter((o) => o.id !== roleId('Low')),
        )
      ).status,
    ).toBe(200);
    const removeHigh = await edit(open, allowed);
    expect([removeHigh.status, removeHigh.body.code]).toEqual([403, 50013]);
  });
});
