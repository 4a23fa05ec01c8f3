/**
 * Lobbies and lobby chat end to end on both backends, over HTTPS against the real platform: provisional players
 * create and join a lobby by secret (metadata on both levels), see each other, chat with metadata, read the history,
 * hit every local limit, leave, and receive the bot's member changes (bulk, additional name). Each test builds its
 * own players and lobby up to the step it checks (`trio`, `lobbyOfTwo`, `chat`, `botUpdatesMembers`), so that it runs
 * alone.
 * Runs twice per backend: with each SDK call made directly, and with each made from inside an SDK event handler
 * (`callsFrom` in support.ts), as game code reacting to events does.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ChannelType } from '../../lib/index.js';
import { startE2EPlatform, type E2EPlatform } from './harness.js';
import { connectProvisionalPlayer } from './chat-support.js';
import { closeAll, type Player } from './player.js';
import { callsFrom, e2eClient, RUNS, until } from './support.js';

/** Three players of one test and the secret of their lobby. */
interface Trio {
  ada: Player;
  bob: Player;
  cyd: Player;
  secret: string;
}

describe.each(RUNS)('lobbies over $backend, SDK calls made $calls', ({ backend, calls }) => {
  const act = callsFrom(calls);
  let e2e: E2EPlatform;
  const opened: Player[] = [];

  beforeAll(async () => {
    e2e = await startE2EPlatform();
  });
  afterEach(async () => {
    await closeAll(...opened.splice(0));
  });
  afterAll(async () => {
    await e2e.close();
  });

  /** Three fresh players (so that no test sees another's lobbies) and a lobby secret of their own; closed after it. */
  async function trio(): Promise<Trio> {
    const tag = randomUUID().slice(0, 8);
    const [ada, bob, cyd] = [
      await connectProvisionalPlayer(e2e, backend, `Ada-${tag}`),
      await connectProvisionalPlayer(e2e, backend, `Bob-${tag}`),
      await connectProvisionalPlayer(e2e, backend, `Cyd-${tag}`),
    ];
    opened.push(ada, bob, cyd);
    return { ada, bob, cyd, secret: `e2e-lobby-${backend}-${tag}` };
  }

  /** Ada creates the lobby by the trio's secret, with lobby and member metadata. */
  const createLobby = ({ ada, secret }: Trio) =>
    act(ada.client, () =>
      ada.client.createOrJoinLobby(secret, { lobbyMetadata: { mode: 'duel' }, memberMetadata: { team: 'red' } }),
    );

  /** Bob joins by the same secret, with member metadata; returns the lobby id the join gave. */
  const joinLobby = ({ bob, secret }: Trio) =>
    act(bob.client, () => bob.client.createOrJoinLobby(secret, { memberMetadata: { team: 'blue' } }));

  /** A fresh trio with Ada's lobby, which Bob has joined and Ada has seen him join. */
  async function lobbyOfTwo(): Promise<Trio & { lobbyId: bigint }> {
    const players = await trio();
    const lobbyId = await createLobby(players);
    await joinLobby(players);
    const { ada, bob } = players;
    await until(() => ada.of('lobbyMemberAdded').some(([l, m]) => l === lobbyId && m === bob.id), 'ada sees bob added');
    return { ...players, lobbyId };
  }

  /** Ada greets Bob (mentioning him, with metadata), then Bob replies; returns both message ids. */
  async function chat({ ada, bob, lobbyId }: Trio & { lobbyId: bigint }): Promise<{ sent: bigint; reply: bigint }> {
    const sent = await act(ada.client, () =>
      ada.client.sendLobbyMessage(lobbyId, 'hello <@' + bob.id + '>', { kind: 'greeting' }),
    );
    const reply = await act(bob.client, () => bob.client.sendLobbyMessage(lobbyId, 'hi ada', { kind: 'reply' }));
    return { sent, reply };
  }

  /** The game server's bot updates Bob (an additional name) and adds Cyd (metadata); waits until Cyd has the lobby. */
  async function botUpdatesMembers({ bob, cyd, lobbyId }: Trio & { lobbyId: bigint }): Promise<void> {
    await e2e.server.bulkUpdateLobbyMembers(lobbyId.toString(), [
      { userId: bob.id.toString(), additionalName: 'Captain Bob' },
      { userId: cyd.id.toString(), metadata: { role: 'guest' } },
    ]);
    await until(() => cyd.of('lobbyCreated').some(([id]) => id === lobbyId), 'the lobby appears for cyd');
  }

  it('refuses lobby and message calls before Ready (after checking the arguments)', async () => {
    const secret = `e2e-lobby-${backend}`;
    await using idle = e2eClient(e2e, backend);
    await expect(act(idle, () => idle.createOrJoinLobby(secret))).rejects.toMatchObject({
      code: 'ERR_SVCPP_CLIENT_NOT_READY',
    });
    await expect(act(idle, () => idle.sendLobbyMessage(1n, 'hi'))).rejects.toMatchObject({
      code: 'ERR_SVCPP_CLIENT_NOT_READY',
    });
    await expect(act(idle, () => idle.getLobbyMessages(1n, 10))).rejects.toMatchObject({
      code: 'ERR_SVCPP_CLIENT_NOT_READY',
    });
    await expect(act(idle, () => idle.sendLobbyMessage(1n, ''))).rejects.toMatchObject({
      code: 'ERR_SVCPP_VALIDATION',
    });
    expect(idle.lobbyIds).toEqual([]);
    expect(idle.getLobby(1n)).toBeUndefined();
  });

  it('creates a lobby by secret with lobby and member metadata', async () => {
    const players = await trio();
    const { ada } = players;
    const lobbyId = await createLobby(players);
    expect(lobbyId).toBeTypeOf('bigint');
    // Cached before the promise settled.
    const lobby = ada.client.getLobby(lobbyId)!;
    expect(lobby).toMatchObject({
      id: lobbyId,
      metadata: { mode: 'duel' },
      memberIds: [ada.id],
      linkedChannel: undefined,
    });
    expect(lobby.members[0]).toMatchObject({
      id: ada.id,
      metadata: { team: 'red' },
      canLinkLobby: false,
      user: { id: ada.id },
    });
    expect(ada.client.lobbyIds).toContain(lobbyId);
    await until(() => ada.of('lobbyCreated').some(([id]) => id === lobbyId), 'lobbyCreated for the creator');
  });

  it('the same secret joins the same lobby and both members see each other', async () => {
    const players = await trio();
    const { ada, bob } = players;
    const lobbyId = await createLobby(players);
    const joined = await joinLobby(players);
    expect(joined).toBe(lobbyId);
    await until(() => ada.of('lobbyMemberAdded').some(([l, m]) => l === lobbyId && m === bob.id), 'ada sees bob added');
    const seenByAda = ada.client.getLobby(lobbyId)!;
    expect(seenByAda.memberIds).toEqual([ada.id, bob.id]);
    expect(seenByAda.members[1]).toMatchObject({
      id: bob.id,
      metadata: { team: 'blue' },
      connected: true,
      user: { id: bob.id, isProvisional: true },
    });
    const seenByBob = bob.client.getLobby(lobbyId)!;
    expect(seenByBob.members.map((m) => m.id)).toEqual([ada.id, bob.id]);
    expect(bob.client.getChannel(lobbyId)).toEqual({
      id: lobbyId,
      name: '',
      recipients: [ada.id, bob.id],
      type: ChannelType.Lobby,
    });
    // Member events are never about the user themself.
    expect(ada.of('lobbyMemberAdded').filter(([, m]) => m === ada.id)).toEqual([]);
    expect(bob.of('lobbyMemberAdded').filter(([, m]) => m === bob.id)).toEqual([]);
  });

  it('chats with metadata both ways', async () => {
    const scene = await lobbyOfTwo();
    const { ada, bob, lobbyId } = scene;
    const { sent, reply } = await chat(scene);
    expect(ada.client.getMessage(sent)).toMatchObject({ id: sent, rawContent: `hello <@${bob.id}>` });
    await until(() => bob.of('messageCreated').some(([id]) => id === sent), 'bob receives the message');
    const received = bob.client.getMessage(sent)!;
    expect(received).toMatchObject({
      id: sent,
      content: `hello @${bob.client.currentUser!.displayName}`,
      rawContent: `hello <@${bob.id}>`,
      authorId: ada.id,
      author: { id: ada.id },
      channelId: lobbyId,
      lobbyId,
      recipientId: lobbyId,
      metadata: { kind: 'greeting' },
      moderationMetadata: {},
      editedTimestamp: 0n,
      sentFromGame: true,
      additionalName: undefined,
      additionalContent: undefined,
    });
    expect(received.sentTimestamp).toBeGreaterThan(0n);

    await until(() => ada.of('messageCreated').some(([id]) => id === reply), 'ada receives the reply');
    expect(ada.client.getMessage(reply)).toMatchObject({
      authorId: bob.id,
      content: 'hi ada',
      metadata: { kind: 'reply' },
    });
  });

  it('reads the history newest first; limits are checked locally; non-members are refused', async () => {
    const scene = await lobbyOfTwo();
    const { ada, bob, cyd, lobbyId } = scene;
    await chat(scene);
    const history = await act(bob.client, () => bob.client.getLobbyMessages(lobbyId, 10));
    expect(history.map((m) => m.rawContent)).toEqual(['hi ada', `hello <@${bob.id}>`]);
    expect(history[1]).toMatchObject({ authorId: ada.id, metadata: { kind: 'greeting' } });
    expect(await act(bob.client, () => bob.client.getLobbyMessages(lobbyId, 1))).toHaveLength(1);
    expect(await act(bob.client, () => bob.client.getLobbyMessages(lobbyId))).toHaveLength(2); // limit 0 = the maximum
    await expect(act(bob.client, () => bob.client.getLobbyMessages(lobbyId, 201))).rejects.toMatchObject({
      code: 'ERR_SVCPP_VALIDATION',
    });
    await expect(act(cyd.client, () => cyd.client.getLobbyMessages(lobbyId, 10))).rejects.toMatchObject({
      code: 'ERR_SVCPP_HTTP',
      status: 403,
    });
  });

  it('rejects over-limit content, metadata and secrets before any request', async () => {
    const scene = await lobbyOfTwo();
    const { ada, lobbyId } = scene;
    await chat(scene);
    const tooManyKeys = Object.fromEntries(Array.from({ length: 26 }, (_, i) => [`k${i}`, 'v']));
    await expect(act(ada.client, () => ada.client.sendLobbyMessage(lobbyId, ''))).rejects.toMatchObject({
      code: 'ERR_SVCPP_VALIDATION',
    });
    await expect(act(ada.client, () => ada.client.sendLobbyMessage(lobbyId, 'x'.repeat(2001)))).rejects.toMatchObject({
      code: 'ERR_SVCPP_VALIDATION',
    });
    await expect(act(ada.client, () => ada.client.sendLobbyMessage(lobbyId, 'ok', tooManyKeys))).rejects.toMatchObject({
      code: 'ERR_SVCPP_VALIDATION',
    });
    await expect(
      act(ada.client, () => ada.client.sendLobbyMessage(lobbyId, 'ok', { k: 'v'.repeat(1025) })),
    ).rejects.toMatchObject({ code: 'ERR_SVCPP_VALIDATION' });
    await expect(act(ada.client, () => ada.client.createOrJoinLobby('s'.repeat(251)))).rejects.toMatchObject({
      code: 'ERR_SVCPP_VALIDATION',
    });
    await expect(act(ada.client, () => ada.client.createOrJoinLobby(''))).rejects.toMatchObject({
      code: 'ERR_SVCPP_VALIDATION',
    });
    await expect(
      act(ada.client, () => ada.client.createOrJoinLobby('fine', { lobbyMetadata: tooManyKeys })),
    ).rejects.toMatchObject({ code: 'ERR_SVCPP_VALIDATION' });
    // Nothing reached the platform: the history is unchanged and no lobby appeared.
    expect(await act(ada.client, () => ada.client.getLobbyMessages(lobbyId, 10))).toHaveLength(2);
    expect(ada.client.lobbyIds).toEqual([lobbyId]);
  });

  it("the bot's member changes reach the members: additional name, bulk add", async () => {
    const scene = await lobbyOfTwo();
    const { ada, bob, cyd, lobbyId } = scene;
    await botUpdatesMembers(scene);
    await until(
      () => ada.of('lobbyMemberUpdated').some(([l, m]) => l === lobbyId && m === bob.id),
      'ada sees bob updated',
    );
    await until(() => ada.of('lobbyMemberAdded').some(([l, m]) => l === lobbyId && m === cyd.id), 'ada sees cyd added');
    await until(() => cyd.of('lobbyCreated').some(([id]) => id === lobbyId), 'the lobby appears for cyd');
    expect(ada.client.getLobby(lobbyId)!.members.find((m) => m.id === bob.id)).toMatchObject({
      additionalName: 'Captain Bob',
    });
    expect(cyd.client.getLobby(lobbyId)!.members.find((m) => m.id === cyd.id)).toMatchObject({
      metadata: { role: 'guest' },
    });

    const sent = await act(bob.client, () => bob.client.sendLobbyMessage(lobbyId, 'aye'));
    await until(() => ada.of('messageCreated').some(([id]) => id === sent), "ada receives the captain's message");
    expect(ada.client.getMessage(sent)).toMatchObject({
      authorId: bob.id,
      additionalName: 'Captain Bob',
      metadata: {},
    });
  });

  it('leaving deletes the lobby for the leaver and removes the member for the others', async () => {
    const scene = await lobbyOfTwo();
    const { ada, bob, cyd, lobbyId, secret } = scene;
    await botUpdatesMembers(scene);
    await act(bob.client, () => bob.client.leaveLobby(lobbyId));
    expect(bob.client.getLobby(lobbyId)).toBeUndefined();
    expect(bob.client.lobbyIds).not.toContain(lobbyId);
    await until(() => bob.of('lobbyDeleted').some(([id]) => id === lobbyId), 'lobbyDeleted for bob');
    await until(
      () => ada.of('lobbyMemberRemoved').some(([l, m]) => l === lobbyId && m === bob.id),
      'ada sees bob removed',
    );
    expect(ada.client.getLobby(lobbyId)!.memberIds).toEqual([ada.id, cyd.id]);
    expect(bob.of('lobbyDeleted').filter(([id]) => id === lobbyId)).toHaveLength(1); // reported once
    // Lobbies the server added the user to cannot be left by the user.
    await expect(act(cyd.client, () => cyd.client.leaveLobby(lobbyId))).rejects.toMatchObject({
      code: 'ERR_SVCPP_HTTP',
      status: 403,
    });
    // Rejoining by secret returns the same lobby.
    expect(await act(bob.client, () => bob.client.createOrJoinLobby(secret))).toBe(lobbyId);
  });

  it('reads a lobby whose snapshot holds more values than one call into JavaScript takes', async () => {
    // 25 metadata entries (the most a map may hold) on the lobby and on each of three members: about 300 values in
    // one snapshot, more than the N-API addon passes to its JavaScript builder in one call (it hands them over in
    // chunks); koffi reads the same bytes in JavaScript.
    const players = await trio();
    const { ada, bob, cyd, secret } = players;
    const lobbyId = await createLobby(players);
    const entries = (prefix: string) =>
      Object.fromEntries(Array.from({ length: 25 }, (_, k) => [`${prefix}-${k}`, `${prefix} value ${k}`]));
    const bigSecret = `${secret}-big`;
    const id = await act(ada.client, () =>
      ada.client.createOrJoinLobby(bigSecret, { lobbyMetadata: entries('lobby'), memberMetadata: entries('ada') }),
    );
    try {
      // Each join passes the lobby's metadata too (a join without it would set the lobby's to none).
      await act(bob.client, () =>
        bob.client.createOrJoinLobby(bigSecret, { lobbyMetadata: entries('lobby'), memberMetadata: entries('bob') }),
      );
      await act(cyd.client, () =>
        cyd.client.createOrJoinLobby(bigSecret, { lobbyMetadata: entries('lobby'), memberMetadata: entries('cyd') }),
      );
      await until(() => ada.client.getLobby(id)?.members.length === 3, 'ada sees all three members');
      const lobby = ada.client.getLobby(id)!;
      expect(lobby.metadata).toEqual(entries('lobby'));
      expect(lobby.members.map((m) => [m.id, m.metadata, m.user?.id, m.connected])).toEqual([
        [ada.id, entries('ada'), ada.id, true],
        [bob.id, entries('bob'), bob.id, true],
        [cyd.id, entries('cyd'), cyd.id, true],
      ]);
      // A small snapshot right after a chunked one is read from its own values only.
      expect(ada.client.getLobby(lobbyId)!.members[0]).toMatchObject({ id: ada.id, metadata: { team: 'red' } });
    } finally {
      for (const player of [ada, bob, cyd]) await act(player.client, () => player.client.leaveLobby(id));
    }
  });
});
