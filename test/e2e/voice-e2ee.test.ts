/**
 * End-to-end encrypted calls (DAVE) on both backends, against the real platform over TLS and real UDP on loopback:
 * three SDK clients in one call hear each other through the DAVE frame cryptor — each speaks in turn, on a frequency of
 * its own, and both others' recordings of that turn show that tone — agree on the epoch and the privacy code, and the
 * platform's relay — tapped after transport decryption — only ever forwards DAVE frames (ciphertext with the
 * 0xFAFA marker, from which no Opus decoder gets the tone back) or the 3-byte Opus silence frame the protocol leaves
 * in clear.
 *
 * The platform runs in this process, on the test's own event loop: anything the test does synchronously stalls the
 * relay, whose queued packets then reach the listeners in one burst that their jitter buffers cannot hold (lost audio,
 * then concealment noise). So the speaker's tone starts only once the call is settled and every costly check (the
 * scrypt behind each fingerprint) is done, and the event loop's longest stall while the tone plays is recorded in the
 * failure report of the tone check.
 */
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallStatus, type Call } from '../../lib/index.js';
import { BACKENDS } from '../backends.js';
import type { Player } from './player.js';
import { startE2EPlatform, type E2EPlatform } from './harness.js';
import { until } from './support.js';
import {
  connectVoicePlayer,
  decodeOpusStream,
  expectTone,
  joinCall,
  opusToneFrames,
  probeYieldsTone,
  readWavLeft,
  untilParticipants,
  voiceTempDir,
  writeToneWav,
  writeWavSlice,
} from './voice-support.js';

const SILENCE_FRAME = Buffer.from([0xf8, 0xff, 0xfe]);
// One frequency per speaker, so that each recording shows whose tone it is.
const TONE_HZ = { Ada: 440, Bob: 660, Cyd: 880 } as const;
const TONE_MS = 4000; // each speaker's turn: 4 s of its tone ...
const QUIET_MS = 1500; // ... then silence, for its last frames and between turns

