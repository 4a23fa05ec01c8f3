/**
 * Linked channels end to end on both backends, over HTTPS against the real platform: the owner of a guild (a full
 * account) links a lobby to one of its text channels once the bot gave them CanLinkLobby; the lobby handle and the
 * guild's channel list show the link; a member gets a guild invite URL (a provisional member is asked to merge);
 * unlinking removes the link.
 * Runs twice per backend: with each SDK call made directly, and with each made from inside an SDK event handler
 * (`callsFrom` in support.ts), as game code reacting to events does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../../platform/test/helpers/http.js';
import { createFullUser, startE2EPlatform, type E2EPlatform } from './harness.js';
import { connectPlayer, connectProvisionalPlayer } from './chat-support.js';
import type { Player } from './player.js';
import { callsFrom, e2eClient, RUNS, signIn, until } from './support.js';

/** Creates a guild through the dev route (platform/PROTOCOL.md §9); returns its id. */
async function createGuild(e2e: E2EPlatform, config: Record<string, unknown>): Promise<bigint> {
  const response = await request(`${e2e.apiBase}/dev/guilds`, { ca: e2e.caPem, json: config });
  if (response.status !== 201) throw new Error(`dev/guilds answered ${response.status}: ${response.text}`);
  return BigInt((response.body as { id: string }).id);
}

describe.each(RUNS)('linked channels over $backend, SDK calls made $calls', ({ backend, calls }) => {
  const act = callsFrom(calls);
  let e2e: E2EPlatform;
  let owner: Player;
  let guest: Player;
  let guildId: bigint;
  let channelId: bigint;
  let lobbyId: bigint;

  beforeAll(async () => {
    e2e = await startE2EPlatform();
    const username = `link_owner_${backend}`;
    await createFullUser(e2e, { username });
    guildId = await createGuild(e2e, {
      name: `Linked ${backend}`,
      owner: username,
      channels: [{ name: 'lobby-chat', type: 0 }],
    });
    const client = e2eClient(e2e, backend);
    const { tokens } = await signIn(e2e, client, username);
    owner = await connectPlayer(client, tokens.accessToken);
    guest = await connectProvisionalPlayer(e2e, backend, 'Guest');
    channelId = (await act(owner.client, () => owner.client.getGuildChannels(guildId))).find(
      (c) => c.name === 'lobby-chat',
    )!.id;
    lobbyId = await act(owner.client, () => owner.client.createOrJoinLobby(`linked-${backend}`));
    expect(await act(guest.client, () => guest.client.createOrJoinLobby(`linked-${backend}`))).toBe(lobbyId);
  });
  afterAll(async () => {
    for (const player of [owner, guest]) await player?.client.close();
    await e2e.close();
  });

  it('linking needs CanLinkLobby, which only the server API grants', async () => {
    expect(owner.client.getLobby(lobbyId)!.members.find((m) => m.id === owner.id)!.canLinkLobby).toBe(false);
    await expect(act(owner.client, () => owner.client.linkChannelToLobby(lobbyId, channelId))).rejects.toMatchObject({
      code: 'ERR_SVCPP_HTTP',
      status: 403,
      errorCode: 50013,
    });
    await e2e.server.putLobbyMember(lobbyId.toString(), owner.id.toString(), { canLinkLobby: true });
    await until(
      () => owner.client.getLobby(lobbyId)!.members.find((m) => m.id === owner.id)!.canLinkLobby,
      'the flag reaches the owner',
    );
    await until(
      () => guest.of('lobbyMemberUpdated').some(([l, m]) => l === lobbyId && m === owner.id),
      'the guest sees the owner updated',
    );
  });

  it('links the lobby: the handle and the guild channel list show it', async () => {
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
    await act(owner.client, () => owner.client.unlinkChannelFromLobby(lobbyId));
    expect(owner.client.getLobby(lobbyId)!.linkedChannel).toBeUndefined();
    await until(() => guest.client.getLobby(lobbyId)!.linkedChannel === undefined, 'the guest sees the link gone');
    const channel = (await act(owner.client, () => owner.client.getGuildChannels(guildId))).find(
      (c) => c.id === channelId,
    )!;
    expect(channel).toMatchObject({ linkedLobby: undefined, isLinkable: true });
  });
});
