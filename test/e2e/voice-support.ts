/**
 * Helpers of the voice end-to-end suites: WAV files for the file audio device (a generated tone as microphone; what
 * a client heard, read back) and signal measures that judge audio by its content — frequency by zero crossings,
 * loudness by RMS — never by byte equality (Opus is lossy).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpusScript from 'opusscript';
import { expect } from 'vitest';
import { CallStatus, type Call, type Client } from '../../lib/index.js';
import { stereoPcm, writeStereoWav } from '../../tools/wav.js';
import type { BACKENDS } from '../backends.js';
import { connectProvisionalPlayer } from './chat-support.js';
import type { Player } from './player.js';
import type { E2EPlatform } from './harness.js';
import { until } from './support.js';

export const SAMPLE_RATE = 48_000;

/**
 * A provisional player whose audio processing is off: noise suppression, gain control and echo cancellation would
 * reshape the test tones these suites measure.
 */
export async function connectVoicePlayer(
  e2e: E2EPlatform,
  backend: (typeof BACKENDS)[number],
  name: string,
): Promise<Player> {
  const player = await connectProvisionalPlayer(e2e, backend, name);
  player.client.voice.setNoiseSuppression(false);
  player.client.voice.setAutomaticGainControl(false);
  player.client.voice.setEchoCancellation(false);
  return player;
}

/** A fresh temporary directory for one suite's WAV files. */
export const voiceTempDir = (): string => mkdtempSync(join(tmpdir(), 'svcpp-voice-'));

/** Writes a 48 kHz stereo 16-bit WAV: `seconds` of a sine at `frequency` Hz (amplitude 0..1 of full scale). */
export function writeToneWav(path: string, frequency: number, seconds: number, amplitude = 0.5): void {
  const frames = Math.round(seconds * SAMPLE_RATE);
  writeStereoWav(
    path,
    stereoPcm(frames, (i) => Math.sin((2 * Math.PI * frequency * i) / SAMPLE_RATE) * amplitude),
  );
}

/**
 * Writes the part of a recording between `fromMs` and `toMs` (from its start) as a WAV of its own, so that one
 * speaker's turn in a listener's recording can be judged alone (expectTone) and kept as evidence beside the rest.
 */
export function writeWavSlice(path: string, samples: Int16Array, fromMs: number, toMs: number): void {
  const from = Math.max(0, Math.floor((fromMs * SAMPLE_RATE) / 1000));
  const to = Math.min(samples.length, Math.floor((toMs * SAMPLE_RATE) / 1000));
  writeStereoWav(
    path,
    stereoPcm(Math.max(0, to - from), (i) => samples[from + i]! / 32768),
  );
}

/** The left channel of a 16-bit PCM WAV file (finds the data chunk), as numbers in -32768..32767. */
export function readWavLeft(path: string): Int16Array {
  const file = readFileSync(path);
  let offset = 12;
  let channels = 2;
  while (offset + 8 <= file.length) {
    const id = file.toString('ascii', offset, offset + 4);
    const size = file.readUInt32LE(offset + 4);
    if (id === 'fmt ') channels = file.readUInt16LE(offset + 10);
    if (id === 'data') {
      const end = Math.min(file.length, offset + 8 + size);
      const frames = Math.floor((end - offset - 8) / (2 * channels));
      const out = new Int16Array(frames);
      for (let i = 0; i < frames; i++) out[i] = file.readInt16LE(offset + 8 + i * 2 * channels);
      return out;
    }
    offset += 8 + size + (size % 2);
  }
  throw new Error(`${path}: no data chunk`);
}

/** RMS of each 100 ms window, in dBFS (-100 for digital silence). */
export function windowLevels(samples: Int16Array, windowMs = 100): number[] {
  const n = (SAMPLE_RATE * windowMs) / 1000;
  const levels: number[] = [];
  for (let start = 0; start + n <= samples.length; start += n) {
    let sum = 0;
    for (let i = start; i < start + n; i++) sum += samples[i] * samples[i];
    const rms = Math.sqrt(sum / n) / 32768;
    levels.push(rms > 0 ? Math.max(-100, 20 * Math.log10(rms)) : -100);
  }
  return levels;
}

