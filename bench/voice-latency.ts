// Mouth-to-ear latency of a lobby voice call on loopback: two SDK clients (N-API) in one call against the real
// platform (its own process, TLS, UDP relay). A's microphone is a WAV file (the file device) of silence with a
// 30 ms 1 kHz marker every second; B's speakers are a WAV file. Latency of a marker = when it starts in B's recording
// minus when it starts in A's file, both on the wall clock: each file's sample 0 is when that client's audio engine
// started, taken as the moment its call reported Connected (the status event reaches JavaScript through the pump,
// a few ms late on both sides, so the error largely cancels). The file devices keep the wall clock's time even when
// the audio thread is descheduled (the engine's clock hands it the missed 10 ms ticks back to back, up to 0.5 s
// behind), so sample n of either file is at origin + n / 48 kHz. When the clock skipped every missed tick instead,
// a loaded machine made the two files drift apart by the ticks each engine skipped, and markers fell outside the
// match window (11 of 20 heard). Covers capture framing (10 ms), Opus framing (20 ms),
// encode, encrypt, UDP to the relay and back out, decrypt, the adaptive jitter buffer (≥ 20 ms), decode and mix.
// Prints figures; asserts nothing. Measured while other work loads the machine, figures are indicative.
//   node --import tsx bench/voice-latency.ts [--smoke]     (--smoke: 3 markers)
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CallStatus, Client, SvcppServer, type Call } from '../lib/index.js';
import { stereoPcm, writeStereoWav } from '../tools/wav.js';
import { startPlatformProcess } from './support/platform-process.js';

const smoke = process.argv.includes('--smoke');
const MARKERS = smoke ? 3 : 20;
const RATE = 48_000;
const FIRST_MARKER_MS = 1500;
const MARKER_EVERY_MS = 1000;
const MARKER_MS = 30;

/** The microphone: a 30 ms 1 kHz marker every second; returns each marker's onset in ms. */
function writeMarkerWav(path: string): number[] {
  const totalMs = FIRST_MARKER_MS + MARKERS * MARKER_EVERY_MS + 500;
  const starts = Array.from({ length: MARKERS }, (_, m) =>
    Math.round(((FIRST_MARKER_MS + m * MARKER_EVERY_MS) * RATE) / 1000),
  );
  const markerFrames = (MARKER_MS * RATE) / 1000;
  const inMarker = (i: number) => starts.some((start) => i >= start && i < start + markerFrames);
  writeStereoWav(
    path,
    stereoPcm(Math.round((totalMs * RATE) / 1000), (i) =>
      inMarker(i) ? Math.sin((2 * Math.PI * 1000 * i) / RATE) * 0.5 : 0,
    ),
  );
  return starts.map((start) => (start * 1000) / RATE);
}

/**
 * Marker onsets (ms from sample 0) in a 16-bit stereo WAV: the first sample above 10 % of full scale after a quiet gap.
 */
function onsetsIn(path: string): number[] {
  const file = readFileSync(path);
  const dataAt = file.indexOf('data', 12, 'ascii');
  const frames = Math.floor((file.length - dataAt - 8) / 4);
  const onsets: number[] = [];
  let lastLoud = -Infinity;
  for (let i = 0; i < frames; i++) {
    const v = Math.abs(file.readInt16LE(dataAt + 8 + i * 4));
    if (v < 3277) continue;
    if (i - lastLoud > RATE / 2) onsets.push((i * 1000) / RATE);
    lastLoud = i;
  }
  return onsets;
}

async function connected(call: Call): Promise<number> {
  await call.waitForStatus(CallStatus.Connected);
  return performance.now();
}

const platform = await startPlatformProcess({ tls: true });
const dir = mkdtempSync(join(tmpdir(), 'svcpp-voice-latency-'));
try {
  const server = new SvcppServer({
    apiBase: platform.apiBase,
    botToken: platform.devApp.botToken,
    applicationId: platform.devApp.id,
    ca: readFileSync(platform.caFile!, 'utf8'),
  });
  const clients: Client[] = [];
  for (const name of ['mouth', 'ear']) {
    const client = new Client({
      backend: 'napi',
      apiBase: platform.apiBase,
      webBase: platform.httpUrl,
      caFile: platform.caFile!,
    });
    await client.updateToken(
      (await server.createProvisionalToken({ externalUserId: `latency-${name}-${process.pid}` })).accessToken,
    );
    await client.connect();
    for (const off of ['setNoiseSuppression', 'setAutomaticGainControl', 'setEchoCancellation'] as const)
      client.voice[off](false);
    clients.push(client);
  }
  const [mouth, ear] = clients as [Client, Client];
  const secret = `voice-latency-${process.pid}`;
  const lobbyId = await mouth.createOrJoinLobby(secret);
  await ear.createOrJoinLobby(secret);
  const sent = writeMarkerWav(join(dir, 'markers.wav'));
  await mouth.voice.setInputDevice(`file:${join(dir, 'markers.wav')}`);
  await ear.voice.setInputDevice('null');
  await ear.voice.setOutputDevice(`file:${join(dir, 'heard.wav')}`);
  const earCall = ear.startCall(lobbyId);
  const earStart = await connected(earCall);
  const mouthCall = mouth.startCall(lobbyId);
  mouthCall.setVadThreshold(false, -50);
  const mouthStart = await connected(mouthCall);
  await new Promise((resolve) => setTimeout(resolve, FIRST_MARKER_MS + MARKERS * MARKER_EVERY_MS + 1000));
  await ear.voice.endCall(lobbyId);
  await mouth.voice.endCall(lobbyId);
  const heard = onsetsIn(join(dir, 'heard.wav')).map((ms) => ms + earStart);
  const latencies: number[] = [];
  for (const onset of sent.map((ms) => ms + mouthStart)) {
    const match = heard.find((h) => h >= onset - 5 && h < onset + MARKER_EVERY_MS / 2);
    if (match !== undefined) latencies.push(match - onset);
  }
  latencies.sort((a, b) => a - b);
  const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]!;
  console.log(
    'voice mouth-to-ear latency, loopback, file device in → file device out ' +
      `(${latencies.length}/${MARKERS} markers heard; ${heard.length} onsets in the recording)`,
  );
  if (latencies.length) {
    console.log(
      `  median ${at(0.5).toFixed(1)} ms   p90 ${at(0.9).toFixed(1)} ms   ` +
        `min ${latencies[0]!.toFixed(1)} ms   max ${latencies.at(-1)!.toFixed(1)} ms`,
    );
  }
  console.log(
    "  (each side's origin is its Connected event in JavaScript: ± a few ms; figures indicative on a shared machine)",
  );
  for (const client of clients) await client.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
  await platform.close();
}
