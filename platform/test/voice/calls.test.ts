/**
 * Call life cycle over real WebSocket and UDP: buffered resume, leaving (op 4, lobby removal), participants events,
 * three-party relay, HTTP voice states and injected loss.
 */
import * as spec from 'discord-api-spec/zod';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../support/platform.js';
import { TestVoiceClient, VoiceSocket } from '../support/voice-client.js';
import { AES, XCHACHA } from '../support/voice-crypto.js';
import { startVoiceHarness, type VoiceHarness } from '../support/voice-harness.js';

let h: VoiceHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/**
 * The published voice state schema. The compiler reports this export of the generated module as missing although
 * the module exports it at run time, so it is looked up by name (the test fails if it is ever really missing).
 */
const voiceStateSchema = (
  spec as unknown as Record<string, { safeParse(value: unknown): { success: boolean } } | undefined>
).VoiceStateResponseSchema!;
const opus = (n: number) => Buffer.from(`frame-${n}`.padEnd(100, '.'));

describe('buffered resume', () => {
  it('replays every message sent while the client was away, in order, after op 9', async () => {
    h = await startVoiceHarness({ voice: { requireE2ee: false } });
    const { lobbyId, members } = await h.lobby(['alice', 'bob', 'carol']);
    const a = await h.joinCall(members[0]!, lobbyId, AES);
    const b = await h.joinCall(members[1]!, lobbyId, XCHACHA);
    // Alice saw Bob arrive (op 11, then his op 5 state), then we drop her socket like a network failure.
    expect((await a.socket.nextOf(11)).d).toEqual({ user_ids: [members[1]!.user.id] });
    const seenBeforeDrop = a.socket.lastSeq;
    expect(h.platform.voice.dropConnections({ userId: members[0]!.user.id })).toBe(1);
    await a.socket.expectClose();

    // While she is away: Bob speaks, Carol joins, Bob stops speaking. Media keeps flowing to her UDP address.
    b.speaking(1);
    const c = await h.joinCall(members[2]!, lobbyId, AES);
    b.speaking(0);
    b.sendFrame(opus(7));
    expect((await a.receive()).payload).toEqual(opus(7));
    // Carol got Bob's last op 5, so the server has handled it before Alice resumes.
    expect((await c.socket.nextOf(5)).d).toMatchObject({ user_id: members[1]!.user.id, speaking: 0 });

    const socket = await a.resume();
    expect(await socket.next()).toEqual({ op: 9, d: null });
    const replayed = [await socket.next(), await socket.next(), await socket.next()];
    expect(replayed.map((m) => [m.op, m.d])).toEqual([
      [5, { user_id: members[1]!.user.id, ssrc: b.ssrc, speaking: 1 }],
      [11, { user_ids: [members[2]!.user.id] }],
      [5, { user_id: members[1]!.user.id, ssrc: b.ssrc, speaking: 0 }],
    ]);
    expect(replayed.map((m) => m.seq)).toEqual([1, 2, 3].map((i) => (seenBeforeDrop + i) & 0xffff));
    expect(socket.inbox.pending()).toEqual([]);
    // The dev stats count the resume and what it re-sent (SDK end-to-end tests rely on them).
    expect(h.platform.voice.stats()).toMatchObject({ resumes: 1, resumeReplayed: 3 });
    // Live again: new messages arrive with the next numbers.
    b.speaking(1);
    expect(await socket.next()).toEqual({
      op: 5,
      d: { user_id: members[1]!.user.id, ssrc: b.ssrc, speaking: 1 },
      seq: (seenBeforeDrop + 4) & 0xffff,
    });
  });

  it('a resume of a session the server does not know closes with 4006 (Session no longer valid), never 4004; the call stands', async () => {
    h = await startVoiceHarness({ voice: { requireE2ee: false } });
    const { lobbyId, members } = await h.lobby(['alice', 'bob']);
    const a = await h.joinCall(members[0]!, lobbyId, AES);
    const b = await h.joinCall(members[1]!, lobbyId, AES);
    const c = a.credentials;
    // Unknown token, another server's id, another session id: none of them names a voice session to resume.
    for (const override of [{ token: 'f'.repeat(32) }, { server_id: '1' }, { session_id: 'other' }]) {
      const socket = await VoiceSocket.open(c.endpoint);
      await socket.nextOf(8);
      socket.send(7, { server_id: c.serverId, session_id: c.sessionId, token: c.token, seq_ack: -1, ...override });
      const closed = await socket.expectClose();
      expect([override, closed.code, closed.reason]).toEqual([override, 4006, 'Session no longer valid.']);
    }
    // Nothing changed: both are still in the call and media flows.
    expect(h.platform.voice.stats().calls[lobbyId]).toEqual([members[0]!.user.id, members[1]!.user.id]);
    b.sendFrame(opus(2));
    expect((await a.receive()).payload).toEqual(opus(2));
  });

  it('refuses to resume with 4006 when the buffer no longer holds what was missed; Identify works again', async () => {
    h = await startVoiceHarness({ voice: { requireE2ee: false, gateway: { resumeBufferSize: 2 } } });
    const { lobbyId, members } = await h.lobby(['alice', 'bob']);
    const a = await h.joinCall(members[0]!, lobbyId, AES);
    const b = await h.joinCall(members[1]!, lobbyId, AES);
    await a.socket.nextOf(11);
    h.platform.voice.dropConnections({ userId: members[0]!.user.id });
    await a.socket.expectClose();
    for (const flags of [1, 0, 1]) b.speaking(flags);
    // Bob's heartbeat ACK comes after the server handled his three op 5.
    b.socket.heartbeat();
    await b.socket.nextOf(6);
    const socket = await a.resume();
    expect((await socket.expectClose()).code).toBe(4006);
    // Reconnect (full): the voice state and token are still valid.
    expect(h.platform.voice.stats().calls[lobbyId]).toEqual([members[1]!.user.id]);
    const rejoined = await TestVoiceClient.join(a.credentials, AES);
    try {
      b.sendFrame(opus(1));
      expect((await rejoined.receive()).payload).toEqual(opus(1));
    } finally {
      await rejoined.close();
    }
  });
});

