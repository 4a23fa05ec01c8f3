/**
 * Units of the multi-node pieces (PROTOCOL.md "Several nodes"): the session table and hand-over on a shared log
 * fake (every node handles every entry in one order when the test says so, like the Redis stream), the replay ring's
 * snapshot, the in-process log's history rule, and a dead node's sessions and voice calls.
 */
import { describe, expect, it } from 'vitest';
import { EventBus } from '../../src/events/bus.js';
import { ChannelHandlers, InProcessLog, NODES_CHANNEL, type NodeDownEntry } from '../../src/events/cluster-log.js';
import { parseBrokerUrl, redactUrl } from '../../src/events/redis-log.js';
import { ClusterSessions, type ClusterSessionEvents } from '../../src/gateway/cluster-sessions.js';
import { DispatchTemplate } from '../../src/gateway/frames.js';
import { ReplayRing, type ReplayRingSnapshot } from '../../src/gateway/replay-ring.js';
import type { GatewayIdentity, SessionsChange } from '../../src/gateway/types.js';
import { ClusterVoice } from '../../src/voice/cluster-voice.js';
import type { VoiceState } from '../../src/voice/voice-states.js';
import { SharedStream } from '../support/shared-stream.js';

const alice: GatewayIdentity = {
  kind: 'user',
  applicationId: 'app',
  userId: 'alice',
  scopes: [],
  user: { id: 'alice' },
};

/** A node's view: what ClusterSessions told it. */
function recorder(handOver: (id: string) => ReplayRingSnapshot | null = () => null) {
  const seen: string[] = [];
  const events: ClusterSessionEvents = {
    pairChanged: (change: SessionsChange, origin) =>
      seen.push(`${change.present ? 'online' : 'offline'}:${change.userId}${origin ? ':origin' : ''}`),
    handOver: (id) => {
      seen.push(`handOver:${id}`);
      return handOver(id);
    },
    claimed: (id) => seen.push(`claimed:${id}`),
    claimFailed: (id) => seen.push(`claimFailed:${id}`),
    ringArrived: (id, ring) => seen.push(`ring:${id}:${ring ? ring.entries.map(([t]) => t).join(',') : 'none'}`),
    disconnectUser: (userId, code) => seen.push(`disconnect:${userId}:${code}`),
    lostOwnSessions: (ids) => seen.push(`lost:${ids.join(',')}`),
  };
  return { seen, events };
}

