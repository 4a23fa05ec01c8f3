/** Lobby dispatches and their audiences, READY `lobbies`, members' `connected`, and idle deletion. */
import { afterEach, describe, expect, it } from 'vitest';
import { eventually, testClock } from '../support/platform.js';
import { startLobbyHarness, type LobbyHarness } from './harness.js';

let h: LobbyHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const names = (frames: Array<{ t?: string | null }>) => frames.map((f) => f.t);

describe('lobby dispatches', () => {
  it("go to the members' sessions of the application, never to non-members", async () => {
    h = await startLobbyHarness();
    const [alice, bob, carol] = [await h.user('alice'), await h.user('bob'), await h.user('carol')];
    const [a, b, c] = [(await h.connect(alice)).client, (await h.connect(bob)).client, (await h.connect(carol)).client];

    const lobby = (await h.call('PUT', '/lobbies', alice.auth, { secret: 'gw' })).body;
    await h.call('PUT', '/lobbies', bob.auth, { secret: 'gw' });
    let [fa, fb, fc] = await h.drain(a, b, c);
    expect(names(fa!)).toEqual(['LOBBY_CREATE', 'LOBBY_MEMBER_ADD']);
    expect(fa![0]!.d).toMatchObject({ id: lobby.id, members: [{ id: alice.id, connected: true }] });
    expect(fa![1]!.d).toEqual({
      lobby_id: lobby.id,
      member: expect.objectContaining({ id: bob.id, connected: true, metadata: {} }),
    });
    expect(names(fb!)).toEqual(['LOBBY_CREATE']);
    expect(fb![0]!.d.members.map((m: { id: string }) => m.id)).toEqual([alice.id, bob.id]);
    expect(fc).toEqual([]);

    await h.call('PUT', `/lobbies/${lobby.id}/members/${bob.id}`, h.bot, { flags: 1 });
    await h.call('PATCH', `/lobbies/${lobby.id}`, h.bot, { metadata: { round: '2' } });
    [fa, fb, fc] = await h.drain(a, b, c);
    // Member data changes reach the member too (their own CanLinkLobby flag); lobby updates reach everyone.
    expect(names(fa!)).toEqual(['LOBBY_MEMBER_UPDATE', 'LOBBY_UPDATE']);
    expect(names(fb!)).toEqual(['LOBBY_MEMBER_UPDATE', 'LOBBY_UPDATE']);
    expect(fb![0]!.d).toMatchObject({ lobby_id: lobby.id, member: { id: bob.id, flags: 1 } });
    expect(fa![1]!.d).toMatchObject({ id: lobby.id, metadata: { round: '2' } });
    expect(fc).toEqual([]);

    await h.call('DELETE', `/lobbies/${lobby.id}/members/@me`, bob.auth);
    [fa, fb] = await h.drain(a, b);
    expect(fa!.map((f) => [f.t, f.d])).toEqual([
      ['LOBBY_MEMBER_REMOVE', { lobby_id: lobby.id, member: { id: bob.id } }],
    ]);
    expect(fb!.map((f) => [f.t, f.d])).toEqual([['LOBBY_DELETE', { id: lobby.id }]]);

    await h.call('DELETE', `/lobbies/${lobby.id}`, h.bot);
    [fa, fb, fc] = await h.drain(a, b, c);
    expect(fa!.map((f) => [f.t, f.d])).toEqual([['LOBBY_DELETE', { id: lobby.id }]]);
    expect([fb, fc]).toEqual([[], []]);
  });

  it("READY lists the user's lobbies; `connected` follows the members' sessions with LOBBY_MEMBER_UPDATE", async () => {
    h = await startLobbyHarness();
    const [alice, bob] = [await h.user('alice'), await h.user('bob')];
    const lobby = (await h.call('POST', '/lobbies', h.bot, { members: [{ id: alice.id }, { id: bob.id }] })).body;

    const { client: a, ready } = await h.connect(alice);
    expect(ready.d.lobbies).toEqual([
      expect.objectContaining({
        id: lobby.id,
        members: [
          expect.objectContaining({ id: alice.id, connected: true }),
          expect.objectContaining({ id: bob.id, connected: false }),
        ],
      }),
    ]);
    expect(
      (await h.call('GET', `/lobbies/${lobby.id}`, h.bot)).body.members.map((m: { connected: boolean }) => m.connected),
    ).toEqual([true, false]);

    const { client: b } = await h.connect(bob);
    let [fa] = await h.drain(a);
    expect(fa!.map((f) => [f.t, f.d.member.id, f.d.member.connected])).toEqual([['LOBBY_MEMBER_UPDATE', bob.id, true]]);

    await b.close();
    await eventually(async () => !(await h!.call('GET', `/lobbies/${lobby.id}`, h!.bot)).body.members[1].connected);
    [fa] = await h.drain(a);
    expect(fa!.map((f) => [f.t, f.d.member.id, f.d.member.connected])).toEqual([
      ['LOBBY_MEMBER_UPDATE', bob.id, false],
    ]);
  });
});

describe('idle deletion', () => {
  it('deletes lobbies nobody is connected to after idle_timeout_seconds, except linked ones', async () => {
    const clock = testClock();
    h = await startLobbyHarness({ now: clock.now, lobbyLimits: { sweepIntervalMs: 5 } });
    const owner = await h.user('guild_owner');
    const alice = await h.user('alice');
    const empty = (await h.call('POST', '/lobbies', h.bot, { idle_timeout_seconds: 5 })).body.id as string;
    const linked = (
      await h.call('POST', '/lobbies', h.bot, { idle_timeout_seconds: 5, members: [{ id: owner.id, flags: 1 }] })
    ).body.id as string;
    expect(
      (await h.call('PATCH', `/lobbies/${linked}/channel-linking`, owner.auth, { channel_id: h.channels.general }))
        .status,
    ).toBe(200);
    const active = (await h.call('POST', '/lobbies', h.bot, { idle_timeout_seconds: 5, members: [{ id: alice.id }] }))
      .body.id as string;
    const { client } = await h.connect(alice);

    clock.advance(4_000);
    expect(h.platform.store.lobbies.get(empty)).toBeDefined();
    clock.advance(1_000);
    await eventually(() => h!.platform.store.lobbies.get(empty) === undefined);
    expect(h.platform.store.lobbies.get(linked)).toBeDefined();
    expect(h.platform.store.lobbies.get(active)).toBeDefined();

    // The last member's session ends: the idle clock starts then.
    await client.close();
    await eventually(() => h!.platform.store.lobbies.get(active)?.idleSince !== null);
    clock.advance(5_000);
    await eventually(() => h!.platform.store.lobbies.get(active) === undefined);
    expect(h.platform.store.lobbies.get(linked)).toBeDefined();
  });
});
