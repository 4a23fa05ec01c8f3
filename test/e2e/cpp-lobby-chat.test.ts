/**
 * The C++ lobby chat example (native/tests/examples/lobby_chat.cpp, svcpp.hpp only) against the real platform over
 * TLS: a provisional player creates a lobby by secret, posts a message with metadata and reads it back.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provisionalToken, startE2EPlatform, type E2EPlatform } from './harness.js';

const run = promisify(execFile);
const example = join(import.meta.dirname, '../../build/Release/svcpp_example_lobby_chat');

describe('C++ example: lobby chat through svcpp.hpp', () => {
  let e2e: E2EPlatform;
  beforeAll(async () => {
    e2e = await startE2EPlatform();
  });
  afterAll(async () => {
    await e2e.close();
  });

  it('creates a lobby, sends a message with metadata and reads it back', async () => {
    const token = await provisionalToken(e2e, 'cpp-chat-player', 'Chat Player');
    const args = [
      e2e.apiBase,
      e2e.webBase,
      e2e.caFile,
      e2e.platform.devApp.id,
      token,
      'cpp-example-lobby',
      'gg from C++ ✓',
    ];
    const { stdout, stderr } = await run(example, args, { timeout: 30_000 });
    const [lobby, sent, read] = stdout.trimEnd().split('\n');
    expect(lobby).toMatch(/^lobby \d+$/);
    const sentId = /^sent (\d+)$/.exec(sent!)?.[1];
    expect(sentId).toBeDefined();
    expect(read).toMatch(new RegExp(`^read ${sentId} \\d+ example gg from C\\+\\+ ✓$`));
    expect(stderr).not.toContain(token);

    // The lobby exists on the platform with the player as its one member.
    const lobbyId = lobby!.split(' ')[1]!;
    const onPlatform = await e2e.server.getLobby(lobbyId);
    expect(onPlatform.members.map((m) => m.userId)).toEqual([BigInt(read!.split(' ')[2]!)]);
  });
});