describe('leaving and participants', () => {
  it('op 4 with channel_id null: VOICE_STATE_UPDATE null to every member, 4014 on the voice socket, op 13 to the others', async () => {
    h = await startVoiceHarness({ voice: { requireE2ee: false } });
    const { lobbyId, members } = await h.lobby(['alice', 'bob', 'carol']);
    const [alice, bob, carol] = members as [(typeof members)[0], (typeof members)[0], (typeof members)[0]];
    const a = await h.joinCall(alice, lobbyId, AES);
    const b = await h.joinCall(bob, lobbyId, AES);
    await a.socket.nextOf(11);
    alice.gateway.send(4, { guild_id: null, channel_id: null, self_mute: false, self_deaf: false });
    expect((await a.socket.expectClose()).code).toBe(4014);
    expect(await b.socket.nextOf(13)).toMatchObject({ op: 13, d: { user_id: alice.user.id } });
    // Carol never joined the call, yet she saw both participants come and Alice go (participant-changed events).
    const [fc] = await h.drain(carol.gateway);
    expect(
      fc!.filter((f) => f.t === 'VOICE_STATE_UPDATE').map((f) => [f.d.user_id, f.d.channel_id, f.d.lobby_id]),
    ).toEqual([
      [alice.user.id, lobbyId, lobbyId],
      [bob.user.id, lobbyId, lobbyId],
      [alice.user.id, null, lobbyId],
    ]);
    expect(h.platform.voice.stats().calls).toEqual({ [lobbyId]: [bob.user.id] });
  });

  it("READY lists the voice states of the calls in the user's lobbies", async () => {
    h = await startVoiceHarness({ voice: { requireE2ee: false } });
    const { lobbyId, members } = await h.lobby(['alice', 'bob']);
    await h.requestJoin(members[0]!, lobbyId, { selfMute: true });
    const other = await h.lobby(['carol']);
    const { ready } = await h.connect(members[1]!.user);
    expect(ready.d.voice_states).toEqual([
      expect.objectContaining({
        user_id: members[0]!.user.id,
        channel_id: lobbyId,
        lobby_id: lobbyId,
        self_mute: true,
      }),
    ]);
    const { ready: carolReady } = await h.connect(other.members[0]!.user);
    expect(carolReady.d.voice_states).toEqual([]);
  });

  it("a user who joins the lobby while its call runs gets the participants' voice states after LOBBY_CREATE", async () => {
    h = await startVoiceHarness({ voice: { requireE2ee: false } });
    const { lobbyId, members } = await h.lobby(['alice']);
    await h.requestJoin(members[0]!, lobbyId, { selfMute: true });
    const dave = await h.user('dave');
    const { client } = await h.connect(dave);
    const added = await h.call('PUT', `/lobbies/${lobbyId}/members/${dave.id}`, h.bot, {});
    expect(added.status).toBe(200);
    expect((await client.nextOf(0, 'LOBBY_CREATE')).d).toMatchObject({ id: lobbyId });
    expect((await client.nextOf(0, 'VOICE_STATE_UPDATE')).d).toMatchObject({
      user_id: members[0]!.user.id,
      channel_id: lobbyId,
      lobby_id: lobbyId,
      self_mute: true,
    });
  });

  it('op 4 again in the same call changes only the self flags; removal from the lobby ends the call with 4014', async () => {
    h = await startVoiceHarness({ voice: { requireE2ee: false } });
    const { lobbyId, members } = await h.lobby(['alice', 'bob']);
    const [alice, bob] = members as [(typeof members)[0], (typeof members)[0]];
    const a = await h.joinCall(alice, lobbyId, AES);
    alice.gateway.send(4, { guild_id: null, channel_id: lobbyId, self_mute: true, self_deaf: true });
    const update = await alice.gateway.nextOf(0, 'VOICE_STATE_UPDATE');
    expect(update.d).toMatchObject({ user_id: alice.user.id, channel_id: lobbyId, self_mute: true, self_deaf: true });
    expect((await h.call('GET', `/lobbies/${lobbyId}/voice-states/@me`, alice.user.auth)).body).toMatchObject({
      self_mute: true,
      self_deaf: true,
    });

    expect((await h.call('DELETE', `/lobbies/${lobbyId}/members/${alice.user.id}`, h.bot)).status).toBe(204);
    expect((await a.socket.expectClose()).code).toBe(4014);
    const [fb] = await h.drain(bob.gateway);
    expect(fb!.filter((f) => f.t === 'VOICE_STATE_UPDATE').map((f) => [f.d.user_id, f.d.channel_id])).toEqual([
      [alice.user.id, lobbyId],
      [alice.user.id, lobbyId],
      [alice.user.id, null],
    ]);
  });

  it('deleting the lobby terminates its call: 4022 on every voice socket', async () => {
    h = await startVoiceHarness({ voice: { requireE2ee: false } });
    const { lobbyId, members } = await h.lobby(['alice', 'bob']);
    const a = await h.joinCall(members[0]!, lobbyId, AES);
    const b = await h.joinCall(members[1]!, lobbyId, AES);
    expect((await h.call('DELETE', `/lobbies/${lobbyId}`, h.bot)).status).toBe(204);
    expect([(await a.socket.expectClose()).code, (await b.socket.expectClose()).code]).toEqual([4022, 4022]);
    expect(h.platform.voice.stats().calls).toEqual({});
  });

  it('joining the same call from another gateway session moves the participant there (old voice socket 4014)', async () => {
    h = await startVoiceHarness({ voice: { requireE2ee: false } });
    const { lobbyId, members } = await h.lobby(['alice', 'bob']);
    const alice = members[0]!;
    const a = await h.joinCall(alice, lobbyId, AES);
    const { client: second, ready } = await h.connect(alice.user);
    const moved = await h.requestJoin({ user: alice.user, gateway: second, sessionId: ready.d.session_id }, lobbyId);
    expect((await a.socket.expectClose()).code).toBe(4014);
    expect(moved.state.d).toMatchObject({
      user_id: alice.user.id,
      session_id: ready.d.session_id,
      channel_id: lobbyId,
    });
    expect(moved.credentials.token).not.toBe(a.credentials.token);
    // The old token is gone; the new one joins.
    const stale = await VoiceSocket.open(a.credentials.endpoint);
    await stale.nextOf(8);
    const c = a.credentials;
    stale.send(0, { server_id: c.serverId, user_id: c.userId, session_id: c.sessionId, token: c.token });
    expect((await stale.expectClose()).code).toBe(4004);
    const b = await h.joinCall(members[1]!, lobbyId, AES);
    const fresh = await TestVoiceClient.join(moved.credentials, AES);
    try {
      b.sendFrame(opus(3));
      expect((await fresh.receive()).payload).toEqual(opus(3));
    } finally {
      await fresh.close();
    }
  });

  it('relays among three participants: each sender reaches both others, never itself', async () => {
    h = await startVoiceHarness({ voice: { requireE2ee: false } });
    const { lobbyId, members } = await h.lobby(['alice', 'bob', 'carol']);
    const clients = [
      await h.joinCall(members[0]!, lobbyId, AES),
      await h.joinCall(members[1]!, lobbyId, XCHACHA),
      await h.joinCall(members[2]!, lobbyId, AES),
    ];
    for (const [i, sender] of clients.entries()) {
      sender.sendFrame(opus(i));
      for (const receiver of clients) {
        if (receiver === sender) continue;
        expect(await receiver.receive()).toMatchObject({ ssrc: sender.ssrc, payload: opus(i) });
      }
    }
    expect(clients.map((c) => c.media.packets.pending().length)).toEqual([0, 0, 0]);
    expect(h.platform.voice.stats().relayed).toBe(6);
  });
});

