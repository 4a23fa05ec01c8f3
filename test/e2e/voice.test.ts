/**
 * Lobby voice calls end to end on both backends, against the real platform over TLS, with real UDP on loopback.
 * Microphones are WAV files with a tone (the file device), speakers are WAV files; what a player heard is judged by
 * its content — frequency by zero crossings, level by RMS per phase — never by bytes (Opus is lossy). Audio
 * processing is off (noise suppression would treat a steady tone as noise), so levels are exact.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AudioModeType, CallStatus, ClientThread, type Call } from '../../lib/index.js';
import { BACKENDS } from '../backends.js';
import type { Player } from './player.js';
import { startE2EPlatform, type E2EPlatform } from './harness.js';
import { until } from './support.js';
import {
  connectVoicePlayer,
  dominantFrequency,
  joinCall,
  median,
  phaseLevel,
  readWavLeft,
  runPhases,
  toneLevels,
  untilParticipants,
  voiceTempDir,
  writeToneWav,
} from './voice-support.js';

/**
 * The SDK threads of this process named `name` (svcpp-voice, svcpp-net, svcpp-io) and their nice values, from /proc.
 */
function threadNices(name: string): number[] {
  const nices: number[] = [];
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      if (readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim() !== name) continue;
      // stat: "tid (comm) state ..." — nice is the 19th field, the 17th after the parenthesised name.
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      nices.push(Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
    } catch {
      // the thread ended while we looked
    }
  }
  return nices;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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
    ada = await connectVoicePlayer(e2e, backend, 'Ada');
    bob = await connectVoicePlayer(e2e, backend, 'Bob');
    cyd = await connectVoicePlayer(e2e, backend, 'Cyd');
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
      {
        name: 'volume 200',
        act: () => {
          bobCall.setLocalMute(ada.id, false);
          bobCall.setParticipantVolume(ada.id, 200);
        },
      },
      {
        name: 'self mute',
        act: () => {
          bobCall.setParticipantVolume(ada.id, 100);
          adaCall.selfMute = true;
        },
      },
      {
        name: 'deafen',
        act: () => {
          adaCall.selfMute = false;
          bobCall.selfDeaf = true;
        },
      },
      {
        name: 'ptt released',
        act: () => {
          bobCall.selfDeaf = false;
          adaCall.audioMode = AudioModeType.MODE_PTT;
        },
      },
      {
        name: 'ptt held',
        act: () => {
          adaCall.pttActive = true;
        },
      },
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
    // 200 % is louder than the reference (the exact gain is the next test's: measured against a unity-gain speaker
    // in the same windows, which phases in sequence cannot do on a loaded machine).
    expect(level['volume 200']).toBeGreaterThan(level.reference + 2);
    expect(level['self mute']).toBeLessThan(SILENT_DB);
    expect(level.deafen).toBeLessThan(SILENT_DB);
    expect(level['ptt released']).toBeLessThan(SILENT_DB);
    expect(level['ptt held']).toBeGreaterThan(level.reference - 2);
  });

  it('participant volume 50 is half the amplitude: -6 dB ± 1.5 against a unity-gain speaker in the same recording', async () => {
    // Ada (440 Hz) and Cyd (660 Hz) speak at once at the same amplitude; Bob hears Cyd at volume 50. Each 100 ms window
    // of Bob's recording gives both speakers' levels apart (Goertzel: whole cycles per window, no leakage), so the
    // comparison needs no timing at all — the windows where both are heard are compared with each other. Half the
    // amplitude is 20·log10(0.5) = -6.02 dB; ±1.5 dB covers Opus coding both tones slightly differently. The median
    // over at least 2 s of windows keeps a concealed frame (a starved audio thread) from moving the figure.
    const lobbyId = await lobbyWith(ada, bob, cyd);
    const heard = await devices(bob, undefined);
    await devices(ada, 440, 30);
    await devices(cyd, 660, 30);
    const bobCall = await joinCall(bob.client, lobbyId);
    bobCall.setParticipantVolume(cyd.id, 50);
    const adaCall = await speak(ada, lobbyId);
    const cydCall = await speak(cyd, lobbyId);
    await untilParticipants([adaCall, bobCall, cydCall], [ada.id, bob.id, cyd.id]);
    await sleep(4000);
    expect(bobCall.getParticipantVolume(cyd.id)).toBe(50);
    for (const p of [bob, ada, cyd]) await p.client.voice.endCall(lobbyId);
    const samples = readWavLeft(heard);
    const unity = toneLevels(samples, 440);
    const half = toneLevels(samples, 660);
    const both = unity.flatMap((u, i) => (u > -40 && half[i]! > -40 ? [half[i]! - u] : []));
    expect(both.length).toBeGreaterThanOrEqual(20);
    expect(median(both)).toBeGreaterThan(-6.02 - 1.5);
    expect(median(both)).toBeLessThan(-6.02 + 1.5);
  });

  it("a lobby's call seen from outside it: who is in it and their voice states, also for a member who joins later", async () => {
    const secret = `voice-${backend}-info-${Date.now()}`;
    const lobbyId = await ada.client.createOrJoinLobby(secret);
    await bob.client.createOrJoinLobby(secret);
    expect(ada.client.getLobby(lobbyId)?.call).toBeUndefined();
    await devices(bob, undefined);
    const bobCall = bob.client.startCall(lobbyId);
    bobCall.selfMute = true;
    await bobCall.waitForStatus(CallStatus.Connected);
    // Ada is not in the call: her lobby shows it, with Bob's voice state.
    await until(
      () => ada.client.getLobby(lobbyId)?.call?.participants.some((p) => p.userId === bob.id && p.selfMute) === true,
      'ada sees bob, muted',
    );
    expect(ada.client.getLobby(lobbyId)?.call).toEqual({
      channelId: lobbyId,
      guildId: 0n,
      participants: [{ userId: bob.id, selfMute: true, selfDeaf: false }],
    });
    expect(ada.client.voice.getCall(lobbyId)).toBeUndefined();
    // Cyd joins the lobby while the call runs: the platform tells her who is in it.
    await cyd.client.createOrJoinLobby(secret);
    await until(() => cyd.client.getLobby(lobbyId)?.call?.participants.length === 1, 'cyd sees the call');
    expect(cyd.client.getLobby(lobbyId)?.call?.participants).toEqual([
      { userId: bob.id, selfMute: true, selfDeaf: false },
    ]);
    bobCall.selfMute = false;
    await until(() => ada.client.getLobby(lobbyId)?.call?.participants[0]?.selfMute === false, 'ada sees bob unmute');
    await bob.client.voice.endCall(lobbyId);
    await until(
      () => ada.client.getLobby(lobbyId)?.call === undefined && cyd.client.getLobby(lobbyId)?.call === undefined,
      'the call is empty',
    );
  });

  it('thread priority: the voice and network threads of a call get the nice value set for them, now and when they start', async () => {
    const lobbyId = await lobbyWith(ada, bob);
    await devices(ada, undefined);
    await devices(bob, undefined);
    // Set before Bob's call starts: his voice and network threads start with it. Lowering a priority (a higher nice
    // value) is what any unprivileged process may do, so this holds on every machine.
    bob.client.setThreadPriority(ClientThread.Voice, 7);
    const adaCall = await joinCall(ada.client, lobbyId);
    const bobCall = await joinCall(bob.client, lobbyId);
    await untilParticipants([adaCall, bobCall], [ada.id, bob.id]);
    // (The audio thread applies it as it starts, right after Connected: wait for the thread, not for a time.)
    await until(() => threadNices('svcpp-voice').filter((n) => n === 7).length === 1, "bob's audio thread at nice 7");
    // Set while the calls run: Ada's network thread changes at once, the other clients' threads keep theirs.
    const before = threadNices('svcpp-net');
    ada.client.setThreadPriority(ClientThread.Network, 9);
    expect(threadNices('svcpp-net').filter((n) => n === 9)).toHaveLength(before.filter((n) => n === 9).length + 1);
    expect(() => ada.client.setThreadPriority(ClientThread.Voice, 20)).toThrow(
      expect.objectContaining({ code: 'ERR_SVCPP_INVALID_ARGUMENT' }),
    );
    expect(() => ada.client.setThreadPriority(7 as ClientThread, 0)).toThrow(
      expect.objectContaining({ code: 'ERR_SVCPP_INVALID_ARGUMENT' }),
    );
    await bob.client.voice.endCall(lobbyId);
    await ada.client.voice.endCall(lobbyId);
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
    adaCall.on('participantChanged', (user, added) => {
      if (!added) left.push(user);
    });
    await new Promise((resolve) => setTimeout(resolve, 1500)); // a stretch of audio for both listeners
    await cyd.client.voice.endCall(lobbyId);
    await until(() => left.includes(cyd.id) && !bobCall.participants.includes(cyd.id), 'cyd left for ada and bob');
    await until(
      () => changes.some(([l, m, a]) => l === lobbyId && m === cyd.id && !a),
      'participant callback: cyd left',
    );
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

  it('a forced voice-gateway drop: Reconnecting, the missed messages replayed on resume, Connected, and the audio resumes', async () => {
    const lobbyId = await lobbyWith(ada, bob, cyd);
    const heard = await devices(bob, undefined);
    await devices(cyd, undefined);
    await devices(ada, 440, 30);
    const bobCall = await joinCall(bob.client, lobbyId);
    const cydCall = await joinCall(cyd.client, lobbyId);
    const adaCall = await speak(ada, lobbyId);
    const statuses: CallStatus[] = [];
    adaCall.on('statusChanged', (status) => statuses.push(status));
    const left: bigint[] = [];
    adaCall.on('participantChanged', (user, added) => {
      if (!added) left.push(user);
    });
    await untilParticipants([adaCall, bobCall, cydCall], [ada.id, bob.id, cyd.id]);
    await sleep(1000);
    const before = e2e.platform.voice.stats();
    expect(e2e.platform.voice.dropConnections({ userId: ada.id.toString() })).toBe(1);
    // While Ada is away (the SDK waits its reconnect back-off, 250 ms ± 20 %, before resuming), Cyd leaves: the voice
    // gateway's Client Disconnect (op 13) for Ada is buffered, and her Resume must replay it.
    const cydLeft = cyd.client.voice.endCall(lobbyId);
    await until(
      () => statuses.includes(CallStatus.Reconnecting) && adaCall.status === CallStatus.Connected,
      'reconnected',
    );
    await cydLeft;
    expect(statuses).not.toContain(CallStatus.Disconnected);
    const after = e2e.platform.voice.stats();
    expect(after.resumes - before.resumes).toBe(1);
    expect(after.resumeReplayed - before.resumeReplayed).toBeGreaterThanOrEqual(1);
    await until(() => left.includes(cyd.id) && !adaCall.participants.includes(cyd.id), 'ada saw cyd leave');
    await sleep(2000);
    await bob.client.voice.endCall(lobbyId);
    await ada.client.voice.endCall(lobbyId);
    // The audio after the drop, in the recording's own timeline (a starved audio thread makes the file lag the wall
    // clock, so wall-clock positions would blur): Bob left 2 s after Ada was Connected again, so the last 1.5 s of his
    // recording come after the resume — the tone must be there throughout (one 100 ms window of slack: the moment
    // Bob's call ends), at its pitch.
    const samples = readWavLeft(heard);
    const tail = samples.subarray(samples.length - 1.5 * 48_000);
    const { hz, loudMs } = dominantFrequency(tail);
    expect(loudMs).toBeGreaterThanOrEqual(1400);
    expect(Math.abs(hz - 440)).toBeLessThan(10);
  });

  it('a resume the platform refuses (4006: it lost the voice session): a fresh Identify, Connected again, never Disconnected, and the audio resumes', async () => {
    const lobbyId = await lobbyWith(ada, bob);
    const heard = await devices(bob, undefined);
    await devices(ada, 440, 30);
    const bobCall = await joinCall(bob.client, lobbyId);
    const adaCall = await speak(ada, lobbyId);
    const statuses: CallStatus[] = [];
    adaCall.on('statusChanged', (status) => statuses.push(status));
    await untilParticipants([adaCall, bobCall], [ada.id, bob.id]);
    const before = e2e.platform.voice.stats();
    // The platform forgets Ada's voice session as it drops her socket: her Resume is refused (4006), and a call
    // that gave up on it would end here (SignalingUnexpectedClose) instead of identifying again.
    expect(e2e.platform.voice.dropConnections({ userId: ada.id.toString(), forget: true })).toBe(1);
    await until(
      () =>
        e2e.platform.voice.stats().resumesRefused > before.resumesRefused && adaCall.status === CallStatus.Connected,
      'identified again',
    );
    expect(statuses).toContain(CallStatus.Reconnecting);
    expect(statuses).not.toContain(CallStatus.Disconnected);
    const after = e2e.platform.voice.stats();
    expect([after.resumesRefused - before.resumesRefused, after.resumes - before.resumes]).toEqual([1, 0]);
    expect([...(after.calls[lobbyId.toString()] ?? [])].sort()).toEqual([ada.id.toString(), bob.id.toString()].sort());
    await sleep(2000);
    await bob.client.voice.endCall(lobbyId);
    await ada.client.voice.endCall(lobbyId);
    // As in the forced drop above: the last 1.5 s of Bob's recording come after Ada identified again.
    const samples = readWavLeft(heard);
    const { hz, loudMs } = dominantFrequency(samples.subarray(samples.length - 1.5 * 48_000));
    expect(loudMs).toBeGreaterThanOrEqual(1400);
    expect(Math.abs(hz - 440)).toBeLessThan(10);
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
      expect(() => bob.client.startCall(lobbyId, { onReceived: () => {} })).toThrow(
        expect.objectContaining({ code: 'ERR_SVCPP_NOT_SUPPORTED' }),
      );
      expect(bob.client.voice.getCall(lobbyId)).toBeUndefined();
      return;
    }
    const received: Int16Array[] = [];
    const bobCall = bob.client.startCall(lobbyId, {
      onReceived: (user, samples) => {
        if (user === ada.id) received.push(samples);
      },
    });
    await bobCall.waitForStatus(CallStatus.Connected);
    let captured = 0;
    const adaCall = ada.client.startCall(lobbyId, {
      onCaptured: (samples) => {
        if (samples.length === 960) captured++;
      },
    });
    adaCall.setVadThreshold(false, -50);
    await adaCall.waitForStatus(CallStatus.Connected);
    await until(() => received.length >= 200, "2 s of ada's audio in bob's listener");
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
    expect(() => call.setParticipantVolume(bob.id, 200.5)).toThrow(
      expect.objectContaining({ code: 'ERR_SVCPP_INVALID_ARGUMENT' }),
    );
    expect(() => call.setParticipantVolume(bob.id, -1)).toThrow(
      expect.objectContaining({ code: 'ERR_SVCPP_INVALID_ARGUMENT' }),
    );
    expect(() => call.setParticipantVolume(bob.id, Number.NaN)).toThrow(
      expect.objectContaining({ code: 'ERR_SVCPP_INVALID_ARGUMENT' }),
    );
    expect(call.getParticipantVolume(bob.id)).toBe(150);
    call.setVadThreshold(false, -40);
    expect(() => call.setVadThreshold(true, 0.5)).toThrow(
      expect.objectContaining({ code: 'ERR_SVCPP_INVALID_ARGUMENT' }),
    );
    expect(call.vadThreshold).toEqual({ automatic: false, threshold: -40 });
    expect(() => {
      call.pttReleaseDelayMs = 10_001;
    }).toThrow(expect.objectContaining({ code: 'ERR_SVCPP_INVALID_ARGUMENT' }));
    expect(call.pttReleaseDelayMs).toBe(0);
    await expect(ada.client.voice.setInputDevice('no-such-device')).rejects.toMatchObject({
      code: 'ERR_SVCPP_INVALID_ARGUMENT',
    });
    expect(() => {
      ada.client.voice.outputVolume = 201;
    }).toThrow(expect.objectContaining({ code: 'ERR_SVCPP_INVALID_ARGUMENT' }));
    expect(ada.client.voice.getCalls().map((c) => c.lobbyId)).toEqual([lobbyId]);
    await ada.client.voice.endCall(lobbyId);
    expect(call.isValid).toBe(false);
    expect(() => {
      call.selfMute = true;
    }).toThrow(expect.objectContaining({ code: 'ERR_SVCPP_INVALID_HANDLE' }));
    expect(ada.client.voice.getCall(lobbyId)).toBeUndefined();
  });
});
