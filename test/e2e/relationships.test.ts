/**
 * Relationships end to end on both backends against the real platform (HTTPS + WSS): friend requests by name and
 * id on the platform axis, accept / reject / cancel / remove, local precondition failures that change nothing,
 * blocking, the game axis (also between provisional accounts), the spam flag, and the events of each step. Each test
 * signs in players of its own (`players`) and befriends them when it needs friends (`befriend`), so that it runs alone.
 * Runs twice per backend: with each SDK call made directly, and with each made from inside an SDK event handler
 * (`callsFrom` in support.ts), as game code reacting to events does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientStatus, RelationshipType } from '../../lib/index.js';
import { request } from '../../platform/test/support/http.js';
import { startE2EPlatform, type E2EPlatform } from './harness.js';
import { fullPlayersPerTest, provisionalPlayer } from './social-support.js';
import { clearEvents, closeAll, waitForEvent, type Player } from './player.js';
import { callsFrom, RUNS, until } from './support.js';

const { None, Friend, Blocked, PendingIncoming, PendingOutgoing } = RelationshipType;

/** [platform, game] relationship types `viewer` has with `other` (None/None when there is none). */
function types(viewer: Player, other: Player): [RelationshipType, RelationshipType] {
  const r = viewer.client.getRelationship(other.id);
  return [r?.platformRelationshipType ?? None, r?.gameRelationshipType ?? None];
}

async function untilTypes(
  viewer: Player,
  other: Player,
  expected: [RelationshipType, RelationshipType],
): Promise<void> {
  await until(
    () => {
      const [p, g] = types(viewer, other);
      return p === expected[0] && g === expected[1];
    },
    `${viewer.username} sees ${other.username} as ${expected.map((t) => RelationshipType[t]).join('/')}`,
  );
}

