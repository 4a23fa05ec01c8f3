/**
 * Rich presence and game invites end to end on both backends against the real platform: A's activity reaches her
 * friend B (GameActivity, the OnlinePlayingGame group, the groups-updated event) but not C, who is no friend; every
 * activity limit is refused locally; clearing and the online status; and an invite from A's joinable activity that
 * B accepts for the join secret — until A stops playing, which invalidates it. Each test signs in players of its own
 * and brings them to the step it checks (`friends`, `playing`), so that it runs alone.
 * Runs twice per backend: with each SDK call made directly, and with each made from inside an SDK event handler
 * (`callsFrom` in support.ts), as game code reacting to events does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ActivityActionTypes,
  ActivityPartyPrivacy,
  ActivityTypes,
  RelationshipGroupType,
  StatusType,
  type Activity,
  type ActivityInvite,
} from '../../lib/index.js';
import { startE2EPlatform, type E2EPlatform } from './harness.js';
import { fullPlayersPerTest } from './social-support.js';
import { clearEvents, waitForEvent, type Player } from './player.js';
import { callsFrom, RUNS, until } from './support.js';

const joinable: Activity = {
  type: ActivityTypes.Playing,
  state: 'In a group',
  details: 'Ranked match',
  timestamps: { start: 1_700_000_000n }, // seconds: sent as milliseconds
  party: { id: 'party-1', currentSize: 1, maxSize: 4, privacy: ActivityPartyPrivacy.Public },
  secrets: { join: 'join-secret-1' },
  assets: { largeImage: 'map', largeText: 'The map' },
  buttons: [
    { label: 'Watch', url: 'https://example.test/watch' },
    { label: 'Site', url: 'https://example.test' },
  ],
};

const groupIds = (p: Player, group: RelationshipGroupType) => p.client.getRelationshipsByGroup(group).map((r) => r.id);

describe.each(RUNS)('presence and invites over $backend, SDK calls made $calls', ({ backend, calls }) => {
  const act = callsFrom(calls);
  let e2e: E2EPlatform;
  const players = fullPlayersPerTest(() => e2e, backend, 'pres');

  beforeAll(async () => {
    e2e = await startE2EPlatform();
  });
  afterAll(async () => {
    await e2e?.close();
  });

  /** Fresh A and B who are friends (B sees A online). */
  async function friends(): Promise<{ a: Player; b: Player }> {
    const { a, b } = await players('a', 'b');
    await act(a.client, () => a.client.sendPlatformFriendRequestById(b.id));
    await until(() => b.client.getRelationship(a.id) !== undefined, 'the request reaches B');
    await act(b.client, () => b.client.acceptPlatformFriendRequest(a.id));
    await until(() => groupIds(b, RelationshipGroupType.OnlineElsewhere).includes(a.id), "A is B's online friend");
    return { a, b };
  }

  /** Fresh friends as `friends` gives them, and A playing the joinable activity, which B sees. */
  async function playing(): Promise<{ a: Player; b: Player }> {
    const { a, b } = await friends();
    await act(a.client, () => a.client.updateRichPresence(joinable));
    await until(() => b.client.getUser(a.id)?.gameActivity?.state === 'In a group', "B sees A's activity");
    return { a, b };
  }

  it('a friend sees the activity as GameActivity and in OnlinePlayingGame; a stranger does not', async () => {
    const { a, b } = await friends();
    const { c } = await players('c'); // a friend of neither
    clearEvents(b, c);
    await act(a.client, () => a.client.updateRichPresence(joinable));
    await until(() => b.client.getUser(a.id)?.gameActivity !== undefined, "B sees A's activity");
    const seen = b.client.getUser(a.id)!.gameActivity!;
    expect(seen).toMatchObject({
      type: ActivityTypes.Playing,
      state: 'In a group',
      details: 'Ranked match',
      applicationId: BigInt(e2e.platform.devApp.id),
      timestamps: { start: 1_700_000_000_000n, end: 0n },
      party: { id: 'party-1', currentSize: 1, maxSize: 4, privacy: ActivityPartyPrivacy.Public },
      assets: { largeImage: 'map', largeText: 'The map' },
      buttons: joinable.buttons,
    });
    expect(await waitForEvent(b, 'relationshipGroupsUpdated', ([id]) => id === a.id)).toEqual([a.id]);
    expect(groupIds(b, RelationshipGroupType.OnlinePlayingGame)).toEqual([a.id]);
    expect(groupIds(b, RelationshipGroupType.OnlineElsewhere)).not.toContain(a.id);
    await until(() => a.client.currentUser?.gameActivity?.state === 'In a group', 'A sees her own activity');

    // C is no friend: no presence reaches her. A later dispatch to C (a friend request from A, sent on the same
    // socket after anything the presence change could have sent her) is the barrier that makes this certain.
    expect(c.client.getUser(a.id)).toBeUndefined();
    await act(a.client, () => a.client.sendPlatformFriendRequestById(c.id));
    await waitForEvent(c, 'relationshipCreated', ([id]) => id === a.id);
    expect(c.client.getUser(a.id)?.gameActivity).toBeUndefined();
    expect(c.events.filter((e) => e.name === 'userUpdated' || e.name === 'relationshipGroupsUpdated')).toEqual([]);
    await act(c.client, () => c.client.rejectPlatformFriendRequest(a.id));
    await until(() => a.client.getRelationship(c.id) === undefined, 'the request is gone');
  });

  it('every activity limit is refused locally with the field named', async () => {
    const { a, b } = await playing();
    const long = (n: number) => 'x'.repeat(n);
    const invalid: Array<[string, Activity]> = [
      ['activity.type', { type: ActivityTypes.Streaming }],
      ['activity.name', { type: ActivityTypes.Playing, name: long(129) }],
      ['activity.state', { type: ActivityTypes.Playing, state: 'x' }],
      ['activity.stateUrl', { type: ActivityTypes.Playing, stateUrl: long(257) }],
      ['activity.details', { type: ActivityTypes.Playing, details: long(129) }],
      ['activity.detailsUrl', { type: ActivityTypes.Playing, detailsUrl: 'x' }],
      ['activity.assets.largeImage', { type: ActivityTypes.Playing, assets: { largeImage: long(301) } }],
      ['activity.assets.largeText', { type: ActivityTypes.Playing, assets: { largeText: 'x' } }],
      ['activity.assets.largeUrl', { type: ActivityTypes.Playing, assets: { largeUrl: long(257) } }],
      ['activity.assets.smallImage', { type: ActivityTypes.Playing, assets: { smallImage: '' } }],
      ['activity.assets.smallText', { type: ActivityTypes.Playing, assets: { smallText: long(129) } }],
      ['activity.assets.smallUrl', { type: ActivityTypes.Playing, assets: { smallUrl: '' } }],
      ['activity.assets.inviteCoverImage', { type: ActivityTypes.Playing, assets: { inviteCoverImage: long(301) } }],
      [
        'activity.timestamps.end',
        { type: ActivityTypes.Playing, timestamps: { start: 1_700_000_000n, end: 1_600_000_000n } },
      ],
      ['activity.party.id', { type: ActivityTypes.Playing, party: { id: 'p', currentSize: 1, maxSize: 2 } }],
      ['activity.party.currentSize', { type: ActivityTypes.Playing, party: { id: 'pp', currentSize: 0, maxSize: 2 } }],
      ['activity.party.maxSize', { type: ActivityTypes.Playing, party: { id: 'pp', currentSize: 1, maxSize: -1 } }],
      ['activity.secrets.join', { type: ActivityTypes.Playing, secrets: { join: long(129) } }],
      [
        'activity.buttons: at most 2',
        { type: ActivityTypes.Playing, buttons: [...joinable.buttons!, { label: 'Third', url: 'https://x.test' }] },
      ],
      ['activity.buttons[0].label', { type: ActivityTypes.Playing, buttons: [{ label: '', url: 'https://x.test' }] }],
      [
        'activity.buttons[1].url',
        {
          type: ActivityTypes.Playing,
          buttons: [
            { label: 'a', url: 'u' },
            { label: 'b', url: '' },
          ],
        },
      ],
    ];
    for (const [field, activity] of invalid) {
      await expect(
        act(a.client, () => a.client.updateRichPresence(activity)),
        field,
      ).rejects.toMatchObject({ code: 'ERR_SVCPP_VALIDATION', message: expect.stringContaining(field) });
    }
    // Over the C ABI's hard limit of a button label (32): refused synchronously, before any request exists.
    await expect(
      act(a.client, () =>
        a.client.updateRichPresence({ type: ActivityTypes.Playing, buttons: [{ label: long(33), url: 'u' }] }),
      ),
    ).rejects.toMatchObject({ code: 'ERR_SVCPP_INVALID_ARGUMENT' });
    // Nothing was sent: B still sees the activity A played before.
    expect(b.client.getUser(a.id)?.gameActivity?.state).toBe('In a group');
  });

  it('online status: Dnd reaches friends; Offline is not a status one can set', async () => {
    const { a, b } = await friends();
    await act(a.client, () => a.client.setOnlineStatus(StatusType.Dnd));
    await until(() => b.client.getUser(a.id)?.status === StatusType.Dnd, 'B sees A as Dnd');
    await expect(act(a.client, () => a.client.setOnlineStatus(StatusType.Offline))).rejects.toMatchObject({
      code: 'ERR_SVCPP_VALIDATION',
    });
    await act(a.client, () => a.client.setOnlineStatus(StatusType.Online));
    await until(() => b.client.getUser(a.id)?.status === StatusType.Online, 'B sees A online again');
  });

  it('an invite from a joinable activity: received, accepted for the join secret, invalid once A stops playing', async () => {
    const { a, b } = await playing();
    clearEvents(b);
    const created = new Promise<ActivityInvite>((resolve) => b.client.once('activityInviteCreated', resolve));
    await act(a.client, () => a.client.sendActivityInvite(b.id, 'come play'));
    const invite = await created;
    expect(invite).toMatchObject({
      senderId: a.id,
      type: ActivityActionTypes.Join,
      applicationId: BigInt(e2e.platform.devApp.id),
      partyId: 'party-1',
      isValid: true,
    });
    expect(invite.messageId).not.toBe(0n);
    expect(await act(b.client, () => b.client.acceptActivityInvite(invite))).toBe('join-secret-1');
    await expect(act(b.client, () => b.client.sendActivityJoinRequestReply(invite))).rejects.toMatchObject({
      code: 'ERR_SVCPP_VALIDATION',
    });

    const updated = new Promise<ActivityInvite>((resolve) => b.client.once('activityInviteUpdated', resolve));
    clearEvents(b);
    a.client.clearRichPresence();
    const invalid = await updated;
    expect(invalid).toMatchObject({ messageId: invite.messageId, isValid: false });
    await until(() => b.client.getUser(a.id)?.gameActivity === undefined, 'B sees A stop playing');
    expect(groupIds(b, RelationshipGroupType.OnlineElsewhere)).toContain(a.id);
    expect(await waitForEvent(b, 'relationshipGroupsUpdated', ([id]) => id === a.id)).toEqual([a.id]);

    await expect(act(b.client, () => b.client.acceptActivityInvite(invalid))).rejects.toMatchObject({
      code: 'ERR_SVCPP_VALIDATION',
      message: expect.stringContaining('no longer valid'),
    });
    // The copy taken while it was valid: the platform refuses it.
    await expect(act(b.client, () => b.client.acceptActivityInvite(invite))).rejects.toMatchObject({
      code: 'ERR_SVCPP_HTTP',
      errorCode: 80021,
    });
  });

  it('an invite needs a joinable activity; a join request goes the other way', async () => {
    const { a, b } = await friends();
    await expect(act(a.client, () => a.client.sendActivityInvite(b.id))).rejects.toMatchObject({
      code: 'ERR_SVCPP_HTTP',
      errorCode: 80020,
    });
    await expect(act(a.client, () => a.client.sendActivityInvite(a.id))).rejects.toMatchObject({
      code: 'ERR_SVCPP_VALIDATION',
    });

    await act(a.client, () =>
      a.client.updateRichPresence({
        ...joinable,
        party: { id: 'party-2', currentSize: 1, maxSize: 4 },
        secrets: { join: 'join-secret-2' },
      }),
    );
    const asked = new Promise<ActivityInvite>((resolve) => a.client.once('activityInviteCreated', resolve));
    await act(b.client, () => b.client.sendActivityJoinRequest(a.id));
    const request = await asked;
    expect(request).toMatchObject({ senderId: b.id, type: ActivityActionTypes.JoinRequest });
    await expect(act(a.client, () => a.client.acceptActivityInvite(request))).rejects.toMatchObject({
      code: 'ERR_SVCPP_VALIDATION',
    });

    const replied = new Promise<ActivityInvite>((resolve) => b.client.once('activityInviteCreated', resolve));
    await act(a.client, () => a.client.sendActivityJoinRequestReply(request));
    const reply = await replied;
    expect(reply).toMatchObject({ senderId: a.id, type: ActivityActionTypes.Join, partyId: 'party-2' });
    expect(await act(b.client, () => b.client.acceptActivityInvite(reply))).toBe('join-secret-2');
  });

  it('calls that need the gateway fail with ClientNotReady while disconnected', async () => {
    const { a, c } = await players('a', 'c');
    await act(c.client, () => c.client.disconnect());
    await expect(act(c.client, () => c.client.updateRichPresence(joinable))).rejects.toMatchObject({
      code: 'ERR_SVCPP_CLIENT_NOT_READY',
    });
    await expect(act(c.client, () => c.client.setOnlineStatus(StatusType.Idle))).rejects.toMatchObject({
      code: 'ERR_SVCPP_CLIENT_NOT_READY',
    });
    await expect(act(c.client, () => c.client.sendPlatformFriendRequestById(a.id))).rejects.toMatchObject({
      code: 'ERR_SVCPP_CLIENT_NOT_READY',
    });
    await expect(act(c.client, () => c.client.sendActivityInvite(a.id))).rejects.toMatchObject({
      code: 'ERR_SVCPP_CLIENT_NOT_READY',
    });
  });
});
