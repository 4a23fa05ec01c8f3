// The demo's voice call: two players of the same game in a lobby's call against the embedded platform. The speaker's
// microphone is a WAV file with a generated tone (the SDK's file device), the listener's speakers a WAV file that
// records what it hears; the demo then reads the recording back and tells its pitch.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CallStatus, type Client } from '../lib/index.js';
import { stereoPcm, writeStereoWav } from '../tools/wav.js';

const RATE = 48_000;

/** A 48 kHz stereo 16-bit WAV of `seconds` of a sine at `hz`. */
function writeTone(path: string, hz: number, seconds: number): void {
  writeStereoWav(
    path,
    stereoPcm(RATE * seconds, (i) => Math.sin((2 * Math.PI * hz * i) / RATE) * 0.4),
  );
}

/**
 * Seconds of sound in a recording and its pitch: upward zero crossings of the left channel in its loud 100 ms windows
 * (the first and last loud window, where the tone starts or stops mid-window, do not count for the pitch).
 */
function describeRecording(path: string): { seconds: number; hz: number } {
  const file = readFileSync(path);
  const at = file.indexOf('data', 12, 'ascii') + 8;
  const window = RATE / 10;
  const windows = Math.floor((file.length - at) / 4 / window);
  const loud: number[] = []; // crossings per loud window
  for (let w = 0; w < windows; w++) {
    let energy = 0,
      count = 0,
      previous = 0;
    for (let i = w * window; i < (w + 1) * window; i++) {
      const v = file.readInt16LE(at + i * 4);
      energy += v * v;
      if (previous < 0 && v >= 0) count++;
      previous = v;
    }
    if (Math.sqrt(energy / window) < 1000) continue; // quieter than −30 dBFS: silence between or around the tone
    loud.push(count);
  }
  const inner = loud.slice(1, -1);
  const hz = inner.length ? Math.round(inner.reduce((a, b) => a + b, 0) / (inner.length / 10)) : 0;
  return { seconds: loud.length / 10, hz };
}

export async function demoCall(
  speaker: Client,
  listener: Client,
  dir: string,
  say: (line: string) => void,
): Promise<void> {
  const secret = 'demo-voice-lobby';
  const lobbyId = await speaker.createOrJoinLobby(secret);
  await listener.createOrJoinLobby(secret);
  const tone = join(dir, 'tone-440hz.wav');
  const heard = join(dir, 'heard.wav');
  writeTone(tone, 440, 2);
  for (const client of [speaker, listener]) client.voice.setNoiseSuppression(false); // a steady tone is not noise
  await speaker.voice.setInputDevice(`file:${tone}`);
  await listener.voice.setInputDevice('null');
  await listener.voice.setOutputDevice(`file:${heard}`);
  say(`lobby ${lobbyId}: the speaker's microphone is file:${tone}, the listener records to file:${heard}`);

  const listening = listener.startCall(lobbyId);
  const statuses: string[] = [];
  listening.on('statusChanged', (status) => statuses.push(CallStatus[status]));
  await listening.waitForStatus(CallStatus.Connected);
  say(`listener's call: ${statuses.join(' -> ')}`);
  const spoken = new Promise<void>((resolve) =>
    listening.on('speakingChanged', (_user, on) => {
      if (!on) resolve();
    }),
  );
  const speaking = speaker.startCall(lobbyId);
  speaking.setVadThreshold(false, -50);
  await speaking.waitForStatus(CallStatus.Connected);
  say(`both in the call: participants ${listening.participants.join(', ')}`);
  await spoken;
  say('the listener saw the speaker start and stop talking (speakingChanged)');
  await speaker.voice.endCall(lobbyId);
  await listener.voice.endCall(lobbyId);
  const { seconds, hz } = describeRecording(heard);
  say(
    `the recording holds ${seconds.toFixed(1)} s of a tone of about ${hz} Hz (sent: 2 s at 440 Hz): Opus over UDP through the platform's relay`,
  );
}
