// WAV files for the SDK's file audio device, shared by the demo, the voice end-to-end tests and the voice latency
// benchmark: 48 kHz, stereo, 16-bit PCM — the format the file device reads as a microphone and writes as a speaker
// (docs/voice.md "Devices").
import { writeFileSync } from 'node:fs';

export const WAV_SAMPLE_RATE = 48_000;

/** `frames` stereo frames, both channels `sample(i)` (−1..1 of full scale), as interleaved 16-bit little-endian PCM. */
export function stereoPcm(frames: number, sample: (frame: number) => number): Buffer {
  const data = Buffer.alloc(frames * 4);
  for (let i = 0; i < frames; i++) {
    const v = Math.round(sample(i) * 32767);
    data.writeInt16LE(v, i * 4);
    data.writeInt16LE(v, i * 4 + 2);
  }
  return data;
}

/** Writes interleaved stereo 16-bit PCM at 48 kHz as a WAV file (a 44-byte RIFF header, then the data). */
export function writeStereoWav(path: string, data: Buffer): void {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16); // fmt chunk size
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(2, 22); // stereo
  header.writeUInt32LE(WAV_SAMPLE_RATE, 24);
  header.writeUInt32LE(WAV_SAMPLE_RATE * 4, 28); // bytes per second
  header.writeUInt16LE(4, 32); // bytes per frame
  header.writeUInt16LE(16, 34); // bits per sample
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(data.length, 40);
  writeFileSync(path, Buffer.concat([header, data]));
}