describe.each(RUNS)('relationships over $backend, SDK calls made $calls', ({ backend, calls }) => {
  const act = callsFrom(calls);
  let e2e: E2EPlatform;
  const players = fullPlayersPerTest(() => e2e, backend, 'rel');

  beforeAll(async () => {
    e2e = await startE2EPlatform();
  });
  afterAll(async () => {
    await e2e?.close();
  });

  /** `from` sends a platform friend request by id, `to` accepts it, and both see Friend. */
  async function befriend(from: Player, to: Player): Promise<void> {
    await act(from.client, () => from.client.sendPlatformFriendRequestById(to.id));
    await untilTypes(to, from, [PendingIncoming, None]);
    await act(to.client, () => to.client.acceptPlatformFriendRequest(from.id));
    await untilTypes(from, to, [Friend, None]);
    await untilTypes(to, from, [Friend, None]);
  }

  it('a request by username, accepted: both sides see Friend and get the created events', async () => {
    const { a, b } = await players('a', 'b');
    // Usernames match case-insensitively.
    await act(a.client, () => a.client.sendPlatformFriendRequest(b.username.toUpperCase()));
    await untilTypes(a, b, [PendingOutgoing, None]);
    await untilTypes(b, a, [PendingIncoming, None]);
    // The event carries the relationship as the cache holds it when delivered (native/SEMANTICS.md "Event payloads").
    expect(await waitForEvent(b, 'relationshipCreated')).toEqual([a.id, true, b.client.getRelationship(a.id)]);
    const incoming = b.client.getRelationship(a.id)!;
    expect(incoming).toMatchObject({ id: a.id, isSpamRequest: false, user: { id: a.id, username: a.username } });

    await act(b.client, () => b.client.acceptPlatformFriendRequest(a.id));
    await untilTypes(a, b, [Friend, None]);
    await untilTypes(b, a, [Friend, None]);
    // The cache changes before the event is pumped: wait for both events (request sent, then accepted).
    const created = () => a.events.filter((e) => e.name === 'relationshipCreated').map((e) => e.args.slice(0, 2));
    await until(() => created().length === 2, "A's two created events");
    expect(created()).toEqual([
      [b.id, true],
      [b.id, true],
    ]);
    expect(a.client.getRelationships().map((r) => r.id)).toContain(b.id);
    expect(a.client.searchFriendsByUsername(b.username.slice(0, 5).toUpperCase()).map((u) => u.id)).toContain(b.id);
  });

  it('a request by id, accepted, then removed on both axes', async () => {
    const { a, c } = await players('a', 'c');
    await befriend(a, c);

    await act(c.client, () => c.client.removePlatformAndGameFriend(a.id));
    await untilTypes(a, c, [None, None]);
    await untilTypes(c, a, [None, None]);
    expect(await waitForEvent(a, 'relationshipDeleted')).toEqual([c.id, true]);
    expect(a.client.getRelationship(c.id)).toBeUndefined();
  });

  it('reject and cancel end a pending request on both sides', async () => {
    const { a, c } = await players('a', 'c');
    await act(c.client, () => c.client.sendPlatformFriendRequestById(a.id));
    await untilTypes(a, c, [PendingIncoming, None]);
    await act(a.client, () => a.client.rejectPlatformFriendRequest(c.id));
    await untilTypes(c, a, [None, None]);
    await untilTypes(a, c, [None, None]);

    await act(c.client, () => c.client.sendPlatformFriendRequestById(a.id));
    await untilTypes(a, c, [PendingIncoming, None]);
    // Each side's cache follows its own gateway dispatch: C's cancel is checked against C's view, so wait for it too.
    await untilTypes(c, a, [PendingOutgoing, None]);
    clearEvents(a);
    await act(c.client, () => c.client.cancelPlatformFriendRequest(a.id));
    await untilTypes(a, c, [None, None]);
    expect(await waitForEvent(a, 'relationshipDeleted')).toEqual([c.id, true]);
  });

  it('an invalid transition fails with ValidationError before anything is sent, and nothing changes', async () => {
    const { a, b, c } = await players('a', 'b', 'c');
    await befriend(a, b);
    const before = a.client.getRelationships();
    await expect(act(a.client, () => a.client.acceptPlatformFriendRequest(c.id))).rejects.toMatchObject({
      code: 'ERR_SVCPP_VALIDATION',
      message: expect.stringContaining('no pending incoming platform friend request'),
    });
    await expect(act(a.client, () => a.client.cancelGameFriendRequest(c.id))).rejects.toMatchObject({
      code: 'ERR_SVCPP_VALIDATION',
    });
    await expect(act(a.client, () => a.client.unblockUser(c.id))).rejects.toMatchObject({
      code: 'ERR_SVCPP_VALIDATION',
      message: expect.stringContaining('not blocked'),
    });
    await expect(act(a.client, () => a.client.sendPlatformFriendRequestById(b.id))).rejects.toMatchObject({
      code: 'ERR_SVCPP_VALIDATION',
      message: expect.stringContaining('already'),
    });
    await expect(act(a.client, () => a.client.sendPlatformFriendRequestById(a.id))).rejects.toMatchObject({
      code: 'ERR_SVCPP_VALIDATION',
    });
    await expect(act(a.client, () => a.client.sendPlatformFriendRequest(''))).rejects.toMatchObject({
      code: 'ERR_SVCPP_VALIDATION',
    });
    await expect(act(a.client, () => a.client.removeGameFriend(0n))).rejects.toMatchObject({
      code: 'ERR_SVCPP_VALIDATION',
    });
    expect(a.client.getRelationships()).toEqual(before);
    expect(types(c, a)).toEqual([None, None]);
  });

  it("an unknown username is the platform's 404", async () => {
    const { a } = await players('a');
    await expect(act(a.client, () => a.client.sendPlatformFriendRequest(`nobody_${backend}`))).rejects.toMatchObject({
      code: 'ERR_SVCPP_HTTP',
      status: 404,
      errorCode: 80004,
    });
  });

  it('blocking removes the relationship on both sides; unblocking ends the block', async () => {
    const { b, c } = await players('b', 'c');
    await befriend(c, b);

    clearEvents(c);
    await act(b.client, () => b.client.blockUser(c.id));
    await untilTypes(b, c, [Blocked, None]);
    await untilTypes(c, b, [None, None]);
    expect(await waitForEvent(c, 'relationshipDeleted')).toEqual([b.id, true]);
    await expect(act(c.client, () => c.client.sendPlatformFriendRequestById(b.id))).rejects.toMatchObject({
      code: 'ERR_SVCPP_HTTP',
      errorCode: 80000,
    });
    await expect(act(b.client, () => b.client.sendPlatformFriendRequestById(c.id))).rejects.toMatchObject({
      code: 'ERR_SVCPP_VALIDATION',
      message: expect.stringContaining('blocked'),
    });

    await act(b.client, () => b.client.unblockUser(c.id));
    await untilTypes(b, c, [None, None]);
  });

  it('game friends live on the game axis only', async () => {
    const { a, c } = await players('a', 'c');
    await act(a.client, () => a.client.sendGameFriendRequestById(c.id));
    await untilTypes(c, a, [None, PendingIncoming]);
    await untilTypes(a, c, [None, PendingOutgoing]);
    clearEvents(c);
    await act(c.client, () => c.client.acceptGameFriendRequest(a.id));
    await untilTypes(a, c, [None, Friend]);
    await untilTypes(c, a, [None, Friend]);
    // The event of the accepted request carries the relationship as it is then (an earlier event delivered after it
    // was queued shows the state at its own delivery).
    expect(
      await waitForEvent(
        c,
        'relationshipCreated',
        ([, , r]) => (r as { gameRelationshipType?: number } | undefined)?.gameRelationshipType === Friend,
      ),
    ).toMatchObject([a.id, false, { id: a.id, gameRelationshipType: Friend }]);
    await expect(act(c.client, () => c.client.acceptPlatformFriendRequest(a.id))).rejects.toMatchObject({
      code: 'ERR_SVCPP_VALIDATION',
    });

    await act(c.client, () => c.client.removeGameFriend(a.id));
    await untilTypes(a, c, [None, None]);
  });

  it('provisional accounts have game relationships only', async () => {
    const p = await provisionalPlayer(e2e, backend, `rel-prov-1-${backend}`);
    const q = await provisionalPlayer(e2e, backend, `rel-prov-2-${backend}`);
    try {
      await expect(act(p.client, () => p.client.sendPlatformFriendRequestById(q.id))).rejects.toMatchObject({
        code: 'ERR_SVCPP_VALIDATION',
        message: expect.stringContaining('provisional'),
      });
      await act(p.client, () => p.client.sendGameFriendRequest(q.username));
      await untilTypes(q, p, [None, PendingIncoming]);
      await act(q.client, () => q.client.acceptGameFriendRequest(p.id));
      await untilTypes(p, q, [None, Friend]);
    } finally {
      await closeAll(p, q);
    }
  });

  it('a request from a flagged sender is a spam request', async () => {
    const { a, spam: spammer } = await players('a', 'spam');
    const flagged = await request(`${e2e.apiBase}/dev/users/${spammer.id}/spam`, {
      ca: e2e.caPem,
      json: { spammer: true },
    });
    expect(flagged.status).toBeLessThan(300);
    await act(spammer.client, () => spammer.client.sendPlatformFriendRequestById(a.id));
    await untilTypes(a, spammer, [PendingIncoming, None]);
    await untilTypes(spammer, a, [PendingOutgoing, None]);
    expect(a.client.getRelationship(spammer.id)?.isSpamRequest).toBe(true);
    expect(spammer.client.getRelationship(a.id)?.isSpamRequest).toBe(false);
    await act(a.client, () => a.client.rejectPlatformFriendRequest(spammer.id));
    await untilTypes(a, spammer, [None, None]);
  });

  it('READY brings the relationships of a new session', async () => {
    const { a, b } = await players('a', 'b');
    await befriend(a, b);
    expect(a.client.getRelationships().length).toBeGreaterThan(0);
    // The ended session's caches are emptied before Disconnected is queued (native/SEMANTICS.md "Connection"): the
    // Disconnected handler already sees none, and so does the host once disconnect() resolves.
    const seenInHandler: number[] = [];
    const onStatus = (status: ClientStatus) => {
      if (status === ClientStatus.Disconnected) seenInHandler.push(a.client.getRelationships().length);
    };
    a.client.on('statusChanged', onStatus);
    try {
      await act(a.client, () => a.client.disconnect());
    } finally {
      a.client.off('statusChanged', onStatus);
    }
    expect(seenInHandler).toEqual([0]);
    expect(a.client.getRelationships()).toEqual([]);
    await act(a.client, () => a.client.connect());
    expect(types(a, b)).toEqual([Friend, None]);
    expect(a.client.getRelationship(b.id)?.user?.username).toBe(b.username);
  });
});
