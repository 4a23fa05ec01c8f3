/**
 * Presence across nodes (PROTOCOL.md §10.2 and "Several nodes"), as units: two PresenceServices on a shared log fake
 * whose nodes read the stream at different paces, one friendship table standing for the shared database. What each
 * node's bus delivers is what that node's sessions receive. Whatever the lag, a friend hears a user's presence
 * changes in the order they were made, is introduced with every change made before the friendship, and hears of a
 * new friend once.
 */
import { describe, expect, it } from 'vitest';
import type { PlatformKernel } from '../../src/kernel.js';
import { EventBus, type BusEvent } from '../../src/events/bus.js';
import { PresenceService, type PresenceJson } from '../../src/social/presence/service.js';
import type { RelationshipService } from '../../src/social/relationships/service.js';
import type { RelationshipRecord } from '../../src/store/social-types.js';
import { SharedStream, type FakeNodeLog } from '../support/shared-stream.js';

const APP = 'app';

/** The shared database's friendships, both rows of each (platform axis). */
class Friendships {
  private rows: RelationshipRecord[] = [];
  /** Each friendship's `since`: recent, and never the same twice (it names the friendship). */
  private nextSince = Date.now();

  /** Commits a new friendship and returns its `since`. */
  befriend(a: string, b: string): number {
    const since = this.nextSince++;
    for (const [userId, otherId] of [
      [a, b],
      [b, a],
    ]) {
      this.rows.push({
        userId: userId!,
        otherId: otherId!,
        axis: 'platform',
        applicationId: '',
        type: 1,
        isSpamRequest: false,
        since,
      });
    }
    return since;
  }

  unfriend(a: string, b: string): void {
    this.rows = this.rows.filter((r) => !((r.userId === a && r.otherId === b) || (r.userId === b && r.otherId === a)));
  }

  service(): RelationshipService {
    return {
      friendships: (userId: string) => this.rows.filter((r) => r.userId === userId),
    } as unknown as RelationshipService;
  }
}

interface Node {
  log: FakeNodeLog;
  presence: PresenceService;
  /** Every PRESENCE_UPDATE this node delivered to its sessions. */
  delivered: BusEvent[];
}

function cluster(): { stream: SharedStream; friendships: Friendships; a: Node; b: Node } {
  const stream = new SharedStream();
  const friendships = new Friendships();
  const node = (name: string): Node => {
    const log = stream.node(name);
    const bus = new EventBus(log);
    const delivered: BusEvent[] = [];
    bus.subscribe((event) => delivered.push(event));
    const ctx = { bus, now: () => Date.now() } as unknown as PlatformKernel;
    return { log, presence: new PresenceService(ctx, friendships.service()), delivered };
  };
  return { stream, friendships, a: node('A'), b: node('B') };
}

/** What `recipient`'s sessions on `node` heard of `subject`'s presence: status and first activity's state. */
function heard(node: Node, recipient: string, subject: string): Array<[string, unknown]> {
  return node.delivered
    .filter((event) => event.t === 'PRESENCE_UPDATE' && event.to.userIds?.includes(recipient))
    .map((event) => event.d as PresenceJson)
    .filter((d) => d.user.id === subject)
    .map((d) => [d.status, d.activities[0]?.state]);
}

describe('presence across nodes', () => {
  it('a friendship made on a node that has not read the user coming online yet still introduces them, once', () => {
    const { stream, friendships, a, b } = cluster();
    // Erin's first session is on node B; node A lags and has not read that entry when dave accepts on node A.
    b.presence.sessionsChanged('erin', APP, true);
    stream.deliver(b.log);
    const since = friendships.befriend('dave', 'erin');
    a.presence.friendsMade('dave', 'erin', '', since);
    stream.deliver();
    // Node A read the friendship from the database when it applied erin's coming online: that told dave.
    expect(heard(a, 'dave', 'erin')).toEqual([['online', undefined]]);
    // Node B applied it before the friendship existed: the introduction tells dave's sessions there.
    expect(heard(b, 'dave', 'erin')).toEqual([['online', undefined]]);
  });

  it('a friendship applied before the user comes online is introduced when they come online', () => {
    const { stream, friendships, a, b } = cluster();
    const since = friendships.befriend('dave', 'erin');
    a.presence.friendsMade('dave', 'erin', '', since);
    b.presence.sessionsChanged('erin', APP, true);
    stream.deliver();
    for (const node of [a, b]) expect(heard(node, 'dave', 'erin')).toEqual([['online', undefined]]);
  });

  it("the introduction shows every change made before it, and a friend's updates keep their order whichever nodes made them", () => {
    const { stream, friendships, a, b } = cluster();
    b.presence.sessionsChanged('erin', APP, true);
    b.presence.update('erin', APP, { status: 'idle', activity: { type: 0, name: 'Game', state: 'step 0' } as never });
    stream.deliver(b.log);
    const since = friendships.befriend('dave', 'erin');
    a.presence.friendsMade('dave', 'erin', '', since);
    stream.deliver(a.log);
    a.presence.update('erin', APP, { status: 'dnd', activity: { type: 0, name: 'Game', state: 'step 1' } as never });
    b.presence.update('erin', APP, { status: 'online', activity: { type: 0, name: 'Game', state: 'step 2' } as never });
    // Node B reads the rest first, then node A.
    stream.deliver(b.log);
    stream.deliver(a.log);
    const after = [
      ['idle', 'step 0'],
      ['dnd', 'step 1'],
      ['online', 'step 2'],
    ];
    // Node B applied erin's first changes before the friendship existed: the introduction brings them.
    expect(heard(b, 'dave', 'erin')).toEqual(after);
    // Node A lagged and read the new friendship from the database while it applied them: dave heard each as it came.
    expect(heard(a, 'dave', 'erin')).toEqual([['online', undefined], ...after]);
  });

  it('friends again after an unfriending are introduced again', () => {
    const { stream, friendships, a } = cluster();
    a.presence.sessionsChanged('erin', APP, true);
    a.presence.friendsMade('dave', 'erin', '', friendships.befriend('dave', 'erin'));
    stream.deliver();
    a.presence.update('erin', APP, { status: 'idle' });
    stream.deliver();
    friendships.unfriend('dave', 'erin');
    a.presence.friendsMade('dave', 'erin', '', friendships.befriend('dave', 'erin'));
    stream.deliver();
    expect(heard(a, 'dave', 'erin')).toEqual([
      ['online', undefined],
      ['idle', undefined],
      ['idle', undefined],
    ]);
  });

  it('a node replaying history rebuilds the state without delivering anything', () => {
    const stream = new SharedStream();
    const friendships = new Friendships();
    const log = stream.node('late');
    const bus = new EventBus(log);
    const delivered: BusEvent[] = [];
    bus.subscribe((event) => delivered.push(event));
    const presence = new PresenceService(
      { bus, now: () => Date.now() } as unknown as PlatformKernel,
      friendships.service(),
    );
    friendships.befriend('dave', 'erin');
    for (const entry of [
      { op: 'sessions', userId: 'erin', applicationId: APP, present: true },
      { op: 'update', userId: 'erin', applicationId: APP, status: 'dnd' },
    ]) {
      log.handlers.run('presence', entry, false, true);
    }
    expect(delivered).toEqual([]);
    expect(presence.view('erin').status).toBe('dnd');
  });
});
