/**
 * Linked channels end to end on both backends, over HTTPS against the real platform: the owner of a guild (a full
 * account) links a lobby to one of its text channels once the bot gave them CanLinkLobby; the lobby handle and the
 * guild's channel list show the link; a member gets a guild invite URL (a provisional member is asked to merge);
 * unlinking removes the link. Each test has a guild, players and lobby of its own, brought to the step it checks
 * (`guildAndLobby`, `grantLinking`, `linked`), so that it runs alone.
 * Runs twice per backend: with each SDK call made directly, and with each made from inside an SDK event handler
 * (`callsFrom` in support.ts), as game code reacting to events does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../../platform/test/support/http.js';
import { createFullUser, startE2EPlatform, type E2EPlatform } from './harness.js';
import { connectPlayer, connectProvisionalPlayer } from './chat-support.js';
import { closedAfterEachTest, testTag, type Player } from './player.js';
import { callsFrom, e2eClient, RUNS, signIn, until } from './support.js';

/** Creates a guild through the dev route (platform/PROTOCOL.md §9); returns its id. */
async function createGuild(e2e: E2EPlatform, config: Record<string, unknown>): Promise<bigint> {
  const response = await request(`${e2e.apiBase}/dev/guilds`, { ca: e2e.caPem, json: config });
  if (response.status !== 201) throw new Error(`dev/guilds answered ${response.status}: ${response.text}`);
  return BigInt((response.body as { id: string }).id);
}

/** One test's guild (with its text channel) and lobby: the guild's owner and a provisional guest are both members. */
interface GuildAndLobby {
  owner: Player;
  guest: Player;
  guildId: bigint;
  channelId: bigint;
  lobbyId: bigint;
}