/** The window (of windowMs) indexes whose level is at least `minDb`. */
export const loudWindows = (samples: Int16Array, minDb: number, windowMs = 100): number[] =>
  windowLevels(samples, windowMs).flatMap((level, i) => (level >= minDb ? [i] : []));

/** The median of values (0 for none). */
const median = (values: number[]): number => {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted.length ? sorted[Math.floor(sorted.length / 2)]! : 0;
};

/**
 * The frequency of the loud part of a recording. Each loud 100 ms window (≥ minDb) gets its own frequency — one over
 * the median period of its tone, a period being the distance between consecutive upward zero crossings
 * (interpolated between samples) — and the recording's frequency is the median of those window frequencies.
 * Periods, not crossings per window: a crossing count per 100 ms is quantised to 10 Hz, and a window holding a gap (a
 * frame concealed, or the silence a late audio thread leaves on a loaded machine) loses a crossing. One vote per
 * window, not per period: a window that is loud because it starts with the tone but then holds the decoder's
 * concealment noise (a stream that stalled) has ~20 times as many crossings as a tone window, so pooling periods let
 * a few such windows outvote seconds of tone (a 440 Hz recording once measured 7.4 kHz that way).
 * loudMs says how much of the recording was loud; windowHz is each loud window's frequency (for failure reports).
 */
export function dominantFrequency(
  samples: Int16Array,
  minDb = -40,
): { hz: number; loudMs: number; windowHz: number[] } {
  const window = SAMPLE_RATE / 10;
  const loud = loudWindows(samples, minDb);
  const windowHz: number[] = [];
  for (const w of loud) {
    const periods: number[] = [];
    let last: number | undefined;
    for (let i = w * window + 1; i < (w + 1) * window; i++) {
      if (samples[i - 1]! < 0 && samples[i]! >= 0) {
        const at = i - 1 + samples[i - 1]! / (samples[i - 1]! - samples[i]!); // where the line between them crosses 0
        if (last !== undefined) periods.push(at - last);
        last = at;
      }
    }
    const period = median(periods);
    windowHz.push(period > 0 ? SAMPLE_RATE / period : 0);
  }
  return { hz: median(windowHz), loudMs: loud.length * 100, windowHz };
}

/**
 * Expects the recording `file` to be `hz` (±10 Hz, by dominantFrequency) for at least `minLoudMs`. On failure it first
 * writes `<file>.analysis.json` beside the recording — every loud window's frequency, every window's level, and
 * `context` (e.g. the event loop's longest stall) — and names both files in the failure, so a rare failure on a CI
 * machine leaves its evidence behind.
 */
export function expectTone(file: string, hz: number, minLoudMs: number, context: Record<string, unknown> = {}): void {
  const samples = readWavLeft(file);
  const measured = dominantFrequency(samples);
  const report = `${file}.analysis.json`;
  if (measured.loudMs < minLoudMs || Math.abs(measured.hz - hz) >= 10) {
    writeFileSync(
      report,
      JSON.stringify(
        { file, expectedHz: hz, minLoudMs, ...measured, levels100ms: windowLevels(samples), ...context },
        null,
        1,
      ),
    );
  }
  expect(measured.loudMs, `loud part of ${file} (analysis: ${report})`).toBeGreaterThanOrEqual(minLoudMs);
  expect(Math.abs(measured.hz - hz), `frequency ${measured.hz} Hz of ${file} (analysis: ${report})`).toBeLessThan(10);
}

/** Starts a call and waits until it is Connected. */
export async function joinCall(client: Client, lobbyId: bigint): Promise<Call> {
  const call = client.startCall(lobbyId);
  await call.waitForStatus(CallStatus.Connected);
  return call;
}

