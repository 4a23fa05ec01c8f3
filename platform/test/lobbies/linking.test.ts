/** Channel linking, linked-channel message copies, single-use guild invites, and lobby data on account merge. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bot, request } from '../support/http.js';
import { login } from '../support/platform.js';
import { startLobbyHarness, type LobbyHarness, type TestUser } from './harness.js';

let h: LobbyHarness;
let owner: TestUser;
beforeAll(async () => {
  h = await startLobbyHarness();
  owner = await h.user('guild_owner');
});
afterAll(() => h.close());

const link = (lobby: string, auth: Record<string, string>, channel_id: string | null) =>
  h.call('PATCH', `/lobbies/${lobby}/channel-linking`, auth, { channel_id });
const guildChannels = async (user: TestUser) =>
  (await h.call('GET', `/guilds/${h.guildId}/channels`, user.auth)).body as Array<{
    id: string;
    linked_lobby: unknown;
  }>;
const provisional = async (externalId: string): Promise<TestUser> => {
  const token = (
    await request(`${h.platform.apiBase}/partner-sdk/token/bot`, {
      headers: h.bot,
      json: { external_user_id: externalId },
    })
  ).body.access_token as string;
  const auth = { authorization: `Bearer ${token}` };
  const me = (await h.call('GET', '/users/@me', auth)).body;
  return { id: me.id, username: me.username, token, auth };
};

describe('channel linking', () => {
  it('links a text channel of a guild the member owns, shows it in the channel list, copies messages, and unlinks', async () => {
    const member = await h.user('guild_member');
    const lobby = (
      await h.call('POST', '/lobbies', h.bot, { members: [{ id: owner.id, flags: 1 }, { id: member.id }] })
    ).body.id as string;
    const linked = await link(lobby, owner.auth, h.channels.general!);
    expect(linked.status).toBe(200);
    expect(linked.body.linked_channel).toEqual({
      id: h.channels.general,
      type: 0,
      flags: 0,
      guild_id: h.guildId,
      name: 'general',
      position: 0,
      parent_id: null,
      nsfw: false,
      permission_overwrites: [],
    });
    expect((await guildChannels(owner)).find((c) => c.id === h.channels.general)!.linked_lobby).toEqual({
      application_id: h.platform.devApp.id,
      lobby_id: lobby,
    });

    const sent = (
      await h.call('POST', `/lobbies/${lobby}/messages`, owner.auth, {
        content: 'to the guild',
        metadata: { secret: 'x' },
      })
    ).body;
    const copies = await h.call('GET', `/channels/${h.channels.general}/messages`, member.auth);
    expect(copies.status).toBe(200);
    expect(copies.body).toEqual([
      expect.objectContaining({
        id: sent.id,
        channel_id: h.channels.general,
        guild_id: h.guildId,
        content: 'to the guild',
        author: expect.objectContaining({ id: owner.id }),
      }),
    ]);
    expect(copies.body[0].metadata).toBeUndefined();
    const outsider = await h.user('outsider');
    expect((await h.call('GET', `/channels/${h.channels.general}/messages`, outsider.auth)).body.code).toBe(50001);
    expect((await h.call('GET', `/channels/${h.channels.general}/messages`, h.bot)).status).toBe(200);
    expect((await h.call('GET', '/channels/1/messages', member.auth)).body.code).toBe(10003);

    const unlinked = await link(lobby, owner.auth, null);
    expect(unlinked.status).toBe(200);
    expect('linked_channel' in unlinked.body).toBe(false);
    expect((await guildChannels(owner)).every((c) => c.linked_lobby === null)).toBe(true);
    // The channel keeps its history after unlinking.
    expect((await h.call('GET', `/channels/${h.channels.general}/messages`, member.auth)).body).toHaveLength(1);
  });

  it('refuses without CanLinkLobby, non-members, unlinkable channels and channels linked elsewhere', async () => {
    const member = await h.user('guild_member');
    const lobby = (
      await h.call('POST', '/lobbies', h.bot, {
        members: [
          { id: owner.id, flags: 1 },
          { id: member.id, flags: 1 },
        ],
      })
    ).body.id as string;
    const other = (await h.call('POST', '/lobbies', h.bot, { members: [{ id: owner.id, flags: 1 }] })).body
      .id as string;
    expect((await link(other, owner.auth, h.channels.raid!)).status).toBe(200);
    const stranger = await h.user('stranger');
    await h.call('PUT', `/lobbies/${lobby}/members/${stranger.id}`, h.bot, {});

    const expectations: Array<[Record<string, string>, string, number, number]> = [
      [stranger.auth, h.channels.general!, 403, 50013], // member without CanLinkLobby
      [member.auth, h.channels.general!, 403, 50013], // not the guild's owner (no Manage Channels)
      [owner.auth, h.channels.voice!, 403, 50013], // not a text channel
      [owner.auth, h.channels.raid!, 403, 50013], // linked to another lobby
      [owner.auth, '77', 404, 10003],
    ];
    for (const [auth, channel, status, code] of expectations) {
      const response = await link(lobby, auth, channel);
      expect([status, code]).toEqual([response.status, response.body.code]);
    }
    const outsider = await h.user('outsider');
    expect((await link(lobby, outsider.auth, h.channels.general!)).body.code).toBe(50001);
    expect(h.platform.store.lobbies.get(lobby)!.linkedChannelId).toBeNull();
  });
});

describe('linked-channel invites', () => {
  it('a member gets a single-use, personal, 1-hour invite that adds them to the guild', async () => {
    const [alice, bob] = [await h.user('alice'), await h.user('bob')];
    const lobby = (
      await h.call('POST', '/lobbies', h.bot, {
        members: [{ id: owner.id, flags: 1 }, { id: alice.id }, { id: bob.id }],
      })
    ).body.id as string;
    const unlinked = await h.call('POST', `/lobbies/${lobby}/members/@me/invites`, alice.auth);
    expect([unlinked.status, unlinked.body.code]).toEqual([404, 10003]);
    await link(lobby, owner.auth, h.channels.general!);

    const invite = await h.call('POST', `/lobbies/${lobby}/members/@me/invites`, alice.auth);
    expect(invite.body).toEqual({
      code: expect.any(String),
      url: `${h.platform.httpUrl}/invite/${invite.body.code}`,
      expires_at: expect.any(String),
    });
    expect(Date.parse(invite.body.expires_at) - Date.now()).toBeGreaterThan(3_500_000);
    expect((await h.call('POST', `/invites/${invite.body.code}`, bob.auth)).body).toEqual({
      code: 10006,
      message: 'Unknown Invite',
    });
    expect((await h.call('GET', `/guilds/${h.guildId}/channels`, alice.auth)).status).toBe(403);

    const used = await h.call('POST', `/invites/${invite.body.code}`, alice.auth);
    expect(used.status).toBe(200);
    expect(used.body).toMatchObject({ guild: { id: h.guildId }, channel: { id: h.channels.general } });
    expect((await h.call('GET', `/guilds/${h.guildId}/channels`, alice.auth)).status).toBe(200);
    const again = await h.call('POST', `/invites/${invite.body.code}`, alice.auth);
    expect([again.status, again.body.code]).toEqual([404, 10006]);

    const forBob = await h.call('POST', `/lobbies/${lobby}/members/${bob.id}/invites`, h.bot);
    expect((await h.call('POST', `/invites/${forBob.body.code}`, bob.auth)).status).toBe(200);
    expect((await h.call('POST', `/lobbies/${lobby}/members/99/invites`, h.bot)).body.code).toBe(10013);
  });

  it('provisional accounts must merge first (403 530020)', async () => {
    const guest = await provisional('guest-invite');
    const lobby = (await h.call('POST', '/lobbies', h.bot, { members: [{ id: owner.id, flags: 1 }, { id: guest.id }] }))
      .body.id as string;
    await link(lobby, owner.auth, h.channels.general!);
    const own = await h.call('POST', `/lobbies/${lobby}/members/@me/invites`, guest.auth);
    expect([own.status, own.body.code]).toEqual([403, 530020]);
    expect((await h.call('POST', `/lobbies/${lobby}/members/${guest.id}/invites`, h.bot)).body.code).toBe(530020);
    expect((await h.call('POST', '/invites/whatever', guest.auth)).body.code).toBe(530020);
  });
});

describe('account merge', () => {
  it("moves the provisional account's memberships and messages to the full account", async () => {
    const guest = await provisional('guest-merge');
    const lobby = (await h.call('POST', '/lobbies', h.bot, { members: [{ id: guest.id, metadata: { seat: '1' } }] }))
      .body.id as string;
    const message = (await h.call('POST', `/lobbies/${lobby}/messages`, guest.auth, { content: 'before merge' })).body;
    const full = await h.user('full');
    const merged = await login(h.platform, {
      clientId: h.platform.devApp.id,
      scope: 'sdk.social_layer',
      user: full.username,
      extraForm: { external_auth_type: 'DISCORD_BOT_ISSUED_ACCESS_TOKEN', external_auth_token: guest.token },
    });
    expect(merged.status).toBe(200);
    const after = (await h.call('GET', `/lobbies/${lobby}`, bot(h.platform.devApp.botToken))).body;
    expect(after.members).toEqual([expect.objectContaining({ id: full.id, metadata: { seat: '1' } })]);
    const history = (await h.call('GET', `/lobbies/${lobby}/messages`, h.bot)).body;
    expect(history).toEqual([
      expect.objectContaining({ id: message.id, author: expect.objectContaining({ id: full.id }) }),
    ]);
  });
});
