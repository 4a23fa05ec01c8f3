/** Lobby calls end to end over real WebSocket and UDP: op 4 → voice gateway → IP discovery → encrypted RTP relay. */
import { afterEach, describe, expect, it } from 'vitest';
import { testClock } from '../support/platform.js';
import { discoveryRequest, MediaSocket } from '../support/voice-client.js';
import { AES, open, XCHACHA, type Mode } from '../support/voice-crypto.js';
import { startVoiceHarness, type VoiceHarness } from '../support/voice-harness.js';

let h: VoiceHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

function frame(n: number): Buffer {
  // An opaque stand-in for an Opus frame: the relay never looks inside.
  return Buffer.from(`opus-frame-${n}-`.padEnd(120, 'x'));
}

describe('voice relay', () => {
  it('op 4 → VOICE_STATE_UPDATE to every lobby member, VOICE_SERVER_UPDATE to the joiner', async () => {
    h = await startVoiceHarness({ voice: { requireE2ee: false } });
    const { lobbyId, members } = await h.lobby(['alice', 'bob']);
    const [alice, bob] = members as [(typeof members)[0], (typeof members)[0]];
    const { state, server } = await h.requestJoin(alice, lobbyId, { selfMute: true });
    expect(state.d).toEqual({
      guild_id: null,
      channel_id: lobbyId,
      lobby_id: lobbyId,
      user_id: alice.user.id,
      session_id: alice.sessionId,
      deaf: false,
      mute: false,
      self_deaf: false,
      self_mute: true,
      self_stream: false,
      self_video: false,
      suppress: false,
      request_to_speak_timestamp: null,
    });
    expect(server.d).toEqual({
      token: expect.stringMatching(/^[0-9a-f]{32}$/),
      guild_id: null,
      channel_id: lobbyId,
      endpoint: h.platform.voice.endpoint,
    });
    expect(h.platform.voice.endpoint).toMatch(/^127\.0\.0\.1:\d+$/);
    // Bob is not in the call but is a lobby member: he sees Alice's voice state (participant-changed callbacks).
    const [fb] = await h.drain(bob.gateway);
    expect(fb!.map((f) => [f.t, f.d.user_id, f.d.channel_id])).toEqual([
      ['VOICE_STATE_UPDATE', alice.user.id, lobbyId],
    ]);
  });

  for (const [name, modeA, modeB] of [
    ['AES-256-GCM', AES, AES],
    ['XChaCha20-Poly1305', XCHACHA, XCHACHA],
    ['mixed modes (re-encrypted per receiver)', AES, XCHACHA],
  ] as const) {
    it(`relays RTP both ways between two participants: ${name}`, async () => {
      h = await startVoiceHarness({ voice: { requireE2ee: false } });
      const { lobbyId, members } = await h.lobby(['alice', 'bob']);
      const a = await h.joinCall(members[0]!, lobbyId, modeA);
      const b = await h.joinCall(members[1]!, lobbyId, modeB);
      expect(a.ready.d).toMatchObject({ ip: '127.0.0.1', port: h.platform.voice.udpPort, modes: [AES, XCHACHA] });
      expect(a.sessionDescription.d).toMatchObject({ mode: modeA, dave_protocol_version: 0 });
      expect(a.key).toHaveLength(32);
      expect(a.discovered).toEqual({ address: '127.0.0.1', port: a.media.port });
      expect(a.ssrc).not.toBe(b.ssrc);
      a.speaking(1);
      b.speaking(1);

      for (let n = 0; n < 20; n++) a.sendFrame(frame(n));
      for (let n = 0; n < 20; n++) {
        const got = await b.receive();
        expect(got).toMatchObject({ ssrc: a.ssrc, sequence: (a.sequence - 19 + n) & 0xffff, payload: frame(n) });
      }
      for (let n = 0; n < 5; n++) b.sendFrame(frame(100 + n), Buffer.from([0x10, 0xaa, 0, 0]));
      for (let n = 0; n < 5; n++) expect((await a.receive()).payload).toEqual(frame(100 + n));
      // Each receiver gets its own nonce sequence under its own key.
      expect(h.platform.voice.stats()).toMatchObject({ relayed: 25, injectedLoss: 0 });
    });
  }

  it('answers IP discovery only for SSRCs it assigned, and never relays to a sender itself', async () => {
    h = await startVoiceHarness({ voice: { requireE2ee: false } });
    const { lobbyId, members } = await h.lobby(['alice', 'bob']);
    const a = await h.joinCall(members[0]!, lobbyId, AES);
    const stranger = await MediaSocket.open();
    try {
      stranger.send(discoveryRequest((a.ssrc ^ 1) >>> 0), a.server.port, a.server.ip);
      // A sender alone in the call: its packets go nowhere, not back to itself.
      a.sendFrame(frame(1));
      stranger.send(discoveryRequest(a.ssrc), a.server.port, a.server.ip);
      const answer = await stranger.packets.next('discovery answer');
      expect(answer.readUInt16BE(0)).toBe(2);
      expect(answer.readUInt32BE(4)).toBe(a.ssrc);
      expect(stranger.packets.pending()).toEqual([]);
      expect(a.media.packets.pending()).toEqual([]);
      expect(h.platform.voice.stats()).toMatchObject({ relayed: 0, rejected: 1 });
    } finally {
      stranger.close();
    }
  });
});