describe('ClusterSessions on a shared log', () => {
  it("a pair's first and last session anywhere are reported on every node, as origin on the node that caused it", () => {
    const stream = new SharedStream();
    const [a, b] = [recorder(), recorder()];
    const [onA, onB] = [
      new ClusterSessions(stream.node('A'), a.events),
      new ClusterSessions(stream.node('B'), b.events),
    ];
    onA.opened('s1', alice, 0);
    onB.opened('s2', alice, 0);
    expect(onB.hasSession('alice', 'app')).toBe(false); // nothing applied before the entries come back
    stream.deliver();
    expect([onA.hasSession('alice', 'app'), onB.hasSession('alice', 'app')]).toEqual([true, true]);
    onA.closed('s1');
    stream.deliver();
    expect(onB.hasSession('alice', 'app')).toBe(true); // s2 on B still holds the pair
    onB.closed('s2');
    stream.deliver();
    expect([onA.hasSession('alice', 'app'), onB.hasSession('alice', 'app')]).toEqual([false, false]);
    expect(a.seen).toEqual(['online:alice:origin', 'offline:alice']);
    expect(b.seen).toEqual(['online:alice', 'offline:alice:origin']);
  });

  it('a claim moves the session at its place in the order: the old node hands over its ring, the claimer receives it', () => {
    const stream = new SharedStream();
    const ring = new ReplayRing(10, 2);
    ring.push(new DispatchTemplate('ONE', 1));
    ring.push(new DispatchTemplate('TWO', 2));
    const [a, b] = [recorder(() => ring.snapshot()), recorder()];
    const [onA, onB] = [
      new ClusterSessions(stream.node('A'), a.events),
      new ClusterSessions(stream.node('B'), b.events),
    ];
    onA.opened('s1', alice, 0);
    stream.deliver();
    expect(onB.remote('s1')?.identity).toEqual(alice);
    expect(onA.remote('s1')).toBeUndefined(); // A's own
    onB.claim('s1');
    stream.deliver();
    expect(a.seen).toEqual(['online:alice:origin', 'handOver:s1']);
    expect(b.seen).toEqual(['online:alice', 'claimed:s1', 'ring:s1:ONE,TWO']);
    // Now B's: A sees it as remote, B as its own; the pair was never offline.
    expect([onA.remote('s1') !== undefined, onB.remote('s1')]).toEqual([true, undefined]);
    expect(onA.hasSession('alice', 'app')).toBe(true);
  });

  it('a claim of a session no node holds fails on the claiming node only', () => {
    const stream = new SharedStream();
    const [a, b] = [recorder(), recorder()];
    new ClusterSessions(stream.node('A'), a.events);
    const onB = new ClusterSessions(stream.node('B'), b.events);
    onB.claim('nobody');
    stream.deliver();
    expect(a.seen).toEqual([]);
    expect(b.seen).toEqual(['claimFailed:nobody']);
  });

  it('disconnect-user reaches every node; opening a session id twice counts it once', () => {
    const stream = new SharedStream();
    const [a, b] = [recorder(), recorder()];
    const onA = new ClusterSessions(stream.node('A'), a.events);
    new ClusterSessions(stream.node('B'), b.events);
    onA.opened('s1', alice, 0);
    onA.opened('s1', alice, 0);
    onA.closed('s1');
    onA.disconnectUser('alice', 4004);
    stream.deliver();
    expect(a.seen).toEqual(['online:alice:origin', 'offline:alice:origin', 'disconnect:alice:4004']);
    expect(b.seen).toEqual(['online:alice', 'offline:alice', 'disconnect:alice:4004']);
  });

  it('a node declared down loses its sessions on every node; the pair goes offline once, on the node that noticed', () => {
    const stream = new SharedStream();
    const [a, b, c] = [recorder(), recorder(), recorder()];
    const logC = stream.node('C');
    const [onA, onB] = [
      new ClusterSessions(stream.node('A'), a.events),
      new ClusterSessions(stream.node('B'), b.events),
    ];
    new ClusterSessions(logC, c.events);
    const bob: GatewayIdentity = { ...alice, userId: 'bob', user: { id: 'bob' } };
    onA.opened('s1', alice, 0);
    onA.opened('s2', bob, 0);
    onB.opened('s3', bob, 0);
    stream.deliver();
    // C noticed that A's liveness key expired.
    logC.append(NODES_CHANNEL, { op: 'down', node: 'A' } satisfies NodeDownEntry);
    stream.deliver();
    expect(onB.hasSession('alice', 'app')).toBe(false);
    expect(onB.hasSession('bob', 'app')).toBe(true); // s3 on B still holds bob
    expect(onB.remote('s1')).toBeUndefined();
    expect(c.seen).toEqual(['online:alice', 'online:bob', 'offline:alice:origin']);
    expect(b.seen).toEqual(['online:alice', 'online:bob', 'offline:alice']);
    // A was alive after all (frozen): told that its own sessions are gone, so it ends their connections.
    expect(a.seen).toEqual(['online:alice:origin', 'online:bob:origin', 'offline:alice', 'lost:s1,s2']);
    // A second `down` entry for the same node (another node noticed too) finds nothing left.
    onB.closed('s3');
    stream.deliver();
    logC.append(NODES_CHANNEL, { op: 'down', node: 'A' } satisfies NodeDownEntry);
    stream.deliver();
    expect(c.seen).toEqual(['online:alice', 'online:bob', 'offline:alice:origin', 'offline:bob']);
  });

  it('a resume that claimed a session of a node that then died gets no ring: op 9 on the claimer, the session is gone', () => {
    const stream = new SharedStream();
    const [a, b] = [recorder(), recorder()];
    const onB = new ClusterSessions(stream.node('B'), b.events);
    const onA = new ClusterSessions(stream.node('A'), a.events);
    onA.opened('s1', alice, 0);
    stream.deliver();
    onB.claim('s1');
    // A was killed: it never handles the claim (its handlers no longer run), B notices.
    onA.close();
    stream.deliver();
    stream.node('B2').append(NODES_CHANNEL, { op: 'down', node: 'A' } satisfies NodeDownEntry);
    stream.deliver();
    expect(b.seen).toEqual(['online:alice', 'claimed:s1', 'ring:s1:none', 'offline:alice']);
    expect(onB.hasSession('alice', 'app')).toBe(false);
  });

  it('on the in-process log every change takes effect before the call returns', () => {
    const log = new InProcessLog();
    const a = recorder();
    const sessions = new ClusterSessions(log, a.events);
    let afterOpen = false;
    sessions.opened('s1', alice, 0, () => (afterOpen = true));
    expect([sessions.hasSession('alice', 'app'), afterOpen]).toEqual([true, true]);
    expect(a.seen).toEqual(['online:alice:origin']);
  });
});