/** Waits until every client's call lists every one of `ids` as a participant. */
export async function untilParticipants(calls: Call[], ids: bigint[]): Promise<void> {
  await until(
    () => calls.every((c) => ids.every((id) => c.participants.includes(id))),
    `participants ${ids.join(', ')}`,
  );
}

/** A step of a timed scenario: what to do at its start, and its name (for failure messages). */
export interface Phase {
  name: string;
  act: () => void;
}

/** When each phase ran, in ms since the recording started. */
export interface PhaseTiming {
  name: string;
  startMs: number;
  endMs: number;
}

/**
 * Runs `phases` one after another, `ms` each, and says when each ran relative to `recordingStartedAt` (Date.now() when
 * the listener's call became Connected: its engine, hence its output file, starts then).
 */
export async function runPhases(recordingStartedAt: number, phases: Phase[], ms = 1500): Promise<PhaseTiming[]> {
  const out: PhaseTiming[] = [];
  for (const phase of phases) {
    phase.act();
    const startMs = Date.now() - recordingStartedAt;
    await new Promise((resolve) => setTimeout(resolve, ms));
    out.push({ name: phase.name, startMs, endMs: Date.now() - recordingStartedAt });
  }
  return out;
}

/**
 * The level (dBFS) of the middle half of a phase in a recording: edges are left out, so network and jitter-buffer
 * delay (tens of ms) and the 200 ms speaking hangover never blur one phase into the next; the median of its 20 ms
 * windows, so a glitch (a starved audio thread on a loaded machine) does not move it.
 */
export function phaseLevel(samples: Int16Array, timing: PhaseTiming): number {
  const quarter = (timing.endMs - timing.startMs) / 4;
  const from = Math.floor(((timing.startMs + quarter) * SAMPLE_RATE) / 1000);
  const to = Math.min(samples.length, Math.floor(((timing.endMs - quarter) * SAMPLE_RATE) / 1000));
  if (to <= from) return -100;
  return median(windowLevels(samples.subarray(from, to), 20));
}

/**
 * The amplitude (dBFS of a full-scale sine) of one frequency in each 100 ms window, by a single-bin DFT (Goertzel).
 * With tones of whole cycles per window (440 Hz: 44, 660 Hz: 66) there is no leakage between them, so two speakers
 * heard at once are measured apart, in the same windows of the same recording.
 */
export function toneLevels(samples: Int16Array, hz: number, windowMs = 100): number[] {
  const n = (SAMPLE_RATE * windowMs) / 1000;
  const coefficient = 2 * Math.cos((2 * Math.PI * hz) / SAMPLE_RATE);
  const levels: number[] = [];
  for (let start = 0; start + n <= samples.length; start += n) {
    let s1 = 0;
    let s2 = 0;
    for (let i = start; i < start + n; i++) {
      const s0 = samples[i]! / 32768 + coefficient * s1 - s2;
      s2 = s1;
      s1 = s0;
    }
    const amplitude = (2 * Math.sqrt(Math.max(0, s1 * s1 + s2 * s2 - coefficient * s1 * s2))) / n;
    levels.push(amplitude > 0 ? Math.max(-100, 20 * Math.log10(amplitude)) : -100);
  }
  return levels;
}

export { median };

/** What decoding one payload as Opus gave: its level, frequency and how steady its period is (decodeOpusStream). */
export interface OpusProbe {
  levelDb: number;
  hz: number;
  /** The spread between the quartile periods, in samples: a fraction of a sample for a tone, many for noise. */
  periodSpread: number;
}

/**
 * What an observer at the relay gets by decoding a sender's payloads as one Opus stream, in order, with one decoder
 * (as a listener would, so the codec's state carries from frame to frame): for each payload, null when the decoder
 * refuses it, else the decoded frame's level (dBFS) and, from its upward zero crossings, its frequency (one over the
 * median period) and period spread.
 */
