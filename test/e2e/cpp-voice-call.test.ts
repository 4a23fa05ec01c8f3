/**
 * The C++ voice example (native/tests/examples/voice_call.cpp, svcpp.hpp only) against the real platform over TLS:
 * it joins a lobby's call and plays a WAV file (a 440 Hz tone) into it; a TypeScript listener in the same call
 * records what it hears to a WAV file, whose frequency must be the tone's.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallStatus } from '../../lib/index.js';
import { connectProvisionalPlayer } from './chat-support.js';
import type { Player } from './player.js';
import { provisionalToken, startE2EPlatform, type E2EPlatform } from './harness.js';
import { until } from './support.js';
import { dominantFrequency, readWavLeft, voiceTempDir, writeToneWav } from './voice-support.js';

const run = promisify(execFile);
const example = join(import.meta.dirname, '../../build/Release/svcpp_example_voice_call');

describe('C++ example: a voice call through svcpp.hpp', () => {
  let e2e: E2EPlatform;
  let listener: Player;
  const dir = voiceTempDir();

  beforeAll(async () => {
    e2e = await startE2EPlatform();
    listener = await connectProvisionalPlayer(e2e, 'napi', 'Listener');
    listener.client.voice.setNoiseSuppression(false);
    listener.client.voice.setAutomaticGainControl(false);
  });
  afterAll(async () => {
    await listener?.client.close();
    await e2e?.close();
  });

  it('is built by the native build', () => {
    expect(existsSync(example)).toBe(true);
  });

  it('joins a call and plays a WAV into it; the listener hears the tone', async () => {
    const secret = 'cpp-voice-example';
    const lobbyId = await listener.client.createOrJoinLobby(secret);
    const heard = join(dir, 'heard.wav');
    await listener.client.voice.setInputDevice('null');
    await listener.client.voice.setOutputDevice(`file:${heard}`);
    const call = listener.client.startCall(lobbyId);
    await call.waitForStatus(CallStatus.Connected);
    // The privacy codes the listener shows while the example is in the call (with it alone, there is no group).
    const listenerCodes = new Set<string>();
    call.on('encryptionStateChanged', () => listenerCodes.add(call.privacyCode));

    const tone = join(dir, 'tone.wav');
    writeToneWav(tone, 440, 2);
    const token = await provisionalToken(e2e, 'cpp-voice-player', 'Cpp Voice');
    const { stdout, stderr } = await run(
      example,
      [e2e.apiBase, e2e.webBase, e2e.caFile, e2e.platform.devApp.id, token, secret, tone, '3'],
      { timeout: 60_000 },
    );
    expect(stdout).toMatch(new RegExp(`^connected ${lobbyId}\\nspeaking\\nquiet\\nencryption .*\\nended \\d+\\n$`));
    // The encryption state through svcpp.hpp (svcpp addition): DAVE 1, an epoch, and the privacy code the listener
    // showed too, reached through encryption-state events.
    const encryption = /encryption dave (\d+) epoch (\d+) code (\d*) changes (\d+)/.exec(stdout)!;
    expect(Number(encryption[1])).toBe(1);
    expect(BigInt(encryption[2]!)).toBeGreaterThanOrEqual(1n);
    expect(encryption[3]).toMatch(/^\d{30}$/);
    expect(Number(encryption[4])).toBeGreaterThanOrEqual(1);
    expect([...listenerCodes]).toContain(encryption[3]);
    // The captured-audio callback saw the microphone every 10 ms while in the call (about 300 frames in 3 s).
    const frames = Number(/ended (\d+)/.exec(stdout)![1]);
    expect(frames).toBeGreaterThan(200);
    expect(stderr).not.toContain(token);
    await until(() => call.participants.length === 1, 'the example left the call');
    await listener.client.voice.endCall(lobbyId);
    const { hz, loudMs } = dominantFrequency(readWavLeft(heard));
    expect(loudMs).toBeGreaterThanOrEqual(1500);
    expect(Math.abs(hz - 440)).toBeLessThan(10);
  });
});
