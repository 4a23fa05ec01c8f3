/**
 * Direct messages end to end on both backends, over HTTPS against the real platform: ephemeral DMs between two
 * provisional players (sent with metadata, edited, moderated by the game server, deleted, callbacks on both sides,
 * history from the cache and over HTTP, summaries, local limits), and a persistent DM channel between two full
 * accounts who are friends. Each test has two players of its own and runs the conversation up to the step it checks
 * (`greet`, `edit`, `bobReplies`), so that it runs alone.
 * Runs twice per backend: with each SDK call made directly, and with each made from inside an SDK event handler
 * (`callsFrom` in support.ts), as game code reacting to events does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelType } from '../../lib/index.js';
import { bearer, request } from '../../platform/test/support/http.js';
import { createFullUser, provisionalToken, startE2EPlatform, type E2EPlatform } from './harness.js';
import { connectPlayer, connectProvisionalPlayer } from './chat-support.js';
import { closedAfterEachTest, testTag, type Player } from './player.js';
import { callsFrom, e2eClient, RUNS, signIn, until } from './support.js';

/** The two players of one test's conversation. */
interface Pair {
  ada: Player;
  bob: Player;
}

describe.each(RUNS)('direct messages over $backend, SDK calls made $calls', ({ backend, calls }) => {
  const act = callsFrom(calls);
  let e2e: E2EPlatform;
  const own = closedAfterEachTest();

  beforeAll(async () => {
    e2e = await startE2EPlatform();
  });
  afterAll(async () => {
    await e2e.close();
  });

  /** Two fresh provisional players of one test, and the external id of Ada's account (to sign her in again). */
  async function pair(): Promise<Pair & { adaExternalId: string }> {
    const tag = testTag();
    const ada = own(await connectProvisionalPlayer(e2e, backend, `Ada-${tag}`));
    const bob = own(await connectProvisionalPlayer(e2e, backend, `Bob-${tag}`));
    return { ada, bob, adaExternalId: `Ada-${tag}-${backend}` };
  }

  /** Ada sends Bob a DM with metadata, and both sides get its messageCreated; returns its id. */
  async function greet({ ada, bob }: Pair): Promise<bigint> {
    const id = await act(ada.client, () => ada.client.sendUserMessage(bob.id, 'hi bob', { mood: 'cheerful' }));
    await until(() => bob.of('messageCreated').some(([m]) => m === id), 'bob receives the DM');
    await until(() => ada.of('messageCreated').some(([m]) => m === id), 'ada is told about her own DM');
    return id;
  }

  /** Ada edits her greeting `id` to 'hi bob!', and Bob gets its messageUpdated. */
  async function edit({ ada, bob }: Pair, id: bigint): Promise<void> {
    await act(ada.client, () => ada.client.editUserMessage(bob.id, id, 'hi bob!'));
    await until(() => bob.of('messageUpdated').some(([m]) => m === id), 'bob sees the edit');
  }

  /** Bob answers with 'two', then 'three', and Ada receives the last; returns both ids. */
  async function bobReplies({ ada, bob }: Pair): Promise<[bigint, bigint]> {
    const two = await act(bob.client, () => bob.client.sendUserMessage(ada.id, 'two'));
    const three = await act(bob.client, () => bob.client.sendUserMessage(ada.id, 'three'));
    await until(() => ada.of('messageCreated').some(([m]) => m === three), 'ada receives the last DM');
    return [two, three];
  }

  it('sends an ephemeral DM with metadata; both sides get messageCreated and read it', async () => {
    const players = await pair();
    const { ada, bob } = players;
    const id = await greet(players);
    expect(bob.client.getMessage(id)).toMatchObject({
      id,
      content: 'hi bob',
      authorId: ada.id,
      author: { id: ada.id, isProvisional: true },
      recipientId: bob.id,
      // Ephemeral: the channel id is the other user's id as each side sees it, and there is no channel object.
      channelId: ada.id,
      lobbyId: undefined,
      metadata: { mood: 'cheerful' },
      sentFromGame: true,
      editedTimestamp: 0n,
    });
    expect(ada.client.getMessage(id)).toMatchObject({ id, channelId: bob.id, recipientId: bob.id });
    expect(bob.client.getChannel(ada.id)).toBeUndefined();
    expect(bob.client.canOpenMessageInPlatform(id)).toBe(false);
  });

  it('edits: both sides get messageUpdated; only the author may edit', async () => {
    const players = await pair();
    const { ada, bob } = players;
    const id = await greet(players);
    await edit(players, id);
    const edited = bob.client.getMessage(id)!;
    expect(edited.content).toBe('hi bob!');
    expect(edited.editedTimestamp).toBeGreaterThanOrEqual(edited.sentTimestamp);
    await expect(act(bob.client, () => bob.client.editUserMessage(ada.id, id, 'hacked'))).rejects.toMatchObject({
      code: 'ERR_SVCPP_HTTP',
      status: 403,
      errorCode: 50005,
    });
    await expect(act(ada.client, () => ada.client.editUserMessage(bob.id, id, ''))).rejects.toMatchObject({
      code: 'ERR_SVCPP_VALIDATION',
    });
  });

  it('the game server sets moderation metadata on a DM: both sides get messageUpdated and read it', async () => {
    const players = await pair();
    const { ada, bob } = players;
    const id = await greet(players);
    await edit(players, id);
    await e2e.server.setDirectMessageModerationMetadata(String(id), { verdict: 'clean', reviewer: 'auto' });
    for (const player of [ada, bob]) {
      await until(
        () => player.client.getMessage(id)?.moderationMetadata.verdict === 'clean',
        `${player.id} sees the moderation metadata`,
      );
      expect(player.of('messageUpdated').some(([m]) => m === id)).toBe(true);
    }
    expect(bob.client.getMessage(id)).toMatchObject({
      content: 'hi bob!',
      moderationMetadata: { verdict: 'clean', reviewer: 'auto' },
    });
    // At most 5 keys (PROTOCOL.md §10.4): refused with the field error body, nothing changes.
    const six = Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`k${i}`, 'v']));
    await expect(e2e.server.setDirectMessageModerationMetadata(String(id), six)).rejects.toMatchObject({
      status: 400,
      code: 50035,
    });
    expect(
      (await act(bob.client, () => bob.client.getUserMessages(ada.id, 10))).find((m) => m.id === id)
        ?.moderationMetadata,
    ).toEqual({ verdict: 'clean', reviewer: 'auto' });
  });

  it('rejects over-limit content and metadata before any request', async () => {
    const players = await pair();
    const { ada, bob } = players;
    const greeting = await greet(players);
    await expect(act(ada.client, () => ada.client.sendUserMessage(bob.id, 'x'.repeat(2001)))).rejects.toMatchObject({
      code: 'ERR_SVCPP_VALIDATION',
    });
    await expect(act(ada.client, () => ada.client.sendUserMessage(bob.id, ''))).rejects.toMatchObject({
      code: 'ERR_SVCPP_VALIDATION',
    });
    const tooMany = Object.fromEntries(Array.from({ length: 26 }, (_, i) => [`k${i}`, 'v']));
    await expect(act(ada.client, () => ada.client.sendUserMessage(bob.id, 'ok', tooMany))).rejects.toMatchObject({
      code: 'ERR_SVCPP_VALIDATION',
    });
    await expect(act(ada.client, () => ada.client.getUserMessages(bob.id, 201))).rejects.toMatchObject({
      code: 'ERR_SVCPP_VALIDATION',
    });
    expect((await act(ada.client, () => ada.client.getUserMessages(bob.id, 10))).map((m) => m.id)).toEqual([greeting]);
  });

  it('reads the history newest first: from the cache, then over HTTP for a fresh client', async () => {
    const players = await pair();
    const { ada, bob } = players;
    const greeting = await greet(players);
    await edit(players, greeting);
    const sent = [greeting, ...(await bobReplies(players))];
    const cached = await act(ada.client, () => ada.client.getUserMessages(bob.id, 2));
    expect(cached.map((m) => m.content)).toEqual(['three', 'two']);
    expect((await act(ada.client, () => ada.client.getUserMessages(bob.id))).map((m) => m.content)).toEqual([
      'three',
      'two',
      'hi bob!',
    ]);

    // A second session of ada's account starts with an empty cache: the history comes over HTTP.
    await using fresh = e2eClient(e2e, backend);
    const again = await connectPlayer(fresh, await provisionalToken(e2e, players.adaExternalId));
    expect(again.id).toBe(ada.id);
    expect(fresh.getMessage(sent[1]!)).toBeUndefined();
    const fetched = await act(fresh, () => fresh.getUserMessages(bob.id, 10));
    expect(fetched.map((m) => [m.id, m.content, m.authorId])).toEqual([
      [sent[2], 'three', bob.id],
      [sent[1], 'two', bob.id],
      [sent[0], 'hi bob!', ada.id],
    ]);
    expect(fresh.getMessage(sent[1]!)).toMatchObject({ content: 'two' }); // fetched messages are cached

    expect(await act(ada.client, () => ada.client.getUserMessageSummaries())).toEqual([
      { userId: bob.id, lastMessageId: sent[2] },
    ]);
  });

  it('deletes: both sides get messageDeleted with their own channel id', async () => {
    const players = await pair();
    const { ada, bob } = players;
    const [, id] = await bobReplies(players);
    await expect(act(ada.client, () => ada.client.deleteUserMessage(bob.id, id))).rejects.toMatchObject({
      code: 'ERR_SVCPP_HTTP',
      status: 403,
    });
    await act(bob.client, () => bob.client.deleteUserMessage(ada.id, id));
    await until(() => ada.of('messageDeleted').some(([m]) => m === id), 'ada sees the deletion');
    await until(() => bob.of('messageDeleted').some(([m]) => m === id), 'bob sees the deletion');
    expect(ada.of('messageDeleted').find(([m]) => m === id)).toEqual([id, bob.id]);
    expect(bob.of('messageDeleted').find(([m]) => m === id)).toEqual([id, ada.id]);
    expect(ada.client.getMessage(id)).toBeUndefined();
    expect((await act(ada.client, () => ada.client.getUserMessages(bob.id, 10))).map((m) => m.id)).not.toContain(id);
  });

  it('friends with full accounts share a persistent DM channel', async () => {
    const names = [`dm_full_a_${backend}`, `dm_full_b_${backend}`];
    const players: Player[] = [];
    const tokens: string[] = [];
    for (const username of names) {
      await createFullUser(e2e, { username });
      const client = e2eClient(e2e, backend);
      const { tokens: granted } = await signIn(e2e, client, username);
      tokens.push(granted.accessToken);
      players.push(await connectPlayer(client, granted.accessToken));
    }
    const [a, b] = players as [Player, Player];
    try {
      // Friend request and acceptance over the platform's relationship route (the SDK side is another area).
      for (const [from, to] of [
        [0, b],
        [1, a],
      ] as const) {
        const answer = await request(`${e2e.apiBase}/users/@me/relationships/${to.id}`, {
          ca: e2e.caPem,
          method: 'PUT',
          headers: bearer(tokens[from]!),
          json: { type: 1 },
        });
        expect(answer.status).toBe(204);
      }
      const id = await act(a.client, () => a.client.sendUserMessage(b.id, 'persistent hello'));
      await until(() => b.of('messageCreated').some(([m]) => m === id), 'b receives the DM');
      const seen = b.client.getMessage(id)!;
      expect(seen.channelId).toBe(a.client.getMessage(id)!.channelId); // one channel for the pair
      expect(seen.channelId).not.toBe(a.id);
      expect(b.client.getChannel(seen.channelId)).toEqual({
        id: seen.channelId,
        name: '',
        recipients: [a.id],
        type: ChannelType.Dm,
      });
      expect(b.client.canOpenMessageInPlatform(id)).toBe(true);
      expect((await act(b.client, () => b.client.getUserMessages(a.id, 5))).map((m) => m.id)).toEqual([id]);
    } finally {
      for (const player of players) await player.client.close();
    }
  });
});
