/**
 * End-to-end encrypted calls (DAVE) on both backends, against the real platform over TLS and real UDP on loopback:
 * three SDK clients in one call hear a tone through the DAVE frame cryptor, agree on the epoch and the privacy code,
 * and the platform's relay — tapped after transport decryption — only ever forwards DAVE frames (ciphertext with the
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
import type { Player } from './chat-support.js';
import { startE2EPlatform, type E2EPlatform } from './harness.js';
import { until } from './support.js';
import {
  connectVoicePlayer, decodeOpusStream, expectTone, joinCall, opusToneFrames, probeYieldsTone, untilParticipants, voiceTempDir, writeToneWav,
} from './voice-support.js';

const SILENCE_FRAME = Buffer.from([0xf8, 0xff, 0xfe]);
const TONE_HZ = 440;

describe.each(BACKENDS)('end-to-end encrypted calls over %s', (backend) => {
  let e2e: E2EPlatform;
  let ada: Player;
  let bob: Player;
  let cyd: Player;
  const dir = voiceTempDir();
  const tapped: Array<{ lobbyId: string; userId: string; payload: Buffer }> = [];

  beforeAll(async () => {
    e2e = await startE2EPlatform({ devMode: true, voice: { relayTap: (p) => tapped.push({ lobbyId: p.lobbyId, userId: p.userId, payload: Buffer.from(p.payload) }) } });
    ada = await connectVoicePlayer(e2e, backend, 'Ada');
    bob = await connectVoicePlayer(e2e, backend, 'Bob');
    cyd = await connectVoicePlayer(e2e, backend, 'Cyd');
  });
  afterAll(async () => {
    for (const player of [ada, bob, cyd]) await player?.client.close();
    await e2e?.close();
  });

  it('three players: both listeners hear the speaker through DAVE; same epoch, privacy code and pairwise fingerprints; the relay sees only ciphertext', async () => {
    const secret = `e2ee-${backend}-${Date.now()}`;
    let lobbyId = 0n;
    for (const p of [ada, bob, cyd]) lobbyId = await p.client.createOrJoinLobby(secret);
    const tone = join(dir, `tone-${backend}.wav`);
    writeToneWav(tone, TONE_HZ, 4);
    const heard = new Map<Player, string>();
    for (const p of [bob, cyd]) {
      await p.client.voice.setInputDevice('null');
      const file = join(dir, `heard-${backend}-${p.id}.wav`);
      await p.client.voice.setOutputDevice(`file:${file}`);
      heard.set(p, file);
    }
    // Ada is silent until the call is settled: what she says while she is still joining the group cannot be heard.
    await ada.client.voice.setInputDevice('null');
    await ada.client.voice.setOutputDevice(`file:${join(dir, `ada-${backend}.wav`)}`);

    const changes: Array<{ epoch: bigint; transitionPending: boolean }> = [];
    const bobCall = await joinCall(bob.client, lobbyId);
    bobCall.on('encryptionStateChanged', (s) => changes.push({ epoch: s.epoch, transitionPending: s.transitionPending }));
    const cydCall = await joinCall(cyd.client, lobbyId);
    // Every member holds the 3-member group (the epoch that added the last of them) before Ada speaks.
    const calls: Call[] = [bobCall, cydCall];
    await untilParticipants(calls, [bob.id, cyd.id]);
    await until(() => calls.every((c) => c.encryptionState.epoch >= 1n && !c.encryptionState.transitionPending), 'bob and cyd share a group');
    const adaCall = ada.client.startCall(lobbyId);
    adaCall.setVadThreshold(false, -50);
    await adaCall.waitForStatus(CallStatus.Connected);
    calls.push(adaCall);
    await untilParticipants(calls, [ada.id, bob.id, cyd.id]);
    await until(() => {
      const epochs = new Set(calls.map((c) => c.encryptionState.epoch));
      return epochs.size === 1 && !epochs.has(0n) && calls.every((c) => !c.encryptionState.transitionPending);
    }, 'all three in the same epoch');

    const states = calls.map((c) => c.encryptionState);
    for (const s of states) expect(s).toMatchObject({ protocolVersion: 1, transitionPending: false, passthrough: false });
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
    expect(adaCall.participantFingerprint(bob.id)).toBe(adaBob);  // read again: kept, not recomputed differently
    expect(adaCall.participantFingerprint(ada.id)).toBe('');
    expect(adaCall.participantFingerprint(123456789n)).toBe('');

    // Ada's 4 s tone (the file device starts it from its beginning now), then some silence for the last frames.
    const stalls = monitorEventLoopDelay({ resolution: 10 });
    stalls.enable();
    await ada.client.voice.setInputDevice(`file:${tone}`);
    await new Promise((r) => setTimeout(r, 5500));
    stalls.disable();
    // The frame cryptor's counters: each listener decrypted Ada's frames and refused none of them; nobody decrypted
    // more than Ada sealed; and every frame accepted without decryption was one of the Opus silence frames Ada sends
    // in clear after speaking (a DAVE frame is never passed through: it is decrypted or refused).
    const sealed = adaCall.framesEncrypted;
    expect(sealed).toBeGreaterThan(100n);
    const silenceFromAda = tapped.filter((t) => t.lobbyId === lobbyId.toString() && t.userId === ada.id.toString() && t.payload.equals(SILENCE_FRAME)).length;
    for (const call of [bobCall, cydCall]) {
      const stats = call.participantDecryptStats(ada.id);
      expect(stats.framesDecrypted).toBeGreaterThan(100n);
      expect(stats.framesDecrypted).toBeLessThanOrEqual(sealed);
      expect(stats.framesDropped).toBe(0n);
      expect(stats.framesPassedThrough).toBeLessThanOrEqual(BigInt(silenceFromAda));
    }
    expect(adaCall.participantDecryptStats(123456789n)).toEqual({ framesDecrypted: 0n, framesPassedThrough: 0n, framesDropped: 0n, framesPlayed: 0n });
    for (const p of [bob, cyd]) await p.client.voice.endCall(lobbyId);
    await ada.client.voice.endCall(lobbyId);
    const eventLoopMaxStallMs = stalls.max / 1e6;
    for (const p of [bob, cyd]) expectTone(heard.get(p)!, TONE_HZ, 2000, { eventLoopMaxStallMs });

    const ours = tapped.filter((t) => t.lobbyId === lobbyId.toString());
    const fromAda = ours.filter((t) => t.userId === ada.id.toString() && !t.payload.equals(SILENCE_FRAME));
    expect(fromAda.length).toBeGreaterThan(100);
    // The detector works: the tone's own Opus frames (encoded independently of the SDK) decode to the tone, all but
    // the encoder's first.
    const control = decodeOpusStream(opusToneFrames(TONE_HZ, 10)).slice(1);
    expect(control.filter((probe) => probeYieldsTone(probe, TONE_HZ))).toHaveLength(control.length);
    // Every payload of Ada's the relay forwarded is a DAVE frame, ending with the 0xFAFA marker ...
    for (const t of fromAda) expect(t.payload.subarray(-2).toString('hex')).toBe('fafa');
    // ... and an eavesdropper at the relay who decodes Ada's stream as Opus gets no frame of the tone from it.
    const eavesdropped = decodeOpusStream(fromAda.map((t) => t.payload));
    expect(eavesdropped.filter((probe) => probeYieldsTone(probe, TONE_HZ))).toEqual([]);
    // Nobody else's payloads are clear either (Bob and Cyd only send the silence frame, if anything).
    for (const t of ours) if (!t.payload.equals(SILENCE_FRAME)) expect(t.payload.subarray(-2).toString('hex')).toBe('fafa');
  });
});