describe('replays and address moves (PROTOCOL.md §13.4)', () => {
  /** Alice and Bob in a call, and one of Alice's packets as an on-path observer captured it (Bob got it). */
  async function captured(modeA: Mode, modeB: Mode) {
    const harness = (h = await startVoiceHarness({ voice: { requireE2ee: false } }));
    const { lobbyId, members } = await harness.lobby(['alice', 'bob']);
    const a = await harness.joinCall(members[0]!, lobbyId, modeA);
    const b = await harness.joinCall(members[1]!, lobbyId, modeB);
    const packet = a.sendFrame(frame(1));
    expect((await b.receive()).payload).toEqual(frame(1));
    return { a, b, packet, stats: () => harness.platform.voice.stats() };
  }

  for (const mode of [AES, XCHACHA]) {
    it(`a replayed authentic packet is not relayed, from the sender's address or another: ${mode}`, async () => {
      const { a, b, packet, stats } = await captured(mode, mode);
      const elsewhere = await MediaSocket.open();
      try {
        a.media.send(packet, a.server.port, a.server.ip);
        elsewhere.send(packet, a.server.port, a.server.ip);
        // UDP on loopback keeps order: the next packet Bob gets is the fresh one, not the replays.
        a.sendFrame(frame(2));
        expect((await b.receive()).payload).toEqual(frame(2));
        expect(stats()).toMatchObject({ relayed: 2, replayed: 2, addressMoves: 0 });
      } finally {
        elsewhere.close();
      }
    });
  }

  it('a replayed packet from a new address does not move the member: its return stream stays where it was', async () => {
    const { a, b, packet, stats } = await captured(AES, XCHACHA);
    // The observer re-sends it from its own address.
    const thief = await MediaSocket.open();
    try {
      thief.send(packet, a.server.port, a.server.ip);
      b.sendFrame(frame(7));
      expect((await a.receive()).payload).toEqual(frame(7));
      expect(thief.packets.pending()).toEqual([]);
      expect(stats()).toMatchObject({ replayed: 1, addressMoves: 0 });
    } finally {
      thief.close();
    }
  });

  it('a fresh authentic packet from a new address moves the member (NAT rebinding), at most once per second', async () => {
    const clock = testClock();
    h = await startVoiceHarness({ now: clock.now, voice: { requireE2ee: false } });
    const { lobbyId, members } = await h.lobby(['alice', 'bob']);
    const a = await h.joinCall(members[0]!, lobbyId, AES);
    const b = await h.joinCall(members[1]!, lobbyId, AES);
    const original = await a.rebind();
    try {
      a.sendFrame(frame(1));
      expect((await b.receive()).payload).toEqual(frame(1));
      b.sendFrame(frame(2));
      expect((await a.receive()).payload).toEqual(frame(2));
      expect(h.platform.voice.stats()).toMatchObject({ addressMoves: 1, addressMovesLimited: 0 });
      // Another rebinding within the second (the platform's clock stands still): relayed, but Alice's media stays.
      const rebound = await a.rebind();
      try {
        a.sendFrame(frame(3));
        expect((await b.receive()).payload).toEqual(frame(3));
        b.sendFrame(frame(4));
        expect(
          open(AES, a.key, await rebound.packets.next('the relayed packet at the address before')).payload,
        ).toEqual(frame(4));
        expect(h.platform.voice.stats()).toMatchObject({ addressMoves: 1, addressMovesLimited: 1 });
        clock.advance(1_000);
        a.sendFrame(frame(5));
        expect((await b.receive()).payload).toEqual(frame(5));
        b.sendFrame(frame(6));
        expect((await a.receive()).payload).toEqual(frame(6));
        expect(h.platform.voice.stats()).toMatchObject({ addressMoves: 2, addressMovesLimited: 1 });
      } finally {
        rebound.close();
      }
    } finally {
      original.close();
    }
    expect(original.packets.pending()).toEqual([]);
  });
});
