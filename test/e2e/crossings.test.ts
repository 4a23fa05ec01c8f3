/**
 * The JS <-> native edge counted, not timed: a lobby message sent by one player reaches the other's messageCreated
 * handler, which reads the whole message. On the way back that walk takes 2 crossings (the target: at most 3): the
 * callback the pump makes, and getMessage's lookup snapshot — the cache lookup and one Snapshot that reads every
 * getter, nested author included, in the same call (native/SEMANTICS.md "Snapshots"). An event that carries its
 * payload (native/SEMANTICS.md "Event payloads") costs one crossing with the object read. N-API only: the counter is
 * a debug counter of its glue (koffi makes one crossing per getter, by design).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MessageSnapshot } from '../../lib/index.js';
import { loadBackend } from '../../lib/loader.js';
import type { UserSnapshot } from '../../lib/users.js';
import { request } from '../../platform/test/support/http.js';
import { startE2EPlatform, type E2EPlatform } from './harness.js';
import { connectProvisionalPlayer } from './chat-support.js';
import type { Player } from './player.js';
import { until } from './support.js';

describe('crossings of the N-API edge', () => {
  let e2e: E2EPlatform;
  let ada: Player;
  let bob: Player;
  let lobbyId: bigint;

  beforeAll(async () => {
    e2e = await startE2EPlatform();
    ada = await connectProvisionalPlayer(e2e, 'napi', 'Ada');
    bob = await connectProvisionalPlayer(e2e, 'napi', 'Bob');
    lobbyId = await ada.client.createOrJoinLobby('e2e-crossings');
    await bob.client.createOrJoinLobby('e2e-crossings');
  });
  afterAll(async () => {
    for (const player of [ada, bob]) await player?.client.close();
    await e2e.close();
  });

  it('sendLobbyMessage -> platform -> messageCreated handler reading the message: 2 crossings back', async () => {
    const crossings = loadBackend('napi').Debug_Crossings!;
    const seen: Array<{ crossings: bigint; message: MessageSnapshot | undefined }> = [];
    const onMessage = (messageId: bigint) => {
      const message = bob.client.getMessage(messageId);
      const now = crossings();
      // Counted from before the pump entered this callback: the callback itself, then what the handler did.
      seen.push({ crossings: now.total - now.atCallbackStart, message });
    };
    bob.client.on('messageCreated', onMessage);
    try {
      const sent = await ada.client.sendLobbyMessage(lobbyId, 'counted', { kind: 'count' });
      await until(() => seen.some((s) => s.message?.id === sent), 'bob reads the message in his handler');
      const walk = seen.find((s) => s.message?.id === sent)!;
      expect(walk.message).toMatchObject({
        id: sent,
        rawContent: 'counted',
        authorId: ada.id,
        author: { id: ada.id },
        lobbyId,
        metadata: { kind: 'count' },
      });
      expect(walk.crossings).toBe(2n);
    } finally {
      bob.client.off('messageCreated', onMessage);
    }
  });

  it('messageCreated carrying its message: the message read with the delivery, 1 crossing back', async () => {
    const crossings = loadBackend('napi').Debug_Crossings!;
    const seen: Array<{ crossings: bigint; id: bigint; message: MessageSnapshot | undefined }> = [];
    const onMessage = (id: bigint, message: MessageSnapshot | undefined) => {
      const now = crossings();
      seen.push({ crossings: now.total - now.atCallbackStart, id, message });
    };
    bob.client.on('messageCreated', onMessage);
    try {
      const sent = await ada.client.sendLobbyMessage(lobbyId, 'carried', { kind: 'payload' });
      await until(() => seen.some((s) => s.id === sent), 'bob gets the message with its event');
      const walk = seen.find((s) => s.id === sent)!;
      expect(walk.message).toMatchObject({
        id: sent,
        rawContent: 'carried',
        authorId: ada.id,
        author: { id: ada.id },
        lobbyId,
        metadata: { kind: 'payload' },
      });
      expect(walk.crossings).toBe(1n);
    } finally {
      bob.client.off('messageCreated', onMessage);
    }
  });

  it('userUpdated carrying its user: one crossing for the delivery and the user read', async () => {
    const crossings = loadBackend('napi').Debug_Crossings!;
    const seen: Array<{ crossings: bigint; id: bigint; user: UserSnapshot | undefined }> = [];
    const onUser = (id: bigint, user: UserSnapshot | undefined) => {
      const now = crossings();
      seen.push({ crossings: now.total - now.atCallbackStart, id, user });
    };
    bob.client.on('userUpdated', onUser);
    try {
      // A USER_UPDATE of bob himself, published to his session by the platform's development route.
      const d = {
        id: bob.id.toString(),
        username: bob.client.currentUser!.username,
        global_name: 'Bob Renamed',
        is_provisional: true,
      };
      const response = await request(`${e2e.apiBase}/dev/gateway/dispatch`, {
        ca: e2e.caPem,
        json: { user_ids: [d.id], t: 'USER_UPDATE', d, count: 1 },
      });
      expect(response.status).toBe(200);
      await until(() => seen.some((s) => s.user?.globalName === 'Bob Renamed'), 'bob gets his update with its user');
      const walk = seen.find((s) => s.user?.globalName === 'Bob Renamed')!;
      expect(walk).toMatchObject({ id: bob.id, user: { id: bob.id, displayName: 'Bob Renamed', isProvisional: true } });
      expect(walk.crossings).toBe(1n);
    } finally {
      bob.client.off('userUpdated', onUser);
    }
  });

  it('a snapshot is one crossing however many getters it reads', () => {
    const api = loadBackend('napi');
    const { total: before } = api.Debug_Crossings!();
    const me = bob.client.currentUser;
    const { total: after } = api.Debug_Crossings!();
    expect(me).toMatchObject({ id: bob.id, isProvisional: true });
    // Client_GetCurrentUserV2_Snapshot: the lookup and the snapshot in one call.
    expect(after - before).toBe(1n);
  });
});