describe.each(RUNS)('linked channels over $backend, SDK calls made $calls', ({ backend, calls }) => {
  const act = callsFrom(calls);
  let e2e: E2EPlatform;
  const own = closedAfterEachTest();

  beforeAll(async () => {
    e2e = await startE2EPlatform();
  });
  afterAll(async () => {
    await e2e.close();
  });

  /** A fresh owner (a full account) with a guild of one text channel, and a lobby of the owner and a fresh guest. */
  async function guildAndLobby(): Promise<GuildAndLobby> {
    const tag = testTag();
    const username = `link_owner_${backend}_${tag}`;
    await createFullUser(e2e, { username });
    const guildId = await createGuild(e2e, {
      name: `Linked ${backend} ${tag}`,
      owner: username,
      channels: [{ name: 'lobby-chat', type: 0 }],
    });
    const client = e2eClient(e2e, backend);
    const { tokens } = await signIn(e2e, client, username);
    const owner = own(await connectPlayer(client, tokens.accessToken));
    const guest = own(await connectProvisionalPlayer(e2e, backend, `Guest-${tag}`));
    const channelId = (await act(owner.client, () => owner.client.getGuildChannels(guildId))).find(
      (c) => c.name === 'lobby-chat',
    )!.id;
    const secret = `linked-${backend}-${tag}`;
    const lobbyId = await act(owner.client, () => owner.client.createOrJoinLobby(secret));
    expect(await act(guest.client, () => guest.client.createOrJoinLobby(secret))).toBe(lobbyId);
    return { owner, guest, guildId, channelId, lobbyId };
  }

  /** The game server's bot gives the owner CanLinkLobby; waits until the owner's lobby shows it. */
  async function grantLinking({ owner, lobbyId }: GuildAndLobby): Promise<void> {
    await e2e.server.putLobbyMember(lobbyId.toString(), owner.id.toString(), { canLinkLobby: true });
    await until(
      () => owner.client.getLobby(lobbyId)!.members.find((m) => m.id === owner.id)!.canLinkLobby,
      'the flag reaches the owner',
    );
  }

  /** A fresh guild and lobby whose owner, granted CanLinkLobby, linked the lobby to the channel; the guest sees it. */
  async function linked(): Promise<GuildAndLobby> {
    const setup = await guildAndLobby();
    const { owner, guest, lobbyId, channelId } = setup;
    await grantLinking(setup);
    await act(owner.client, () => owner.client.linkChannelToLobby(lobbyId, channelId));
    await until(() => guest.client.getLobby(lobbyId)!.linkedChannel !== undefined, 'the guest sees the link');
    return setup;
  }

  it('linking needs CanLinkLobby, which only the server API grants', async () => {
    const setup = await guildAndLobby();
    const { owner, guest, channelId, lobbyId } = setup;
    expect(owner.client.getLobby(lobbyId)!.members.find((m) => m.id === owner.id)!.canLinkLobby).toBe(false);
    await expect(act(owner.client, () => owner.client.linkChannelToLobby(lobbyId, channelId))).rejects.toMatchObject({
      code: 'ERR_SVCPP_HTTP',
      status: 403,
      errorCode: 50013,
    });
    await grantLinking(setup);
    await until(
      () => guest.of('lobbyMemberUpdated').some(([l, m]) => l === lobbyId && m === owner.id),
      'the guest sees the owner updated',
    );
  });

  it('links the lobby: the handle and the guild channel list show it', async () => {
    const setup = await guildAndLobby();
    const { owner, guest, guildId, channelId, lobbyId } = setup;
    await grantLinking(setup);
    await act(owner.client, () => owner.client.linkChannelToLobby(lobbyId, channelId));
    // The answer is cached before the promise settles.
    expect(owner.client.getLobby(lobbyId)!.linkedChannel).toEqual({ id: channelId, name: 'lobby-chat', guildId });
    await until(() => guest.of('lobbyUpdated').some(([l]) => l === lobbyId), 'the guest sees the lobby updated');
    expect(guest.client.getLobby(lobbyId)!.linkedChannel).toEqual({ id: channelId, name: 'lobby-chat', guildId });
    const channel = (await act(owner.client, () => owner.client.getGuildChannels(guildId))).find(
      (c) => c.id === channelId,
    )!;
    expect(channel.linkedLobby).toEqual({ applicationId: BigInt(e2e.platform.devApp.id), lobbyId });
    expect(channel.isLinkable).toBe(false); // linked already

    // Messages of a linked lobby also live in the platform's client.
    const sent = await act(owner.client, () => owner.client.sendLobbyMessage(lobbyId, 'hello guild'));
    expect(owner.client.canOpenMessageInPlatform(sent)).toBe(true);
  });

  it('hands members a guild invite URL; a provisional member is asked to merge first', async () => {
    const { owner, guest, lobbyId } = await linked();
    const url = await act(owner.client, () => owner.client.joinLinkedLobbyGuild(lobbyId));
    // {web base}/invite/{code}; codes are base64url.
    expect(url.startsWith(`${e2e.webBase}/invite/`)).toBe(true);
    expect(url.slice(`${e2e.webBase}/invite/`.length)).toMatch(/^[A-Za-z0-9_-]+$/);

    let mergeRequests = 0;
    await expect(
      act(guest.client, () =>
        guest.client.joinLinkedLobbyGuild(lobbyId, { onMergeRequired: () => (mergeRequests += 1) }),
      ),
    ).rejects.toMatchObject({ code: 'ERR_SVCPP_HTTP', status: 403, errorCode: 530020 });
    expect(mergeRequests).toBe(1);
  });

  it('unlinks', async () => {
    const { owner, guest, guildId, channelId, lobbyId } = await linked();
    await act(owner.client, () => owner.client.unlinkChannelFromLobby(lobbyId));
    expect(owner.client.getLobby(lobbyId)!.linkedChannel).toBeUndefined();
    await until(() => guest.client.getLobby(lobbyId)!.linkedChannel === undefined, 'the guest sees the link gone');
    const channel = (await act(owner.client, () => owner.client.getGuildChannels(guildId))).find(
      (c) => c.id === channelId,
    )!;
    expect(channel).toMatchObject({ linkedLobby: undefined, isLinkable: true });
  });
});
