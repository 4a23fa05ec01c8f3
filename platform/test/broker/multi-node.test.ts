/**
 * Two platform processes behind one broker (a private Redis) on one PostgreSQL database (the test cluster in the
 * SVCPP_TEST_DB=postgres run, a private one otherwise), clients spread across both (PROTOCOL.md "Several nodes"):
 * events caused on one node reach the sessions of the other in one order and exactly once; presence and the
 * one presence query see sessions of both nodes; a session dropped on one node resumes on the other.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, type StartOptions } from '../../src/index.js';
import { RawClient, type GatewayPayload } from '../gateway/client.js';
import { onPostgres, testDatabase } from '../support/database.js';
import { eventually, tempDir } from '../support/platform.js';
import { fullUser, type SocialUser } from '../support/social.js';
import { asPlatform, call, collect, dispatches } from '../support/node-calls.js';
import { startNodeProcess, type PlatformNode } from '../support/node-process.js';
import { startTemporaryPostgres, type TemporaryPostgres } from '../support/postgres-cluster.js';
import { startTemporaryRedis, type TemporaryRedis } from '../support/redis-server.js';

/** Sequence numbers of a session's dispatches after READY (1, read by identify): 2, 3 … with no gap and no repeat. */
function expectContiguousSeq(frames: GatewayPayload[]): void {
  const seqs = frames.filter((f) => f.op === 0).map((f) => f.s);
  expect(seqs.length).toBeGreaterThan(0);
  expect(seqs).toEqual(seqs.map((_, i) => i + 2));
}

async function connect(
  node: PlatformNode,
  user: SocialUser,
): Promise<{ client: RawClient; ready: Record<string, unknown> }> {
  const client = await RawClient.open(node.gatewayUrl);
  const ready = await client.identify(`Bearer ${user.token}`);
  return { client, ready: ready.d as Record<string, unknown> };
}

