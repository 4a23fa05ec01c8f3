/**
 * The social layer as one story, on both backends, three SDK clients against the real platform over HTTPS/WSS:
 * Alice and Bob become friends and Carol, whom Alice blocks, drops out of her list; Bob sees Alice's joinable rich
 * presence (Carol does not); Alice invites Bob, who accepts, gets the join secret and joins her lobby with it; they
 * chat with metadata; the game server adds Carol in bulk with an additional name; Alice and Bob edit and delete a DM.
 * The per-area suites (relationships, presence, lobbies, direct-messages, linked-channels) test each rule and limit
 * in depth; this one checks that the areas work together. Each test tells the story from its start up to its own step,
 * with three players of its own, so that it runs alone too.
 *
 * The story runs twice per backend: once with each SDK call made directly, once with each made from inside an SDK
 * event handler (`callsFrom`), as game code reacting to events does — on koffi that is inside the native pump, where
 * such a call used to kill the process. In that run Bob accepts Alice's invite with the README's own one-liner.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  ActivityActionTypes,
  ActivityTypes,
  RelationshipGroupType,
  RelationshipType,
  type Activity,
  type ActivityInvite,
} from '../../lib/index.js';
import { startE2EPlatform, type E2EPlatform } from './harness.js';
import { fullPlayer as player } from './social-support.js';
import { closeAll, waitForEvent, type Player } from './player.js';
import { callsFrom, RUNS, until } from './support.js';

/** The three players of one test and the join secret of Alice's lobby. */
interface Cast {
  alice: Player;
  bob: Player;
  carol: Player;
  secret: string;
}