describe.each(BACKENDS)('end-to-end encrypted calls over %s', (backend) => {
  let e2e: E2EPlatform;
  let ada: Player;
  let bob: Player;
  let cyd: Player;
  const dir = voiceTempDir();
  const tapped: Array<{ lobbyId: string; userId: string; payload: Buffer }> = [];

  beforeAll(async () => {
    e2e = await startE2EPlatform({
      devMode: true,
      voice: {
        relayTap: (p) => tapped.push({ lobbyId: p.lobbyId, userId: p.userId, payload: Buffer.from(p.payload) }),
      },
    });
    ada = await connectVoicePlayer(e2e, backend, 'Ada');
    bob = await connectVoicePlayer(e2e, backend, 'Bob');
    cyd = await connectVoicePlayer(e2e, backend, 'Cyd');
  });
  afterAll(async () => {
    for (const player of [ada, bob, cyd]) await player?.client.close();
    await e2e?.close();
  });

  it('three players: each speaks in turn and both others hear it through DAVE; same epoch, privacy code and pairwise fingerprints; the relay sees only ciphertext', async () => {
    const secret = `e2ee-${backend}-${Date.now()}`;
    let lobbyId = 0n;
    for (const p of [ada, bob, cyd]) lobbyId = await p.client.createOrJoinLobby(secret);
    const players = [ada, bob, cyd];
    const names = new Map<Player, keyof typeof TONE_HZ>([
      [ada, 'Ada'],
      [bob, 'Bob'],
      [cyd, 'Cyd'],
    ]);
    const nameOf = (p: Player) => names.get(p)!;
    const hzOf = (p: Player) => TONE_HZ[nameOf(p)];
    for (const p of players) {
      // Each player's microphone plays its tone all along (long enough for the whole test) and its loudspeaker is
      // recorded; turns are taken by muting, not by changing devices (that would start the recordings afresh).
      // Everyone is muted until the call is settled: what a player says while still joining the group cannot be heard.
      const tone = join(dir, `tone-${backend}-${nameOf(p)}.wav`);
      writeToneWav(tone, hzOf(p), 90);
      await p.client.voice.setInputDevice(`file:${tone}`);
      await p.client.voice.setOutputDevice(`file:${join(dir, `heard-${backend}-${nameOf(p)}.wav`)}`);
      p.client.voice.selfMuteAll = true;
    }
    // A player's recording starts when its call is Connected (its engine, hence its output file, starts then).
    const recordingStartedAt = new Map<Player, number>();

    const changes: Array<{ epoch: bigint; transitionPending: boolean }> = [];
    const bobCall = await joinCall(bob.client, lobbyId);
    recordingStartedAt.set(bob, Date.now());
    bobCall.on('encryptionStateChanged', (s) =>
      changes.push({ epoch: s.epoch, transitionPending: s.transitionPending }),
    );
    const cydCall = await joinCall(cyd.client, lobbyId);
    recordingStartedAt.set(cyd, Date.now());
    for (const call of [bobCall, cydCall]) call.setVadThreshold(false, -50);
    // Every member holds the 3-member group (the epoch that added the last of them) before Ada speaks.
    const calls: Call[] = [bobCall, cydCall];
    await untilParticipants(calls, [bob.id, cyd.id]);
    await until(
      () => calls.every((c) => c.encryptionState.epoch >= 1n && !c.encryptionState.transitionPending),
      'bob and cyd share a group',
    );
    const adaCall = ada.client.startCall(lobbyId);
    adaCall.setVadThreshold(false, -50);
    await adaCall.waitForStatus(CallStatus.Connected);
    recordingStartedAt.set(ada, Date.now());
    calls.push(adaCall);
    await untilParticipants(calls, [ada.id, bob.id, cyd.id]);
    await until(() => {
      const epochs = new Set(calls.map((c) => c.encryptionState.epoch));
      return epochs.size === 1 && !epochs.has(0n) && calls.every((c) => !c.encryptionState.transitionPending);
    }, 'all three in the same epoch');

    const states = calls.map((c) => c.encryptionState);
    for (const s of states)
      expect(s).toMatchObject({ protocolVersion: 1, transitionPending: false, passthrough: false });
    const codes = calls.map((c) => c.privacyCode);
    expect(codes[0]).toMatch(/^\d{30}$/);
    expect(new Set(codes).size).toBe(1);
    expect(changes.some((c) => c.epoch >= 1n)).toBe(true);

    // Pairwise verification fingerprints: each pair computes the same 45 digits from both sides; pairs differ.
    const adaBob = adaCall.participantFingerprint(bob.id);
    expect(adaBob).toMatch(/^\d{45}$/);
    expect(bobCall.participantFingerprint(ada.id)).toBe(adaBob);
    expect(cydCall.participantFingerprint(ada.id)).toBe(adaCall.participantFingerprint(cyd.id));
    expect(cydCall.participantFingerprint(bob.id)).toBe(bobCall.participantFingerprint(cyd.id));
    expect(cydCall.participantFingerprint(ada.id)).not.toBe(adaBob);
    expect(adaCall.participantFingerprint(bob.id)).toBe(adaBob); // read again: kept, not recomputed differently
    expect(adaCall.participantFingerprint(ada.id)).toBe('');
    expect(adaCall.participantFingerprint(123456789n)).toBe('');

    // Each player speaks its tone in turn.
    const callOf = new Map<Player, Call>([
      [ada, adaCall],
      [bob, bobCall],
      [cyd, cydCall],
    ]);
    const turns = new Map<Player, { startAt: number; endAt: number }>();
    const stalls = monitorEventLoopDelay({ resolution: 10 });
    stalls.enable();
    for (const speaker of players) {
      const startAt = Date.now();
      speaker.client.voice.selfMuteAll = false;
      await new Promise((r) => setTimeout(r, TONE_MS));
      speaker.client.voice.selfMuteAll = true;
      await new Promise((r) => setTimeout(r, QUIET_MS));
      turns.set(speaker, { startAt, endAt: Date.now() });
    }
    stalls.disable();
    // The frame cryptor's counters, for each speaker: each listener decrypted the speaker's frames and refused none
    // of them; nobody decrypted more than the speaker sealed; and every frame accepted without decryption was one of
    // the Opus silence frames the speaker sends in clear after speaking (a DAVE frame is never passed through: it is
    // decrypted or refused).
    for (const speaker of players) {
      const sealed = callOf.get(speaker)!.framesEncrypted;
      expect(sealed, `${nameOf(speaker)} sealed`).toBeGreaterThan(100n);
      const silenceFromSpeaker = tapped.filter(
        (t) =>
          t.lobbyId === lobbyId.toString() && t.userId === speaker.id.toString() && t.payload.equals(SILENCE_FRAME),
      ).length;
      for (const listener of players.filter((p) => p !== speaker)) {
        const stats = callOf.get(listener)!.participantDecryptStats(speaker.id);
        const pair = `${nameOf(speaker)} → ${nameOf(listener)}`;
        expect(stats.framesDecrypted, pair).toBeGreaterThan(100n);
        expect(stats.framesDecrypted, pair).toBeLessThanOrEqual(sealed);
        expect(stats.framesDropped, pair).toBe(0n);
        expect(stats.framesPassedThrough, pair).toBeLessThanOrEqual(BigInt(silenceFromSpeaker));
      }
    }
    expect(adaCall.participantDecryptStats(123456789n)).toEqual({
      framesDecrypted: 0n,
      framesPassedThrough: 0n,
      framesDropped: 0n,
      framesPlayed: 0n,
    });
    for (const p of [bob, cyd]) await p.client.voice.endCall(lobbyId);
    await ada.client.voice.endCall(lobbyId);
    const eventLoopMaxStallMs = stalls.max / 1e6;
    // Each listener's recording, cut at the turns (the silence between two tones absorbs where exactly the recording
    // started), shows each other speaker's tone in that speaker's turn.
    for (const listener of players) {
      const samples = readWavLeft(join(dir, `heard-${backend}-${nameOf(listener)}.wav`));
      for (const speaker of players.filter((p) => p !== listener)) {
        const { startAt, endAt } = turns.get(speaker)!;
        const startedAt = recordingStartedAt.get(listener)!;
        const file = join(dir, `heard-${backend}-${nameOf(speaker)}-by-${nameOf(listener)}.wav`);
        writeWavSlice(file, samples, startAt - startedAt, endAt - startedAt);
        expectTone(file, hzOf(speaker), 2000, {
          eventLoopMaxStallMs,
          speaker: nameOf(speaker),
          listener: nameOf(listener),
        });
      }
    }

    const ours = tapped.filter((t) => t.lobbyId === lobbyId.toString());
    for (const speaker of players) {
      const hz = hzOf(speaker);
      const fromSpeaker = ours.filter((t) => t.userId === speaker.id.toString() && !t.payload.equals(SILENCE_FRAME));
      expect(fromSpeaker.length).toBeGreaterThan(100);
      // The detector works: the tone's own Opus frames (encoded independently of the SDK) decode to the tone, all
      // but the encoder's first.
      const control = decodeOpusStream(opusToneFrames(hz, 10)).slice(1);
      expect(control.filter((probe) => probeYieldsTone(probe, hz))).toHaveLength(control.length);
      // Every payload of the speaker's the relay forwarded is a DAVE frame, ending with the 0xFAFA marker ...
      for (const t of fromSpeaker) expect(t.payload.subarray(-2).toString('hex')).toBe('fafa');
      // ... and an eavesdropper at the relay who decodes the speaker's stream as Opus gets no frame of the tone.
      const eavesdropped = decodeOpusStream(fromSpeaker.map((t) => t.payload));
      expect(
        eavesdropped.filter((probe) => probeYieldsTone(probe, hz)),
        nameOf(speaker),
      ).toEqual([]);
    }
  });
});
