/**
 * The voice rules that need a live call, at the C ABI: native/tests/capi/live/voice_call_rules.c (a C99 program on
 * libsvcpp.so alone) against the real platform over TLS. A TypeScript player sets the scene — a lobby whose call it
 * is in, self-muted, and a second lobby the C program's user is not a member of — then the program checks each
 * rule itself (its header lists them) and prints "voice call rules: ok".
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

const run = promisify(execFile);
const program = join(import.meta.dirname, '../../build/Release/capi_live_voice_call_rules');

describe('C ABI: voice rules on a live call', () => {
  let e2e: E2EPlatform;
  let other: Player;

  beforeAll(async () => {
    e2e = await startE2EPlatform();
    other = await connectProvisionalPlayer(e2e, 'napi', 'Other');
    await other.client.voice.setInputDevice('null');
    await other.client.voice.setOutputDevice('null');
  });
  afterAll(async () => {
    await other?.client.close();
    await e2e?.close();
  });

  it('is built by the native build', () => {
    expect(existsSync(program)).toBe(true);
  });

  it('every rule holds: call info, not a member, second StartCall, out-of-range setters, ended and dropped handles', async () => {
    const secret = `capi-voice-rules-${Date.now()}`;
    const lobbyId = await other.client.createOrJoinLobby(secret);
    const strangerLobby = await other.client.createOrJoinLobby(`${secret}-elsewhere`);
    const call = other.client.startCall(lobbyId);
    call.selfMute = true;
    await call.waitForStatus(CallStatus.Connected);
    await until(
      () =>
        other.client.getLobby(lobbyId)?.call?.participants.some((p) => p.userId === other.id && p.selfMute) === true,
      'the other player is in the call, self-muted',
    );

    const token = await provisionalToken(e2e, `capi-voice-rules-${Date.now()}`, 'Capi Voice');
    const { stdout, stderr } = await run(
      program,
      [
        e2e.apiBase,
        e2e.webBase,
        e2e.caFile,
        e2e.platform.devApp.id,
        token,
        secret,
        other.id.toString(),
        strangerLobby.toString(),
      ],
      { timeout: 90_000 },
    ).catch((error: { stdout?: string; stderr?: string }) => {
      throw new Error(`voice_call_rules failed:\n${error.stderr ?? ''}${error.stdout ?? ''}`);
    });
    expect(stdout).toBe('voice call rules: ok\n');
    expect(stderr).not.toContain(token);
    // The program's rejected calls changed nothing for the others: the call still has exactly the other player.
    expect(call.status).toBe(CallStatus.Connected);
    await until(() => call.participants.length === 1, 'the program left the call');
    await other.client.voice.endCall(lobbyId);
  });
});
