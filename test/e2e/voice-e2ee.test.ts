/**
 * End-to-end encrypted calls (DAVE) on both backends, against the real platform over TLS and real UDP on loopback:
 * three SDK clients in one call hear a tone through the DAVE frame cryptor, agree on the epoch and the privacy code,
 * and the platform's relay — tapped after transport decryption — only ever forwards DAVE frames (ciphertext with the
 * 0xFAFA marker) or the 3-byte Opus silence frame the protocol leaves in clear.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallStatus, type Call } from '../../lib/index.js';
import { BACKENDS } from '../backends.js';
import type { Player } from './chat-support.js';
import { startE2EPlatform, type E2EPlatform } from './harness.js';
import { until } from './support.js';
import { connectVoicePlayer, dominantFrequency, joinCall, readWavLeft, untilParticipants, voiceTempDir, writeToneWav } from './voice-support.js';

const SILENCE_FRAME = Buffer.from([0xf8, 0xff, 0xfe]);

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
    writeToneWav(tone, 440, 4);
    await ada.client.voice.setInputDevice(`file:${tone}`);
    const heard = new Map<Player, string>();
    for (const p of [bob, cyd]) {
      await p.client.voice.setInputDevice('null');
      const file = join(dir, `heard-${backend}-${p.id}.wav`);
      await p.client.voice.setOutputDevice(`file:${file}`);
      heard.set(p, file);
    }
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
    expect(adaCall.participantFingerprint(ada.id)).toBe('');
    expect(adaCall.participantFingerprint(123456789n)).toBe('');

    // Ada's 4 s tone, then some silence for the last frames to arrive.
    await new Promise((r) => setTimeout(r, 5500));
    // The frame cryptor's counters: each listener decrypted Ada's frames and refused none of them; nobody decrypted
    // more than Ada sealed.
    const sealed = adaCall.framesEncrypted;
    expect(sealed).toBeGreaterThan(100n);
    for (const call of [bobCall, cydCall]) {
      const stats = call.participantDecryptStats(ada.id);
      expect(stats.framesDecrypted).toBeGreaterThan(100n);
      expect(stats.framesDecrypted).toBeLessThanOrEqual(sealed);
      expect(stats.framesDropped).toBe(0n);
    }
    expect(adaCall.participantDecryptStats(123456789n)).toEqual({ framesDecrypted: 0n, framesPassedThrough: 0n, framesDropped: 0n });
    for (const p of [bob, cyd]) await p.client.voice.endCall(lobbyId);
    await ada.client.voice.endCall(lobbyId);
    for (const p of [bob, cyd]) {
      const { hz, loudMs } = dominantFrequency(readWavLeft(heard.get(p)!));
      expect(loudMs).toBeGreaterThanOrEqual(2000);
      expect(hz).toBeGreaterThan(430);
      expect(hz).toBeLessThan(450);
    }

    const ours = tapped.filter((t) => t.lobbyId === lobbyId.toString());
    const fromAda = ours.filter((t) => t.userId === ada.id.toString() && !t.payload.equals(SILENCE_FRAME));
    expect(fromAda.length).toBeGreaterThan(100);
    for (const t of ours) {
      if (t.payload.equals(SILENCE_FRAME)) continue;
      // A DAVE frame ends with the 0xFAFA marker: none of the tone's Opus frames crossed the relay in clear.
      expect(t.payload.subarray(-2).toString('hex')).toBe('fafa');
    }
  });
});
