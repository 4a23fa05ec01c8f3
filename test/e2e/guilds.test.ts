/**
 * Guilds end to end on both backends, over HTTPS: a full user signed in with OAuth2 lists its guilds and the channels
 * of a guild it owns and of one it is only a member of (what IsLinkable means for each); the failures (no token,
 * unknown guild, not a member); and the application profiles of a provisional account's READY user.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelType, ExternalIdentityProviderType } from '../../lib/index.js';
import { request } from '../../platform/test/support/http.js';
import { BACKENDS } from '../backends.js';
import { createFullUser, provisionalToken, startE2EPlatform, type E2EPlatform } from './harness.js';
import { e2eClient, signIn } from './support.js';

/** Creates a guild through the dev route (platform/PROTOCOL.md §9); returns its id. */
async function createGuild(e2e: E2EPlatform, config: Record<string, unknown>): Promise<bigint> {
  const response = await request(`${e2e.apiBase}/dev/guilds`, { ca: e2e.caPem, json: config });
  if (response.status !== 201) throw new Error(`dev/guilds answered ${response.status}: ${response.text}`);
  return BigInt((response.body as { id: string }).id);
}

describe.each(BACKENDS)('guilds over %s', (backend) => {
  let e2e: E2EPlatform;
  const username = `guild_owner_${backend}`;
  let owned: bigint;
  let joined: bigint;
  let foreign: bigint;

  beforeAll(async () => {
    e2e = await startE2EPlatform();
    await createFullUser(e2e, { username });
    await createFullUser(e2e, { username: `stranger_${backend}` });
    owned = await createGuild(e2e, {
      name: `Owned ${backend}`,
      owner: username,
      channels: [
        { name: 'lounge', type: 2, position: 3 },
        { name: 'general', type: 0, position: 1, parent: 'Text' },
        { name: 'Text', type: 4, position: 0 },
        { name: 'news', type: 0, position: 2 },
      ],
    });
    joined = await createGuild(e2e, {
      name: `Joined ${backend}`,
      members: [username],
      channels: [{ name: 'chat', type: 0 }],
    });
    foreign = await createGuild(e2e, { name: `Foreign ${backend}`, owner: `stranger_${backend}` });
  });
  afterAll(() => e2e.close());

  async function signedInClient() {
    const client = e2eClient(e2e, backend);
    const { tokens } = await signIn(e2e, client, username);
    await client.updateToken(tokens.accessToken);
    return client;
  }

  it('lists the guilds of a user signed in with OAuth2', async () => {
    await using client = await signedInClient();
    const guilds = await client.getUserGuilds();
    expect(guilds).toEqual(
      expect.arrayContaining([
        { id: owned, name: `Owned ${backend}` },
        { id: joined, name: `Joined ${backend}` },
      ]),
    );
    expect(guilds.map((g) => g.id)).not.toContain(foreign);
  });

  it("lists a guild's channels sorted by position; only an owner's text channels are linkable", async () => {
    await using client = await signedInClient();
    const channels = await client.getGuildChannels(owned);
    expect(channels.map((c) => [c.name, c.type, c.position])).toEqual([
      ['Text', ChannelType.GuildCategory, 0],
      ['general', ChannelType.GuildText, 1],
      ['news', ChannelType.GuildText, 2],
      ['lounge', ChannelType.GuildVoice, 3],
    ]);
    const [category, general, news, lounge] = channels;
    expect(general).toMatchObject({
      parentId: category?.id,
      isLinkable: true,
      isViewableAndWriteableByAllMembers: true,
      linkedLobby: undefined,
    });
    expect(category?.parentId).toBeUndefined();
    expect([category?.isLinkable, news?.isLinkable, lounge?.isLinkable]).toEqual([false, true, false]);

    const memberView = await client.getGuildChannels(joined);
    expect(memberView).toMatchObject([
      { name: 'chat', type: ChannelType.GuildText, isLinkable: false, isViewableAndWriteableByAllMembers: true },
    ]);
  });

  it('fails with the HTTP status for a guild the user is not in (403) and an unknown guild (404)', async () => {
    await using client = await signedInClient();
    await expect(client.getGuildChannels(foreign)).rejects.toMatchObject({
      code: 'ERR_SVCPP_HTTP',
      status: 403,
      errorCode: 50001,
    });
    await expect(client.getGuildChannels(1n)).rejects.toMatchObject({
      code: 'ERR_SVCPP_HTTP',
      status: 404,
      errorCode: 10004,
    });
  });

  it('needs a token', async () => {
    await using client = e2eClient(e2e, backend);
    await expect(client.getUserGuilds()).rejects.toMatchObject({ code: 'ERR_SVCPP_VALIDATION' });
    await expect(client.getGuildChannels(owned)).rejects.toMatchObject({ code: 'ERR_SVCPP_VALIDATION' });
  });

  it('reads the application profiles of the signed-in user from READY', async () => {
    await using provisional = e2eClient(e2e, backend);
    await provisional.updateToken(await provisionalToken(e2e, `profile-${backend}`, 'Profile Player'));
    await provisional.connect();
    expect(provisional.currentUser?.applicationProfiles).toEqual([
      {
        providerType: ExternalIdentityProviderType.PlatformBot,
        providerId: undefined,
        providerIssuedUserId: `profile-${backend}`,
        username: 'Profile Player',
        avatarHash: '',
        metadata: '',
      },
    ]);

    await using full = await signedInClient();
    await full.connect();
    expect(full.currentUser?.applicationProfiles).toEqual([]);
  });
});
