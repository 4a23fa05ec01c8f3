/**
 * A node killed with kill -9 (PROTOCOL.md "Several nodes", "A node that dies"): two platform processes, one broker,
 * one PostgreSQL database (as in multi-node.test.ts), short liveness settings. When node A's liveness key
 * expires, node B drops A's sessions — its users go offline for their friends and lobbies, once — the lobby call A
 * hosted ends for the members (the participant is announced as left), and a resume of one of A's sessions on B gets
 * Invalid Session instead of waiting for a ring that never comes.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StartOptions } from '../../src/index.js';
import { RawClient } from '../gateway/client.js';
import { onPostgres, testDatabase } from '../support/database.js';
import { eventually, tempDir } from '../support/platform.js';
import { fullUser } from '../support/social.js';
import { asPlatform, call, collect, dispatches } from '../support/node-calls.js';
import { startNodeProcess, type PlatformNode } from '../support/node-process.js';
import { startTemporaryPostgres, type TemporaryPostgres } from '../support/postgres-cluster.js';
import { startTemporaryRedis, type TemporaryRedis } from '../support/redis-server.js';

describe('a platform node killed with kill -9', () => {
  let redis: TemporaryRedis;
  let postgres: TemporaryPostgres | undefined;
  let nodeA: PlatformNode;
  let nodeB: PlatformNode;
  const clients: RawClient[] = [];

  beforeAll(async () => {
    redis = await startTemporaryRedis();
    let database: string;
    if (onPostgres) database = testDatabase(join(tempDir(), 'node-death.db'));
    else {
      postgres = startTemporaryPostgres();
      database = postgres.url('postgres');
    }
    // Short liveness: a dead node is noticed within about 1.5 s (the default is 15 s).
    const options: StartOptions = { database, broker: redis.url, nodeLiveness: { ttlMs: 1500, heartbeatMs: 250 } };
    nodeA = await startNodeProcess(options);
    nodeB = await startNodeProcess(options);
  }, 180_000);

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await nodeA?.kill();
    await nodeB?.stop();
    postgres?.stop();
    await redis?.stop();
  });

  it("drops the dead node's sessions and lobby call for the other nodes; its sessions cannot be resumed", async () => {
    const [alice, bob] = [await fullUser(asPlatform(nodeA)), await fullUser(asPlatform(nodeB))];
    // Friends, so bob sees alice's presence.
    expect((await call(nodeA, alice, 'PUT', `/users/@me/relationships/${bob.id}`, { type: 1 })).status).toBe(204);
    expect((await call(nodeB, bob, 'PUT', `/users/@me/relationships/${alice.id}`, { type: 1 })).status).toBe(204);
    const secret = `death-${Date.now()}`;
    const lobby = (await call(nodeA, alice, 'PUT', '/lobbies', { secret })).body as { id: string };
    expect((await call(nodeB, bob, 'PUT', '/lobbies', { secret })).status).toBe(200);

    const a = await RawClient.open(nodeA.gatewayUrl);
    clients.push(a);
    const aliceReady = (await a.identify(`Bearer ${alice.token}`)).d as { session_id: string };
    const b = await RawClient.open(nodeB.gatewayUrl);
    clients.push(b);
    await b.identify(`Bearer ${bob.token}`);
    const bobFrames = collect(b);
    const aliceFrames = collect(a);

    // Alice joins the lobby's call through node A (op 4): node A hosts it; bob on node B sees her in the call.
    a.send(4, { guild_id: null, channel_id: lobby.id, self_mute: false, self_deaf: false });
    await eventually(() => dispatches(aliceFrames, 'VOICE_SERVER_UPDATE').length === 1);
    const aliceVoice = () =>
      dispatches(bobFrames, 'VOICE_STATE_UPDATE')
        .map((f) => f.d as { user_id: string; channel_id: string | null })
        .filter((d) => d.user_id === alice.id);
    await eventually(() => aliceVoice().some((d) => d.channel_id === lobby.id));
    // The lobby as bob sees it through node B (PUT /lobbies with the secret: he is a member already).
    const aliceConnected = async () =>
      (
        (await call(nodeB, bob, 'PUT', '/lobbies', { secret })).body as {
          members: Array<{ id: string; connected: boolean }>;
        }
      ).members.find((m) => m.id === alice.id)?.connected;
    expect(await aliceConnected()).toBe(true);

    await nodeA.kill();

    // Node B notices A's key expired: alice's call ends for bob, and she goes offline, once each.
    await eventually(() => aliceVoice().some((d) => d.channel_id === null));
    const aliceOffline = () =>
      dispatches(bobFrames, 'PRESENCE_UPDATE')
        .map((f) => f.d as { user: { id: string }; status: string })
        .filter((d) => d.user.id === alice.id && d.status === 'offline');
    await eventually(() => aliceOffline().length > 0);
    await eventually(async () => (await aliceConnected()) === false);

    // Alice's client comes back on node B and resumes: her session died with node A (op 9 false; she identifies anew).
    const again = await RawClient.open(nodeB.gatewayUrl);
    clients.push(again);
    again.send(6, { token: `Bearer ${alice.token}`, session_id: aliceReady.session_id, seq: 1 });
    const invalid = await again.nextOf(9);
    expect(invalid.d).toBe(false);

    // A marker through node B: whatever was doubled would have arrived before it.
    expect((await call(nodeB, bob, 'POST', `/lobbies/${lobby.id}/messages`, { content: 'marker' })).status).toBe(201);
    await eventually(() => dispatches(bobFrames, 'LOBBY_MESSAGE_CREATE').length === 1);
    expect(aliceVoice().filter((d) => d.channel_id === null)).toHaveLength(1);
    expect(aliceOffline()).toHaveLength(1);
  }, 90_000);
});