describe('session ends', () => {
  it('a silent voice socket is dropped; not resumed within the window, the participant leaves the call', async () => {
    h = await startVoiceHarness({
      voice: { requireE2ee: false, gateway: { heartbeatIntervalMs: 100, resumeWindowMs: 300 } },
    });
    const { lobbyId, members } = await h.lobby(['alice', 'bob']);
    const [alice, bob] = members as [(typeof members)[0], (typeof members)[0]];
    const a = await h.joinCall(alice, lobbyId, AES);
    expect(a.socket.ws.readyState).toBe(1);
    // The test client never heartbeats: dropped without a close frame (1006 on this side), then left.
    expect((await a.socket.expectClose()).code).toBe(1006);
    expect((await bob.gateway.nextOf(0, 'VOICE_STATE_UPDATE')).d).toMatchObject({
      user_id: alice.user.id,
      channel_id: lobbyId,
    });
    expect((await bob.gateway.nextOf(0, 'VOICE_STATE_UPDATE')).d).toMatchObject({
      user_id: alice.user.id,
      channel_id: null,
    });
    expect(h.platform.voice.stats().calls).toEqual({});
  });

  it("the user's last main-gateway session ending takes them out of every call (4014)", async () => {
    h = await startVoiceHarness({ voice: { requireE2ee: false } });
    const { lobbyId, members } = await h.lobby(['alice', 'bob']);
    const [alice, bob] = members as [(typeof members)[0], (typeof members)[0]];
    const a = await h.joinCall(alice, lobbyId, AES);
    await alice.gateway.close(1000);
    expect((await a.socket.expectClose()).code).toBe(4014);
    const [fb] = await h.drain(bob.gateway);
    expect(fb!.filter((f) => f.t === 'VOICE_STATE_UPDATE').map((f) => [f.d.user_id, f.d.channel_id])).toEqual([
      [alice.user.id, lobbyId],
      [alice.user.id, null],
    ]);
  });
});