describe('two platform nodes with one broker and one PostgreSQL database', () => {
  let redis: TemporaryRedis;
  let postgres: TemporaryPostgres | undefined;
  let nodeA: PlatformNode;
  let nodeB: PlatformNode;
  let nodeOptions: StartOptions;
  const clients: RawClient[] = [];
  const open = async (node: PlatformNode, user: SocialUser) => {
    const session = await connect(node, user);
    clients.push(session.client);
    return session;
  };

  beforeAll(async () => {
    redis = await startTemporaryRedis();
    let database: string;
    if (onPostgres) database = testDatabase(join(tempDir(), 'broker.db'));
    else {
      postgres = startTemporaryPostgres();
      database = postgres.url('postgres');
    }
    nodeOptions = { database, broker: redis.url, rateLimits: { 'presence.update': { limit: 1000, windowSeconds: 1 } } };
    // One after the other: the second finds the database migrated and the development application created.
    nodeA = await startNodeProcess(nodeOptions);
    nodeB = await startNodeProcess(nodeOptions);
  }, 180_000); // two node processes compile their TypeScript at start (tsx): seconds each on a loaded machine

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await nodeA?.stop();
    await nodeB?.stop();
    postgres?.stop();
    await redis?.stop();
  });

  it('lobby messages sent through both nodes reach members on both nodes in one order, exactly once', async () => {
    const [alice, bob, carol] = [
      await fullUser(asPlatform(nodeA)),
      await fullUser(asPlatform(nodeA)),
      await fullUser(asPlatform(nodeB)),
    ];
    const a = await open(nodeA, alice);
    const b = await open(nodeB, bob);
    const c = await open(nodeB, carol);
    const frames = [collect(a.client), collect(b.client), collect(c.client)];
    const secret = `broker-${Date.now()}`;
    const lobby = (await call(nodeA, alice, 'PUT', '/lobbies', { secret })).body as { id: string };
    expect((await call(nodeB, bob, 'PUT', '/lobbies', { secret })).status).toBe(200);
    // Carol's session is on node B and she joins through node A: node A's `connected` comes from the sessions of both.
    expect((await call(nodeA, carol, 'PUT', '/lobbies', { secret })).status).toBe(200);
    const carolAdded = await eventually(() =>
      dispatches(frames[0]!, 'LOBBY_MEMBER_ADD').find(
        (f) => (f.d as { member: { id: string } }).member.id === carol.id,
      ),
    );
    expect((carolAdded.d as { member: { connected: boolean } }).member.connected).toBe(true);

    const MESSAGES = 12;
    const sent: string[] = [];
    for (let i = 0; i < MESSAGES; i++) {
      const [author, via] = [[alice, bob, carol][i % 3]!, i % 2 === 0 ? nodeB : nodeA];
      const content = `m${i} from ${author.username} via ${via === nodeA ? 'A' : 'B'}`;
      const response = await call(via, author, 'POST', `/lobbies/${lobby.id}/messages`, { content });
      expect(response.status, response.text).toBe(201);
      sent.push(content);
      // The next message is sent once this one arrived: the expected order is then the order of sending.
      await eventually(
        () =>
          dispatches(frames[0]!, 'LOBBY_MESSAGE_CREATE').length === i + 1 &&
          dispatches(frames[1]!, 'LOBBY_MESSAGE_CREATE').length === i + 1,
      );
    }
    await eventually(() => dispatches(frames[2]!, 'LOBBY_MESSAGE_CREATE').length >= MESSAGES);
    // A last event through the other node: anything duplicated or late would have arrived before it.
    await call(nodeA, alice, 'POST', `/lobbies/${lobby.id}/messages`, { content: 'end' });
    for (const received of frames) {
      await eventually(() =>
        dispatches(received, 'LOBBY_MESSAGE_CREATE').some((f) => (f.d as { content: string }).content === 'end'),
      );
      expect(dispatches(received, 'LOBBY_MESSAGE_CREATE').map((f) => (f.d as { content: string }).content)).toEqual([
        ...sent,
        'end',
      ]);
      expectContiguousSeq(received);
    }
  }, 60_000);

  it('friend requests and presence caused on node B reach a friend on node A in order, exactly once; READY and offline cross nodes too', async () => {
    const [dave, erin] = [await fullUser(asPlatform(nodeA)), await fullUser(asPlatform(nodeB))];
    const d = await open(nodeA, dave);
    const e = await open(nodeB, erin);
    const daveFrames = collect(d.client);
    const erinFrames = collect(e.client);

    expect((await call(nodeB, erin, 'PUT', `/users/@me/relationships/${dave.id}`, { type: 1 })).status).toBe(204);
    const incoming = await eventually(() => dispatches(daveFrames, 'RELATIONSHIP_ADD')[0]);
    expect(incoming.d).toMatchObject({ id: erin.id, type: 3 });
    expect((await call(nodeA, dave, 'PUT', `/users/@me/relationships/${erin.id}`, { type: 1 })).status).toBe(204);
    const accepted = await eventually(() =>
      dispatches(erinFrames, 'RELATIONSHIP_ADD').find((f) => (f.d as { type: number }).type === 1),
    );
    expect(accepted.d).toMatchObject({ id: dave.id, type: 1 });

    const states = ['idle', 'dnd', 'online', 'idle', 'dnd'] as const;
    for (const [i, status] of states.entries()) {
      const response = await call(nodeB, erin, 'POST', '/users/@me/presence', {
        status,
        activity: { type: 0, state: `step ${i}` },
      });
      expect(response.status, response.text).toBe(204);
    }
    const fromErin = () =>
      dispatches(daveFrames, 'PRESENCE_UPDATE').filter((f) => (f.d as { user: { id: string } }).user.id === erin.id);
    await eventually(() =>
      fromErin().some((f) => (f.d as { activities: Array<{ state?: string }> }).activities[0]?.state === 'step 4'),
    );
    const seen = fromErin().map((f) => [
      (f.d as { status: string }).status,
      (f.d as { activities: Array<{ state?: string }> }).activities[0]?.state,
    ]);
    // Friends introduced (erin online, no activity), then each update once, in order.
    expect(seen).toEqual([['online', undefined], ...states.map((status, i) => [status, `step ${i}`])]);

    // A new session of dave on node B learns erin's presence from node B's copy of the state.
    const later = await open(nodeB, dave);
    expect(later.ready.presences).toEqual([
      expect.objectContaining({
        user: { id: erin.id },
        status: 'dnd',
        activities: [expect.objectContaining({ state: 'step 4' })],
      }),
    ]);
    await later.client.close(1000);

    // Erin's only session ends on node B: dave on node A sees her go offline, once.
    await e.client.close(1000);
    await eventually(() => fromErin().some((f) => (f.d as { status: string }).status === 'offline'));
    const marker = await call(nodeB, dave, 'POST', '/users/@me/presence', { status: 'online' });
    expect(marker.status).toBe(204);
    await eventually(() =>
      dispatches(daveFrames, 'PRESENCE_UPDATE').some((f) => (f.d as { user: { id: string } }).user.id === dave.id),
    );
    expect(fromErin().filter((f) => (f.d as { status: string }).status === 'offline')).toHaveLength(1);
    expectContiguousSeq(daveFrames);
  }, 60_000);

  it("Identify's presence on node B reaches a friend on node A after the user is online, never as offline first", async () => {
    const [henry, ivy] = [await fullUser(asPlatform(nodeA)), await fullUser(asPlatform(nodeA))];
    expect((await call(nodeA, henry, 'PUT', `/users/@me/relationships/${ivy.id}`, { type: 1 })).status).toBe(204);
    expect((await call(nodeA, ivy, 'PUT', `/users/@me/relationships/${henry.id}`, { type: 1 })).status).toBe(204);
    const i = await open(nodeA, ivy);
    const ivyFrames = collect(i.client);
    const client = await RawClient.open(nodeB.gatewayUrl);
    clients.push(client);
    await client.identify(`Bearer ${henry.token}`, {
      presence: { status: 'dnd', since: null, activities: [], afk: false },
    });
    const fromHenry = () =>
      dispatches(ivyFrames, 'PRESENCE_UPDATE')
        .map((f) => f.d as { user: { id: string }; status: string })
        .filter((d) => d.user.id === henry.id);
    await eventually(() => fromHenry().some((d) => d.status === 'dnd'));
    expect(fromHenry().map((d) => d.status)).toEqual(['online', 'dnd']);
  }, 30_000);

  it('a session dropped on node A resumes on node B: same session, missed dispatches replayed, seq continuous; the old connection is cut', async () => {
    const [frank, gina] = [await fullUser(asPlatform(nodeA)), await fullUser(asPlatform(nodeA))];
    const secret = `resume-${Date.now()}`;
    const lobby = (await call(nodeA, gina, 'PUT', '/lobbies', { secret })).body as { id: string };
    expect((await call(nodeA, frank, 'PUT', '/lobbies', { secret })).status).toBe(200);
    const say = (via: PlatformNode, content: string) =>
      call(via, gina, 'POST', `/lobbies/${lobby.id}/messages`, { content });
    const contentOf = (frame: GatewayPayload) => (frame.d as { content: string }).content;

    const first = await connect(nodeA, frank);
    const sessionId = first.ready.session_id as string;
    await say(nodeB, 'live 1');
    const live = await first.client.nextOf(0, 'LOBBY_MESSAGE_CREATE');
    expect(contentOf(live)).toBe('live 1');
    // The connection drops (no close frame): node A keeps the session resumable and buffers what follows.
    first.client.ws.terminate();
    await first.client.closed;
    for (const [i, via] of [nodeA, nodeB, nodeA].entries()) expect((await say(via, `missed ${i}`)).status).toBe(201);

    const second = await RawClient.open(nodeB.gatewayUrl);
    clients.push(second);
    await second.nextOf(10);
    second.send(6, { token: `Bearer ${frank.token}`, session_id: sessionId, seq: live.s });
    const replayed: GatewayPayload[] = [];
    for (;;) {
      const frame = await second.next();
      if (frame.op !== 0) continue;
      if (frame.t === 'RESUMED') {
        replayed.push(frame);
        break;
      }
      if (frame.t === 'LOBBY_MESSAGE_CREATE') replayed.push(frame);
    }
    expect(replayed.map((f) => (f.t === 'RESUMED' ? 'RESUMED' : contentOf(f)))).toEqual([
      'missed 0',
      'missed 1',
      'missed 2',
      'RESUMED',
    ]);
    expect(replayed.map((f) => f.s)).toEqual([1, 2, 3, 4].map((k) => live.s! + k));
    await say(nodeA, 'after resume');
    const next = await second.nextOf(0, 'LOBBY_MESSAGE_CREATE');
    expect([contentOf(next), next.s]).toEqual(['after resume', live.s! + 5]);

    // Back to node A while the connection on node B is still open: node B cuts it (a zombie), node A resumes.
    const third = await RawClient.open(nodeA.gatewayUrl);
    clients.push(third);
    await third.nextOf(10);
    third.send(6, { token: `Bearer ${frank.token}`, session_id: sessionId, seq: next.s });
    const resumed = await third.nextOf(0, 'RESUMED');
    expect(resumed.s).toBe(next.s! + 1);
    await second.expectClose();
    await say(nodeB, 'on A again');
    const last = await third.nextOf(0, 'LOBBY_MESSAGE_CREATE');
    expect([contentOf(last), last.s]).toEqual(['on A again', next.s! + 2]);
  }, 60_000);

  it('a node started later learns the sessions and presence of the running nodes from the retained history', async () => {
    const [jack, kim] = [await fullUser(asPlatform(nodeA)), await fullUser(asPlatform(nodeA))];
    expect((await call(nodeA, jack, 'PUT', `/users/@me/relationships/${kim.id}`, { type: 1 })).status).toBe(204);
    expect((await call(nodeA, kim, 'PUT', `/users/@me/relationships/${jack.id}`, { type: 1 })).status).toBe(204);
    await open(nodeA, jack);
    expect((await call(nodeB, jack, 'POST', '/users/@me/presence', { status: 'idle' })).status).toBe(204);
    const secret = `late-${Date.now()}`;
    expect((await call(nodeA, kim, 'PUT', '/lobbies', { secret })).status).toBe(200);

    const nodeC = await startNodeProcess(nodeOptions);
    try {
      // Jack's session is on node A and was opened before node C existed: node C still counts it.
      const joined = await call(nodeC, jack, 'PUT', '/lobbies', { secret });
      expect(joined.status, joined.text).toBe(200);
      const members = (joined.body as { members: Array<{ id: string; connected: boolean }> }).members;
      expect(members.find((m) => m.id === jack.id)?.connected).toBe(true);
      const k = await connect(nodeC, kim);
      clients.push(k.client);
      expect(k.ready.presences).toEqual([expect.objectContaining({ user: { id: jack.id }, status: 'idle' })]);
    } finally {
      await nodeC.stop();
    }
  }, 120_000);

  it('a resume of a session no node knows is answered with Invalid Session (op 9, false)', async () => {
    const user = await fullUser(asPlatform(nodeA));
    const client = await RawClient.open(nodeB.gatewayUrl);
    clients.push(client);
    await client.nextOf(10);
    client.send(6, { token: `Bearer ${user.token}`, session_id: 'f'.repeat(32), seq: 1 });
    const answer = await client.nextOf(9);
    expect(answer.d).toBe(false);
  }, 30_000);
});

describe('--broker at start-up', () => {
  it.each([
    ['http://127.0.0.1:6379', /unsupported broker URL scheme "http:"/],
    ['redis//missing-colon', /invalid broker URL/],
    ['redis://127.0.0.1:6379/db', /database "db" is not a number/],
  ])('a bad broker URL (%s) fails the start with a clear error', async (broker, message) => {
    await expect(startPlatform({ broker, logger: false })).rejects.toThrow(message);
  });

  it('an unreachable broker fails the start with a clear error', async () => {
    const redis = await startTemporaryRedis();
    const url = redis.url;
    await redis.stop(); // nothing listens on that port any more
    await expect(startPlatform({ broker: url, logger: false })).rejects.toThrow(
      /cannot reach the broker at redis:\/\/127\.0\.0\.1:\d+\/?: connect ECONNREFUSED/,
    );
  });
});