describe("ClusterVoice: a dead node's calls", () => {
  const state = (userId: string, node: string): VoiceState => ({
    lobbyId: `lobby-${node}`,
    guildId: null,
    applicationId: 'app',
    userId,
    sessionId: `s-${userId}`,
    selfMute: false,
    selfDeaf: false,
    selfVideo: false,
    token: `secret-${userId}`,
  });

  it("the node that noticed the death announces each participant's leave once; tokens never enter the log; a graceful leave is forgotten", () => {
    const stream = new SharedStream();
    const left: Record<string, string[]> = { A: [], B: [], C: [] };
    const [logA, logB, logC] = [stream.node('A'), stream.node('B'), stream.node('C')];
    const onA = new ClusterVoice(logA, (s) => left.A!.push(s.userId));
    new ClusterVoice(logB, (s) => left.B!.push(s.userId));
    const onC = new ClusterVoice(logC, (s) => left.C!.push(`${s.userId}:${s.lobbyId}:${s.token}`));
    const [ann, ben, cat] = [state('ann', 'A'), state('ben', 'A'), state('cat', 'A')];
    onA.put(ann);
    onA.put(ben);
    onA.put(cat);
    onA.removed(cat); // left before the death: nothing to announce for her
    stream.deliver();
    expect(onC.participantsOf('A').map((p) => p.userId)).toEqual(['ann', 'ben']);
    expect(JSON.stringify(onC.participantsOf('A'))).not.toContain('secret-');

    logC.append(NODES_CHANNEL, { op: 'down', node: 'A' } satisfies NodeDownEntry);
    logB.append(NODES_CHANNEL, { op: 'down', node: 'A' } satisfies NodeDownEntry); // B noticed too: nothing left
    stream.deliver();
    expect(left).toEqual({ A: [], B: [], C: ['ann:lobby-A:', 'ben:lobby-A:'] });
    expect(onC.participantsOf('A')).toEqual([]);
  });

  it('records nothing without a broker', () => {
    const log = new InProcessLog();
    const voice = new ClusterVoice(log, () => undefined);
    voice.put(state('ann', 'A'));
    expect(voice.participantsOf(log.nodeId)).toEqual([]);
  });
});

describe('ReplayRing snapshot', () => {
  it('a ring rebuilt from its snapshot replays the same frames with the same sequence numbers', () => {
    const ring = new ReplayRing(3, 2);
    for (let i = 0; i < 5; i++) ring.push(new DispatchTemplate('EV', { i, text: 'é ✓' }));
    const copy = ReplayRing.fromSnapshot(3, JSON.parse(JSON.stringify(ring.snapshot())) as ReplayRingSnapshot);
    expect([copy.firstSeq, copy.lastSeq]).toEqual([ring.firstSeq, ring.lastSeq]);
    const frames = (r: ReplayRing) => [...r.after(r.firstSeq - 1)].map(([s, t]) => t.frame(s).toString('utf8'));
    expect(frames(copy)).toEqual(frames(ring));
    expect(copy.push(new DispatchTemplate('NEXT', null))).toBe(ring.lastSeq + 1);
  });

  it('an empty ring keeps its next sequence number', () => {
    const ring = new ReplayRing(4, 9);
    const copy = ReplayRing.fromSnapshot(4, ring.snapshot());
    expect(copy.push(new DispatchTemplate('A', null))).toBe(9);
  });
});

describe('the replicated log', () => {
  it('the bus on the in-process log delivers before publish returns', () => {
    const bus = new EventBus(new InProcessLog());
    const seen: string[] = [];
    bus.subscribe((event) => seen.push(event.t));
    bus.publish({ t: 'NOW', d: null, to: { all: true } });
    expect(seen).toEqual(['NOW']);
    expect(bus.log.distributed).toBe(false);
  });

  it('history entries reach only the handlers that asked for history', () => {
    const handlers = new ChannelHandlers();
    const seen: string[] = [];
    handlers.add('c', () => seen.push('live only'));
    handlers.add('c', () => seen.push('with history'), { history: true });
    handlers.run('c', null, false, true);
    handlers.run('c', null, false, false);
    expect(seen).toEqual(['with history', 'live only', 'with history']);
  });

  it('broker URLs: redis:// and rediss:// with an optional database number; passwords never shown', () => {
    expect(parseBrokerUrl('redis://127.0.0.1:6379/2').port).toBe('6379');
    expect(parseBrokerUrl('rediss://user:secret@cache.example:6380').protocol).toBe('rediss:');
    expect(() => parseBrokerUrl('nats://127.0.0.1:4222')).toThrow(/unsupported broker URL scheme "nats:"/);
    expect(() => parseBrokerUrl('not a url')).toThrow(/invalid broker URL/);
    expect(() => parseBrokerUrl('redis://127.0.0.1/x')).toThrow(/database "x" is not a number/);
    expect(redactUrl('rediss://user:secret@cache.example:6380')).toBe('rediss://user:***@cache.example:6380');
    expect(() => parseBrokerUrl('redis://user:secret@/0')).toThrow(/no host|invalid broker URL/);
  });
});
