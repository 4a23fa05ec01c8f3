/**
 * Lobby members' `connected` across nodes (PROTOCOL.md §10.5 and "Several nodes"), as units: two nodes' session
 * tables on the shared-log fake, the nodes reading the stream at different paces, each node's lobby hooks wired as
 * the platform wires them (`sessionHandlers`), one lobby standing for the shared database. What each node's bus
 * delivers is what its sessions receive: a user who leaves one node and comes back on another is seen connected,
 * then not, then connected again, on every node, whatever the lag.
 */
import { describe, expect, it } from 'vitest';
import type { PlatformKernel } from '../../src/kernel.js';
import { EventBus, type BusEvent } from '../../src/events/bus.js';
import { ClusterSessions } from '../../src/gateway/cluster-sessions.js';
import type { GatewayIdentity } from '../../src/gateway/types.js';
import { sessionHandlers } from '../../src/lobbies/index.js';
import { DEFAULT_LOBBY_LIMITS } from '../../src/lobbies/limits.js';
import { Lobbies } from '../../src/lobbies/service.js';
import type { LobbyMemberRecord, LobbyRecord } from '../../src/store/lobby-types.js';
import { SharedStream } from '../support/shared-stream.js';

const APP = 'app';
const lobby = { id: 'lobby-1', applicationId: APP } as LobbyRecord;
const members = ['erin', 'dave'].map(
  (userId) =>
    ({ lobbyId: lobby.id, userId, metadata: null, flags: 0, additionalName: null }) as unknown as LobbyMemberRecord,
);
const erin: GatewayIdentity = { kind: 'user', applicationId: APP, userId: 'erin', scopes: [], user: { id: 'erin' } };

/** One node: its session table, its lobby hooks as the platform wires them, and what its bus delivered. */
function node(stream: SharedStream, name: string) {
  const log = stream.node(name);
  const bus = new EventBus(log);
  const delivered: BusEvent[] = [];
  bus.subscribe((event) => delivered.push(event));
  let sessions: ClusterSessions | undefined;
  const ctx = {
    bus,
    now: () => Date.now(),
    store: {
      transaction: <T>(fn: () => T) => fn(),
      users: { get: () => undefined },
      lobbies: {
        get: () => undefined,
        listForUser: () => [lobby],
        member: (_lobbyId: string, userId: string) => members.find((m) => m.userId === userId),
        members: () => members,
      },
    },
  } as unknown as PlatformKernel;
  const lobbies = new Lobbies(ctx, {
    limits: DEFAULT_LOBBY_LIMITS,
    hasSession: (userId, applicationId) => sessions!.hasSession(userId, applicationId),
    wakeWebhooks: () => {},
  });
  const handlers = sessionHandlers(lobbies);
  // As the gateway does: observers on every node, the once-only hooks on the node whose entry made the change.
  sessions = new ClusterSessions(log, {
    pairChanged: (change, origin) => {
      handlers.sessionsObserved?.(change);
      if (origin) handlers.sessionsChanged?.(change);
    },
    handOver: () => null,
    claimed: () => {},
    claimFailed: () => {},
    ringArrived: () => {},
    disconnectUser: () => {},
    lostOwnSessions: () => {},
  });
  /** Erin's `connected` as dave's sessions on this node heard it, in order. */
  const erinConnected = () =>
    delivered
      .filter((event) => event.t === 'LOBBY_MEMBER_UPDATE' && event.to.userIds?.includes('dave'))
      .map((event) => (event.d as { member: { id: string; connected: boolean } }).member)
      .filter((member) => member.id === 'erin')
      .map((member) => member.connected);
  return { log, sessions, erinConnected };
}

describe('lobby members connected across nodes', () => {
  it('a user who leaves node A and identifies on node B is seen leaving, then back, on every node whatever the lag', () => {
    const stream = new SharedStream();
    const [a, b] = [node(stream, 'A'), node(stream, 'B')];
    a.sessions.opened('s1', erin, 0);
    stream.deliver();
    // Erin's only session ends on node A and she identifies on node B; node B reads the stream first, node A lags.
    a.sessions.closed('s1');
    b.sessions.opened('s2', erin, 0);
    stream.deliver(b.log);
    stream.deliver(a.log);
    for (const n of [a, b]) expect(n.erinConnected()).toEqual([true, false, true]);
  });

  it('a node replaying history sends nothing', () => {
    const stream = new SharedStream();
    const late = node(stream, 'late');
    late.log.handlers.run('sessions', { op: 'open', id: 's1', node: 'gone', identity: erin, intents: 0 }, false, true);
    expect(late.sessions.hasSession('erin', APP)).toBe(true);
    expect(late.erinConnected()).toEqual([]);
  });
});