export function decodeOpusStream(payloads: Buffer[]): Array<OpusProbe | null> {
  const decoder = new OpusScript(SAMPLE_RATE, 2);
  try {
    return payloads.map((payload) => {
      // The SDK sends 20 ms frames: a payload whose table of contents says otherwise is no frame of the tone. (It is
      // also kept from the decoder, whose WebAssembly build writes past its 60 ms output buffer on longer packets.)
      if (opusPacketMs(payload) !== 20) return null;
      let pcm: Buffer;
      try {
        pcm = decoder.decode(payload);
      } catch {
        return null; // "Invalid packet" and the like: not an Opus frame at all
      }
      const left = new Int16Array(pcm.length / 4);
      for (let i = 0; i < left.length; i++) left[i] = pcm.readInt16LE(i * 4);
      const periods: number[] = [];
      let last: number | undefined;
      for (let i = 1; i < left.length; i++) {
        if (left[i - 1]! < 0 && left[i]! >= 0) {
          const at = i - 1 + left[i - 1]! / (left[i - 1]! - left[i]!);
          if (last !== undefined) periods.push(at - last);
          last = at;
        }
      }
      const sorted = [...periods].sort((x, y) => x - y);
      const quartile = (q: number) => sorted[Math.floor(q * (sorted.length - 1))] ?? 0;
      const period = median(periods);
      return {
        levelDb: windowLevels(left, (left.length * 1000) / SAMPLE_RATE)[0] ?? -100,
        hz: period > 0 ? SAMPLE_RATE / period : 0,
        periodSpread: sorted.length >= 4 ? quartile(0.75) - quartile(0.25) : Infinity,
      };
    });
  } finally {
    decoder.delete();
  }
}

/**
 * The duration an Opus packet declares in its table of contents (RFC 6716 §3.1): the frame size of its configuration
 * (SILK 10/20/40/60 ms, hybrid 10/20 ms, CELT 2.5/5/10/20 ms) times its frame count (code 0: one, 1 and 2: two, 3: the
 * count byte's low 6 bits). 0 for an empty packet.
 */
export function opusPacketMs(packet: Buffer): number {
  if (packet.length === 0) return 0;
  const config = packet[0]! >> 3;
  const frameMs =
    config < 12 ? [10, 20, 40, 60][config % 4]! : config < 16 ? [10, 20][config % 2]! : [2.5, 5, 10, 20][config % 4]!;
  const code = packet[0]! & 3;
  const frames = code === 0 ? 1 : code < 3 ? 2 : packet.length > 1 ? packet[1]! & 0x3f : 0;
  return frameMs * frames;
}

/**
 * Whether a probed frame is the tone at `hz`: audible (above -40 dBFS), at least four steady periods (quartile spread
 * under one sample) and within 2 % of the frequency. Decoded noise is neither steady nor on frequency.
 */
export const probeYieldsTone = (probe: OpusProbe | null, hz: number): boolean =>
  !!probe && probe.levelDb > -40 && probe.periodSpread < 1 && Math.abs(probe.hz - hz) < hz * 0.02;

/** `count` consecutive 20 ms Opus frames of a stereo sine at `hz` (amplitude 0.5), encoded independently of the SDK. */
export function opusToneFrames(hz: number, count: number): Buffer[] {
  const encoder = new OpusScript(SAMPLE_RATE, 2, OpusScript.Application.VOIP);
  encoder.setBitrate(64_000); // about what the SDK sends (its frames cross the relay at ~160 bytes)
  try {
    const frameSamples = SAMPLE_RATE / 50;
    const frames: Buffer[] = [];
    for (let f = 0; f < count; f++) {
      const pcm = Buffer.alloc(frameSamples * 4);
      for (let i = 0; i < frameSamples; i++) {
        const v = Math.round(Math.sin((2 * Math.PI * hz * (f * frameSamples + i)) / SAMPLE_RATE) * 16384);
        pcm.writeInt16LE(v, i * 4);
        pcm.writeInt16LE(v, i * 4 + 2);
      }
      frames.push(Buffer.from(encoder.encode(pcm, frameSamples)));
    }
    return frames;
  } finally {
    encoder.delete();
  }
}