describe('voice states over HTTP', () => {
  it('serves the published voice state shape; 10065 when not in the call, 403 for non-members, 404 10031 for unknown lobbies', async () => {
    h = await startVoiceHarness({ voice: { requireE2ee: false } });
    const { lobbyId, members } = await h.lobby(['alice', 'bob']);
    const [alice, bob] = members as [(typeof members)[0], (typeof members)[0]];
    await h.requestJoin(alice, lobbyId, { selfDeaf: true });
    const mine = await h.call('GET', `/lobbies/${lobbyId}/voice-states/@me`, alice.user.auth);
    expect(mine.status).toBe(200);
    expect(voiceStateSchema.safeParse(mine.body).success).toBe(true);
    expect(mine.body).toMatchObject({
      channel_id: lobbyId,
      user_id: alice.user.id,
      session_id: alice.sessionId,
      self_deaf: true,
      guild_id: null,
    });
    expect((await h.call('GET', `/lobbies/${lobbyId}/voice-states/${alice.user.id}`, bob.user.auth)).body).toEqual(
      mine.body,
    );
    expect((await h.call('GET', `/lobbies/${lobbyId}/voice-states/${alice.user.id}`, h.bot)).body).toEqual(mine.body);

    const absent = await h.call('GET', `/lobbies/${lobbyId}/voice-states/@me`, bob.user.auth);
    expect([absent.status, absent.body]).toEqual([404, { code: 10065, message: 'Unknown Voice State' }]);
    expect((await h.call('GET', `/lobbies/${lobbyId}/voice-states/not-a-user`, bob.user.auth)).body.code).toBe(10065);
    const outsider = await h.user('outsider');
    expect((await h.call('GET', `/lobbies/${lobbyId}/voice-states/${alice.user.id}`, outsider.auth)).body.code).toBe(
      50001,
    );
    expect((await h.call('GET', `/lobbies/999/voice-states/@me`, alice.user.auth)).body.code).toBe(10031);
    expect((await h.call('GET', `/lobbies/${lobbyId}/voice-states/@me`, {})).status).toBe(401);
  });
});

