/**
 * Lobby voice calls end to end on both backends, against the real platform over TLS, with real UDP on loopback.
 * Microphones are WAV files with a tone (the file device), speakers are WAV files; what a player heard is judged by
 * its content — frequency by zero crossings, level by RMS per phase — never by bytes (Opus is lossy). Audio
 * processing is off (noise suppression would treat a steady tone as noise), so levels are exact.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AudioModeType, CallStatus, type Call } from '../../lib/index.js';
import { BACKENDS } from '../backends.js';
import { connectProvisionalPlayer, type Player } from './chat-support.js';
import { startE2EPlatform, type E2EPlatform } from './harness.js';
import { until } from './support.js';
import {
  dominantFrequency, joinCall, loudWindows, phaseLevel, readWavLeft, runPhases, untilParticipants, voiceTempDir, writeToneWav,
} from './voice-support.js';

/** Heard: a phase at most this far below the reference; silent: below SILENT_DB. */
const SILENT_DB = -60;

describe.each(BACKENDS)('voice calls over %s', (backend) => {
  let e2e: E2EPlatform;
  let ada: Player;
  let bob: Player;
  let cyd: Player;
  const dir = voiceTempDir();
  let lobbies = 0;

  /** A fresh lobby with the given players (each test has its own, so each runs alone). */
  async function lobbyWith(...players: Player[]): Promise<bigint> {
    const secret = `voice-${backend}-${++lobbies}-${Date.now()}`;
    let id = 0n;
    for (const p of players) id = await p.client.createOrJoinLobby(secret);
    return id;
  }

  /** Sets a player's microphone to a fresh tone file and its speakers to a fresh recording; returns the recording. */
  async function devices(p: Player, toneHz: number | undefined, seconds = 20): Promise<string> {
    const tag = `${p.id}-${++lobbies}`;
    if (toneHz) {
      const tone = join(dir, `tone-${tag}.wav`);
      writeToneWav(tone, toneHz, seconds);
      await p.client.voice.setInputDevice(`file:${tone}`);
    } else {
      await p.client.voice.setInputDevice('null');
    }
    const heard = join(dir, `heard-${tag}.wav`);
    await p.client.voice.setOutputDevice(`file:${heard}`);
    return heard;
  }

  /** Starts the call of someone who speaks: manual VAD threshold (a steady tone is voice enough). */
  async function speak(p: Player, lobbyId: bigint): Promise<Call> {
    const call = p.client.startCall(lobbyId);
    call.setVadThreshold(false, -50);
    await call.waitForStatus(CallStatus.Connected);
    return call;
  }

  beforeAll(async () => {
    e2e = await startE2EPlatform();
    ada = await connectProvisionalPlayer(e2e, backend, 'Ada');
    bob = await connectProvisionalPlayer(e2e, backend, 'Bob');
    cyd = await connectProvisionalPlayer(e2e, backend, 'Cyd');
    for (const p of [ada, bob, cyd]) {
      p.client.voice.setNoiseSuppression(false);
      p.client.voice.setAutomaticGainControl(false);
      p.client.voice.setEchoCancellation(false);
    }
  });
  afterAll(async () => {
    for (const player of [ada, bob, cyd]) await player?.client.close();
    await e2e?.close();
  });

  it('a 440 Hz tone sent by A from the file device reaches B with its frequency intact; speaking events', async () => {
    const lobbyId = await lobbyWith(ada, bob);
    const heard = await devices(bob, undefined);
    await devices(ada, 440, 3);
    const bobCall = await joinCall(bob.client, lobbyId);
    const speaking: Array<[bigint, boolean]> = [];
    bobCall.on('speakingChanged', (user, on) => speaking.push([user, on]));
    const adaCall = await speak(ada, lobbyId);
    await untilParticipants([adaCall, bobCall], [ada.id, bob.id]);
    // Bob hears Ada speak, then stop when her 3 s file ends.
    await until(() => speaking.some(([u, on]) => u === ada.id && on), 'bob sees ada speaking');
    await until(() => speaking.some(([u, on]) => u === ada.id && !on), 'bob sees ada stop speaking');
    await bob.client.voice.endCall(lobbyId);
    await ada.client.voice.endCall(lobbyId);
    expect(bobCall.isValid).toBe(false);
    expect(bobCall.status).toBe(CallStatus.Disconnected);
    const { hz, loudMs } = dominantFrequency(readWavLeft(heard));
    expect(loudMs).toBeGreaterThanOrEqual(2000);
    expect(hz).toBeGreaterThan(430);
    expect(hz).toBeLessThan(450);
  });

  it('local mute, participant volume, self mute, deafen and push-to-talk each change what is heard', async () => {
    const lobbyId = await lobbyWith(ada, bob);
    const heard = await devices(bob, undefined);
    await devices(ada, 440, 30);
    const bobCall = await joinCall(bob.client, lobbyId);
    const recordingStartedAt = Date.now();
    const adaCall = await speak(ada, lobbyId);
    await untilParticipants([adaCall, bobCall], [ada.id, bob.id]);
    const states: bigint[] = [];
    bobCall.on('voiceStateChanged', (user) => states.push(user));
    const timings = await runPhases(recordingStartedAt, [
      { name: 'reference', act: () => {} },
      { name: 'local mute', act: () => bobCall.setLocalMute(ada.id, true) },
      { name: 'volume 50', act: () => { bobCall.setLocalMute(ada.id, false); bobCall.setParticipantVolume(ada.id, 50); } },
      { name: 'self mute', act: () => { bobCall.setParticipantVolume(ada.id, 100); adaCall.selfMute = true; } },
      { name: 'deafen', act: () => { adaCall.selfMute = false; bobCall.selfDeaf = true; } },
      { name: 'ptt released', act: () => { bobCall.selfDeaf = false; adaCall.audioMode = AudioModeType.MODE_PTT; } },
      { name: 'ptt held', act: () => { adaCall.pttActive = true; } },
    ]);
    // Ada's self mute reached Bob as a voice state (op 4 → VOICE_STATE_UPDATE) while it lasted.
    expect(states).toContain(ada.id);
    expect(bobCall.getLocalMute(ada.id)).toBe(false);
    expect(bobCall.getParticipantVolume(ada.id)).toBe(100);
    await bob.client.voice.endCall(lobbyId);
    await ada.client.voice.endCall(lobbyId);
    const samples = readWavLeft(heard);
    const level = Object.fromEntries(timings.map((t) => [t.name, phaseLevel(samples, t)]));
    expect(level.reference).toBeGreaterThan(-20);
    expect(level['local mute']).toBeLessThan(SILENT_DB);
    // 50 % volume = half the amplitude: 6 dB lower nominally; the window is wide because a starved audio thread (a
    // loaded machine) conceals frames, which lowers a phase's level a little.
    expect(level['volume 50'] - level.reference).toBeGreaterThan(-12);
    expect(level['volume 50'] - level.reference).toBeLessThan(-3);
    expect(level['volume 50']).toBeGreaterThan(SILENT_DB + 20);
    expect(level['self mute']).toBeLessThan(SILENT_DB);
    expect(level.deafen).toBeLessThan(SILENT_DB);
    expect(level['ptt released']).toBeLessThan(SILENT_DB);
    expect(level['ptt held']).toBeGreaterThan(level.reference - 2);
  });

  it('three players: both listeners hear the speaker; one leaves and joins again, the others see it', async () => {
    const lobbyId = await lobbyWith(ada, bob, cyd);
    const bobHeard = await devices(bob, undefined);
    const cydHeard = await devices(cyd, undefined);
    await devices(ada, 440, 30);
    const changes: Array<[bigint, bigint, boolean]> = [];
    ada.client.voice.onVoiceParticipantChanged((lobby, member, added) => changes.push([lobby, member, added]));
    const bobCall = await joinCall(bob.client, lobbyId);
    const cydCall = await joinCall(cyd.client, lobbyId);
    // Ada is not in the call yet and still hears who is.
    await until(() => changes.some(([l, m, a]) => l === lobbyId && m === cyd.id && a), 'ada sees cyd join the call');
    const adaCall = await speak(ada, lobbyId);
    await untilParticipants([adaCall, bobCall, cydCall], [ada.id, bob.id, cyd.id]);
    const left: bigint[] = [];
    adaCall.on('participantChanged', (user, added) => { if (!added) left.push(user); });
    await new Promise((resolve) => setTimeout(resolve, 1500));  // a stretch of audio for both listeners
    await cyd.client.voice.endCall(lobbyId);
    await until(() => left.includes(cyd.id) && !bobCall.participants.includes(cyd.id), 'cyd left for ada and bob');
    await until(() => changes.some(([l, m, a]) => l === lobbyId && m === cyd.id && !a), 'participant callback: cyd left');
    // A new recording for the second stay (reopening a file device starts the file afresh).
    await cyd.client.voice.setOutputDevice(`file:${join(dir, `cyd-again-${backend}.wav`)}`);
    const again = await joinCall(cyd.client, lobbyId);
    await untilParticipants([adaCall, bobCall, again], [ada.id, bob.id, cyd.id]);
    await cyd.client.voice.endCalls();
    await bob.client.voice.endCall(lobbyId);
    await ada.client.voice.endCall(lobbyId);
    for (const heard of [bobHeard, cydHeard]) {
      const { hz, loudMs } = dominantFrequency(readWavLeft(heard));
      expect(loudMs).toBeGreaterThanOrEqual(1000);
      expect(Math.abs(hz - 440)).toBeLessThan(10);
    }
  });

  it('a forced voice-gateway drop: Reconnecting, then Connected, and the audio resumes', async () => {
    const lobbyId = await lobbyWith(ada, bob);
    const heard = await devices(bob, undefined);
    await devices(ada, 440, 30);
    const bobCall = await joinCall(bob.client, lobbyId);
    const recordingStartedAt = Date.now();
    const adaCall = await speak(ada, lobbyId);
    const statuses: CallStatus[] = [];
    adaCall.on('statusChanged', (status) => statuses.push(status));
    await untilParticipants([adaCall, bobCall], [ada.id, bob.id]);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(e2e.platform.voice.dropConnections({ userId: ada.id.toString() })).toBe(1);
    const droppedAtMs = Date.now() - recordingStartedAt;
    await until(() => statuses.includes(CallStatus.Reconnecting) && adaCall.status === CallStatus.Connected, 'reconnected');
    expect(statuses).not.toContain(CallStatus.Disconnected);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    await bob.client.voice.endCall(lobbyId);
    await ada.client.voice.endCall(lobbyId);
    // Audio after the drop: loud windows well after it (the resume takes a fraction of a second).
    const loud = loudWindows(readWavLeft(heard), -30);
    expect(loud.filter((w) => w * 100 > droppedAtMs + 1000).length).toBeGreaterThanOrEqual(5);
  });

  it('10 % UDP loss injected by the relay: the tone still decodes (FEC / PLC)', async () => {
    const lobbyId = await lobbyWith(ada, bob);
    const heard = await devices(bob, undefined);
    await devices(ada, 440, 3);
    e2e.platform.voice.setLoss(0.1, 7);
    try {
      const bobCall = await joinCall(bob.client, lobbyId);
      const speaking: Array<[bigint, boolean]> = [];
      bobCall.on('speakingChanged', (user, on) => speaking.push([user, on]));
      await speak(ada, lobbyId);
      await until(() => speaking.some(([u, on]) => u === ada.id && !on), 'ada stops speaking');
      await bob.client.voice.endCall(lobbyId);
      await ada.client.voice.endCall(lobbyId);
      expect(e2e.platform.voice.stats().injectedLoss).toBeGreaterThan(0);
    } finally {
      e2e.platform.voice.setLoss(0);
    }
    const { hz, loudMs } = dominantFrequency(readWavLeft(heard));
    // Concealment fills the gaps: nearly the whole 3 s is heard, at the right pitch.
    expect(loudMs).toBeGreaterThanOrEqual(2500);
    expect(Math.abs(hz - 440)).toBeLessThan(10);
  });

  it('audio listeners: received audio per participant and the captured microphone reach JavaScript (N-API; koffi refuses)', async () => {
    const lobbyId = await lobbyWith(ada, bob);
    await devices(bob, undefined);
    await devices(ada, 440, 3);
    if (backend === 'koffi') {
      expect(() => bob.client.startCall(lobbyId, { onReceived: () => {} })).toThrow(expect.objectContaining({ code: 'ERR_SVCPP_NOT_SUPPORTED' }));
      expect(bob.client.voice.getCall(lobbyId)).toBeUndefined();
      return;
    }
    const received: Int16Array[] = [];
    const bobCall = bob.client.startCall(lobbyId, { onReceived: (user, samples) => { if (user === ada.id) received.push(samples); } });
    await bobCall.waitForStatus(CallStatus.Connected);
    let captured = 0;
    const adaCall = ada.client.startCall(lobbyId, { onCaptured: (samples) => { if (samples.length === 960) captured++; } });
    adaCall.setVadThreshold(false, -50);
    await adaCall.waitForStatus(CallStatus.Connected);
    await until(() => received.length >= 200, '2 s of ada\'s audio in bob\'s listener');
    await bob.client.voice.endCall(lobbyId);
    await ada.client.voice.endCall(lobbyId);
    expect(captured).toBeGreaterThan(100);
    // The left channel of what the listener got, judged like a recording.
    const left = Int16Array.from(received.flatMap((frame) => Array.from(frame.filter((_, i) => i % 2 === 0))));
    const { hz, loudMs } = dominantFrequency(left);
    expect(loudMs).toBeGreaterThanOrEqual(1500);
    expect(Math.abs(hz - 440)).toBeLessThan(10);
  });

  it('bad input on a live call: clear errors, nothing changed', async () => {
    const lobbyId = await lobbyWith(ada);
    await devices(ada, undefined);
    const call = await joinCall(ada.client, lobbyId);
    expect(() => ada.client.startCall(lobbyId)).toThrow(/already in the call/);
    expect(() => ada.client.startCall(lobbyId + 1n)).toThrow(/not a member/);
    call.setParticipantVolume(bob.id, 150);
    expect(() => call.setParticipantVolume(bob.id, 200.5)).toThrow(expect.objectContaining({ code: 'ERR_SVCPP_INVALID_ARGUMENT' }));
    expect(() => call.setParticipantVolume(bob.id, -1)).toThrow(expect.objectContaining({ code: 'ERR_SVCPP_INVALID_ARGUMENT' }));
    expect(() => call.setParticipantVolume(bob.id, Number.NaN)).toThrow(expect.objectContaining({ code: 'ERR_SVCPP_INVALID_ARGUMENT' }));
    expect(call.getParticipantVolume(bob.id)).toBe(150);
    call.setVadThreshold(false, -40);
    expect(() => call.setVadThreshold(true, 0.5)).toThrow(expect.objectContaining({ code: 'ERR_SVCPP_INVALID_ARGUMENT' }));
    expect(call.vadThreshold).toEqual({ automatic: false, threshold: -40 });
    expect(() => { call.pttReleaseDelayMs = 10_001; }).toThrow(expect.objectContaining({ code: 'ERR_SVCPP_INVALID_ARGUMENT' }));
    expect(call.pttReleaseDelayMs).toBe(0);
    await expect(ada.client.voice.setInputDevice('no-such-device')).rejects.toMatchObject({ code: 'ERR_SVCPP_INVALID_ARGUMENT' });
    expect(() => { ada.client.voice.outputVolume = 201; }).toThrow(expect.objectContaining({ code: 'ERR_SVCPP_INVALID_ARGUMENT' }));
    expect(ada.client.voice.getCalls().map((c) => c.lobbyId)).toEqual([lobbyId]);
    await ada.client.voice.endCall(lobbyId);
    expect(call.isValid).toBe(false);
    expect(() => { call.selfMute = true; }).toThrow(expect.objectContaining({ code: 'ERR_SVCPP_INVALID_HANDLE' }));
    expect(ada.client.voice.getCall(lobbyId)).toBeUndefined();
  });
});