describe.each(RUNS)(
  'the social layer with three players over $backend, SDK calls made $calls',
  ({ backend, calls }) => {
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
      await e2e?.close();
    });

    /** Three fresh full accounts (each test tells the story from its start); closed after the test. */
    async function cast(): Promise<Cast> {
      const tag = randomUUID().slice(0, 8);
      const [alice, bob, carol] = [
        await player(e2e, backend, `alice_${tag}`),
        await player(e2e, backend, `bob_${tag}`),
        await player(e2e, backend, `carol_${tag}`),
      ];
      opened.push(alice, bob, carol);
      return { alice, bob, carol, secret: `scenario-${backend}-${tag}` };
    }

    /** The story's first step: Alice and Bob become friends; Carol asks Alice, who blocks her. */
    async function befriendAndBlock({ alice, bob, carol }: Cast): Promise<void> {
      await act(alice.client, () => alice.client.sendPlatformFriendRequest(bob.username));
      await until(
        () => bob.client.getRelationship(alice.id)?.platformRelationshipType === RelationshipType.PendingIncoming,
        'Bob sees the request',
      );
      await act(bob.client, () => bob.client.acceptPlatformFriendRequest(alice.id));
      await until(
        () => alice.client.getRelationship(bob.id)?.platformRelationshipType === RelationshipType.Friend,
        'Alice sees the friendship',
      );
      // The cache changes before the event is pumped (native/SEMANTICS.md "Pump and hook"): wait for the event itself.
      await waitForEvent(alice, 'relationshipCreated', ([id, platform]) => id === bob.id && platform === true);

      await act(carol.client, () => carol.client.sendPlatformFriendRequestById(alice.id));
      await until(
        () => alice.client.getRelationship(carol.id)?.platformRelationshipType === RelationshipType.PendingIncoming,
        "Carol's request arrives",
      );
      await act(alice.client, () => alice.client.blockUser(carol.id));
      // A relationship call's completion does not touch the cache; the dispatch that follows does (SEMANTICS.md).
      await until(
        () => alice.client.getRelationship(carol.id)?.platformRelationshipType === RelationshipType.Blocked,
        'Alice sees Carol blocked',
      );
      await until(
        () => carol.client.getRelationship(alice.id) === undefined,
        "Carol's side of the relationship is gone",
      );
    }

    /** Alice opens her lobby and shows it, joinable by the cast's secret, in her rich presence; returns the lobby. */
    async function hostLobby({ alice, secret }: Cast): Promise<bigint> {
      const lobbyId = await act(alice.client, () =>
        alice.client.createOrJoinLobby(secret, { lobbyMetadata: { mode: 'duos' } }),
      );
      const activity: Activity = {
        type: ActivityTypes.Playing,
        state: 'In a lobby',
        details: 'Duos',
        party: { id: `party-${backend}`, currentSize: 1, maxSize: 2 },
        secrets: { join: secret },
      };
      await act(alice.client, () => alice.client.updateRichPresence(activity));
      return lobbyId;
    }

    /** The story up to Bob in Alice's lobby (he joins by her secret, as her invite gives it); returns the lobby. */
    async function bobInAlicesLobby(): Promise<Cast & { lobbyId: bigint }> {
      const players = await cast();
      const { alice, bob, secret } = players;
      await befriendAndBlock(players);
      const lobbyId = await hostLobby(players);
      expect(await act(bob.client, () => bob.client.createOrJoinLobby(secret))).toBe(lobbyId);
      await waitForEvent(alice, 'lobbyMemberAdded', ([l, m]) => l === lobbyId && m === bob.id);
      return { ...players, lobbyId };
    }

    it('befriends Alice and Bob; Alice blocks Carol, whose request disappears', async () => {
      const players = await cast();
      const { alice, carol } = players;
      await befriendAndBlock(players);
      await expect(act(carol.client, () => carol.client.sendUserMessage(alice.id, 'hello?'))).rejects.toMatchObject({
        code: 'ERR_SVCPP_HTTP',
        status: 403,
        errorCode: 50007,
      });
    });

    it("shows Alice's joinable presence to her friend Bob, not to Carol", async () => {
      const players = await cast();
      const { alice, bob, carol } = players;
      await befriendAndBlock(players);
      await hostLobby(players);
      await until(() => bob.client.getUser(alice.id)?.gameActivity?.state === 'In a lobby', 'Bob sees the activity');
      expect(bob.client.getRelationshipsByGroup(RelationshipGroupType.OnlinePlayingGame).map((r) => r.id)).toEqual([
        alice.id,
      ]);
      expect(carol.client.getUser(alice.id)?.gameActivity).toBeUndefined();
    });

    it('Alice invites Bob; Bob accepts, gets the join secret and joins her lobby with it', async () => {
      const players = await cast();
      const { alice, bob, secret } = players;
      await befriendAndBlock(players);
      const lobbyId = await hostLobby(players);
      // From event handlers, Bob reacts to the invite with the README's pattern: accept, then join, inside the handler.
      let joinedFromHandler: Promise<bigint> | undefined;
      if (calls === 'from event handlers') {
        bob.client.once('activityInviteCreated', (invite) => {
          joinedFromHandler = (async () =>
            bob.client.createOrJoinLobby(await bob.client.acceptActivityInvite(invite)))();
        });
      }
      await act(alice.client, () => alice.client.sendActivityInvite(bob.id, 'join me'));
      const invite = (await waitForEvent(bob, 'activityInviteCreated'))[0] as ActivityInvite;
      expect(invite).toMatchObject({
        senderId: alice.id,
        type: ActivityActionTypes.Join,
        applicationId: BigInt(e2e.platform.devApp.id),
        isValid: true,
      });

      if (joinedFromHandler) {
        expect(await joinedFromHandler).toBe(lobbyId);
      } else {
        const joinSecret = await bob.client.acceptActivityInvite(invite);
        expect(joinSecret).toBe(secret);
        expect(await bob.client.createOrJoinLobby(joinSecret)).toBe(lobbyId);
      }
      await waitForEvent(alice, 'lobbyMemberAdded', ([l, m]) => l === lobbyId && m === bob.id);
      expect(bob.client.getLobby(lobbyId)!.metadata).toEqual({ mode: 'duos' });
    });

    it('chats in the lobby with metadata; history is for members only and at most 200', async () => {
      const { alice, bob, carol, lobbyId } = await bobInAlicesLobby();
      const sent = await act(bob.client, () => bob.client.sendLobbyMessage(lobbyId, 'gl hf', { emote: 'wave' }));
      await waitForEvent(alice, 'messageCreated', ([id]) => id === sent);
      expect(alice.client.getMessage(sent)).toMatchObject({
        content: 'gl hf',
        authorId: bob.id,
        lobbyId,
        metadata: { emote: 'wave' },
      });

      const history = await act(alice.client, () => alice.client.getLobbyMessages(lobbyId, 10));
      expect(history.map((m) => m.id)).toEqual([sent]);
      await expect(act(alice.client, () => alice.client.getLobbyMessages(lobbyId, 201))).rejects.toMatchObject({
        code: 'ERR_SVCPP_VALIDATION',
      });
      await expect(act(carol.client, () => carol.client.getLobbyMessages(lobbyId, 10))).rejects.toMatchObject({
        code: 'ERR_SVCPP_HTTP',
        status: 403,
      });
    });

    it('the game server adds Carol in bulk with an additional name, and updates Bob', async () => {
      const { alice, bob, carol, lobbyId } = await bobInAlicesLobby();
      await e2e.server.bulkUpdateLobbyMembers(lobbyId.toString(), [
        { userId: carol.id.toString(), additionalName: 'Medic', metadata: { team: 'blue' } },
        { userId: bob.id.toString(), metadata: { team: 'red' } },
      ]);
      await waitForEvent(carol, 'lobbyCreated', ([l]) => l === lobbyId);
      await until(
        () => alice.client.getLobby(lobbyId)?.members.find((m) => m.id === bob.id)?.metadata.team === 'red',
        'Alice sees Bob updated',
      );
      expect(alice.client.getLobby(lobbyId)!.members.find((m) => m.id === carol.id)).toMatchObject({
        additionalName: 'Medic',
        metadata: { team: 'blue' },
      });

      const sent = await act(carol.client, () => carol.client.sendLobbyMessage(lobbyId, 'heals ready'));
      await waitForEvent(alice, 'messageCreated', ([id]) => id === sent);
      expect(alice.client.getMessage(sent)!.additionalName).toBe('Medic');
    });

    it('Alice and Bob exchange a DM, edit it and delete it, both sides seeing each step', async () => {
      const players = await cast();
      const { alice, bob } = players;
      await befriendAndBlock(players);
      const sent = await act(alice.client, () =>
        alice.client.sendUserMessage(bob.id, 'see you at 8', { kind: 'plan' }),
      );
      await waitForEvent(bob, 'messageCreated', ([id]) => id === sent);
      expect(bob.client.getMessage(sent)).toMatchObject({
        content: 'see you at 8',
        authorId: alice.id,
        metadata: { kind: 'plan' },
      });

      await act(alice.client, () => alice.client.editUserMessage(bob.id, sent, 'see you at 9'));
      await until(() => bob.client.getMessage(sent)?.content === 'see you at 9', 'Bob sees the edit');
      await waitForEvent(bob, 'messageUpdated', ([id]) => id === sent);
      expect(bob.client.getMessage(sent)!.editedTimestamp).toBeGreaterThan(0n);

      await act(alice.client, () => alice.client.deleteUserMessage(bob.id, sent));
      await waitForEvent(bob, 'messageDeleted', ([id]) => id === sent);
      expect((await act(bob.client, () => bob.client.getUserMessages(alice.id, 10))).map((m) => m.id)).not.toContain(
        sent,
      );
    });
  },
);