describe('injected loss', () => {
  it('drops the configured share of relayed packets (10 %, seeded), measured at the receiver', async () => {
    h = await startVoiceHarness({ voice: { requireE2ee: false, lossRate: 0.1, lossSeed: 11 } });
    const { lobbyId, members } = await h.lobby(['alice', 'bob']);
    const a = await h.joinCall(members[0]!, lobbyId, AES);
    const b = await h.joinCall(members[1]!, lobbyId, AES);
    const sent = 1000;
    let received = 0;
    // In batches, draining the receiver between them, so no UDP buffer overflows on a loaded machine.
    for (let batch = 0; batch < sent / 50; batch++) {
      for (let n = 0; n < 50; n++) a.sendFrame(opus(batch * 50 + n));
      await eventually(
        () => h!.platform.voice.stats().relayed + h!.platform.voice.stats().injectedLoss === (batch + 1) * 50,
      );
      const target = h.platform.voice.stats().relayed;
      while (received < target) {
        await b.receive();
        received++;
      }
    }
    const stats = h.platform.voice.stats();
    const lost = sent - received;
    console.log(`injected loss: ${lost} of ${sent} packets (${((100 * lost) / sent).toFixed(1)} %)`);
    expect(stats).toMatchObject({ relayed: received, injectedLoss: lost, lossRate: 0.1 });
    // The seeded generator's draw for 1000 packets at 10 %: well within binomial bounds (σ ≈ 9.5 packets).
    expect(lost).toBeGreaterThan(50);
    expect(lost).toBeLessThan(150);

    // The dev route turns it off.
    const off = await h.call('PUT', '/dev/voice/loss', {}, { rate: 0 });
    expect(off.body).toEqual({ rate: 0 });
    a.sendFrame(opus(-1));
    expect((await b.receive()).payload).toEqual(opus(-1));
    expect((await h.call('PUT', '/dev/voice/loss', {}, { rate: 2 })).body.code).toBe(50035);
  });
});
