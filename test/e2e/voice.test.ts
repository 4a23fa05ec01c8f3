/**
 * Lobby voice calls end to end on both backends, against the real platform over TLS, with real UDP on loopback:
 * two players join a lobby's call; Ada's microphone is a WAV file with a 440 Hz tone (the file device), Bob's
 * speakers are a WAV file; what Bob heard is judged by its content (frequency by zero crossings, level by RMS).
 * Audio processing (noise suppression would treat a steady tone as noise) is switched off so the signal is exact.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallStatus } from '../../lib/index.js';
import { BACKENDS } from '../backends.js';
import { connectProvisionalPlayer, type Player } from './chat-support.js';
import { startE2EPlatform, type E2EPlatform } from './harness.js';
import { until } from './support.js';
import { dominantFrequency, joinCall, readWavLeft, untilParticipants, voiceTempDir, writeToneWav } from './voice-support.js';

describe.each(BACKENDS)('voice calls over %s', (backend) => {
  let e2e: E2EPlatform;
  let ada: Player;
  let bob: Player;
  const dir = voiceTempDir();

  beforeAll(async () => {
    e2e = await startE2EPlatform();
    ada = await connectProvisionalPlayer(e2e, backend, 'Ada');
    bob = await connectProvisionalPlayer(e2e, backend, 'Bob');
    for (const p of [ada, bob]) {
      p.client.voice.setNoiseSuppression(false);
      p.client.voice.setAutomaticGainControl(false);
      p.client.voice.setEchoCancellation(false);
    }
  });
  afterAll(async () => {
    for (const player of [ada, bob]) await player?.client.close();
    await e2e?.close();
  });

  it('a 440 Hz tone sent by A from the file device reaches B with its frequency intact', async () => {
    const lobbyId = await ada.client.createOrJoinLobby(`voice-tone-${backend}`);
    await bob.client.createOrJoinLobby(`voice-tone-${backend}`);
    const tone = join(dir, `tone-${backend}.wav`);
    const heard = join(dir, `heard-${backend}.wav`);
    writeToneWav(tone, 440, 3);
    await bob.client.voice.setInputDevice('null');
    await bob.client.voice.setOutputDevice(`file:${heard}`);
    const bobCall = await joinCall(bob.client, lobbyId);
    await ada.client.voice.setInputDevice(`file:${tone}`);
    const adaCall = ada.client.startCall(lobbyId);
    adaCall.setVadThreshold(false, -50);
    const speaking: Array<[bigint, boolean]> = [];
    bobCall.on('speakingChanged', (user, on) => speaking.push([user, on]));
    await adaCall.waitForStatus(CallStatus.Connected);
    await untilParticipants([adaCall, bobCall], [ada.id, bob.id]);
    // Bob hears Ada speak, then stop when her 3 s file ends.
    await until(() => speaking.some(([u, on]) => u === ada.id && on), 'bob sees ada speaking');
    await until(() => speaking.some(([u, on]) => u === ada.id && !on), 'bob sees ada stop speaking', 15_000);
    await bob.client.voice.endCall(lobbyId);
    await ada.client.voice.endCall(lobbyId);
    expect(bobCall.isValid).toBe(false);
    const { hz, loudMs } = dominantFrequency(readWavLeft(heard));
    expect(loudMs).toBeGreaterThanOrEqual(2000);
    expect(hz).toBeGreaterThan(430);
    expect(hz).toBeLessThan(450);
  });
});
