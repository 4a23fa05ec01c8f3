/**
 * A platform restart, on both backends: the platform's gateway sessions live in its memory, so after a restart a
 * client cannot resume and identifies afresh. What happened in between was never dispatched to it; the SDK must not
 * hide that. Two players in a lobby; the platform restarts on the same port and database (keeping its TLS
 * certificate, so the clients' CA still verifies it); while they are away the game server changes the lobby.
 * Each client fires 'missedEvents' once, before Ready, with its caches rebuilt: the lobby shows the change made in
 * the gap, and a message cached before the restart is gone from the cache but comes back with the history. The lobby
 * messages sent in the gap are then caught up on: each reaches 'messageCreated' once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { ClientStatus } from '../../lib/index.js';
import { BACKENDS } from '../backends.js';
import { connectPlayer } from './chat-support.js';
import { startE2EPlatform, type E2EPlatform } from './harness.js';
import { request } from '../../platform/test/support/http.js';
import { e2eClient, sleep, until } from './support.js';

describe.each(BACKENDS)('a platform restart over %s', (backend) => {
  it('tells each client that events were missed, after rebuilding its caches from the new session', async () => {
    // Everything the test starts is stopped when it ends, pass or fail (last registered, first run: the clients, then
    // whichever platform is running, then the directory).
    const dir = mkdtempSync(join(tmpdir(), 'svcpp-restart-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    let e2e: E2EPlatform | undefined;
    onTestFinished(async () => {
      await e2e?.close();
    });
    // The database (and so the certificate) in a file, so that a second start on the same port picks it up.
    const database = join(dir, 'platform.db');
    const first = await startE2EPlatform({ database });
    e2e = first;
    const token = async (externalUserId: string) =>
      (await first.server.createProvisionalToken({ externalUserId })).accessToken;
    const ada = await connectPlayer(e2eClient(first, backend), await token(`ada-restart-${backend}`));
    onTestFinished(() => ada.client.close());
    const bob = await connectPlayer(e2eClient(first, backend), await token(`bob-restart-${backend}`));
    onTestFinished(() => bob.client.close());
    const lobbyId = await ada.client.createOrJoinLobby(`restart-${backend}`, { lobbyMetadata: { round: '1' } });
    expect(await bob.client.createOrJoinLobby(`restart-${backend}`)).toBe(lobbyId);
    const before = await ada.client.sendLobbyMessage(lobbyId, 'before the restart');
    await until(() => bob.client.getMessage(before) !== undefined, 'Bob caches the message');

    const trace: Record<string, string[]> = { ada: [], bob: [] };
    const created: Record<string, string[]> = { ada: [], bob: [] };
    for (const [name, player] of [
      ['ada', ada],
      ['bob', bob],
    ] as const) {
      player.client.on('missedEvents', () => trace[name]!.push('missedEvents'));
      player.client.on('statusChanged', (status) => trace[name]!.push(ClientStatus[status]));
      player.client.on('messageCreated', (id) =>
        created[name]!.push(player.client.getMessage(id)?.content ?? `uncached ${id}`),
      );
    }

    const { port } = new URL(first.webBase);
    await first.close();
    e2e = undefined;
    const second = await startE2EPlatform({ database, port: Number(port) });
    e2e = second;
    expect(second.caPem).toBe(first.caPem); // the certificate is kept with the database
    // While the clients are still away (their first retry waits about a second), the game server changes the lobby.
    await second.server.updateLobby(lobbyId.toString(), { metadata: { round: '2' } });
    // …and its bot posts in the lobby chat, which no session of the clients hears.
    const gapMessages = ['in the gap 1', 'in the gap 2', 'in the gap 3'];
    for (const content of gapMessages) {
      const sent = await request(`${second.apiBase}/lobbies/${lobbyId}/messages`, {
        ca: second.caPem,
        headers: { authorization: `Bot ${second.platform.devApp.botToken}` },
        json: { content },
      });
      expect(sent.status).toBe(201);
    }

    for (const [name, player] of [
      ['ada', ada],
      ['bob', bob],
    ] as const) {
      await until(() => trace[name]!.includes('Ready'), `${name} is Ready again`, 30_000);
      // Told once, after the caches were rebuilt and before Ready.
      expect(trace[name]!.filter((e) => e === 'missedEvents')).toHaveLength(1);
      expect(trace[name]!.indexOf('missedEvents')).toBeLessThan(trace[name]!.indexOf('Ready'));
      expect(player.client.getLobby(lobbyId)?.metadata).toEqual({ round: '2' });
    }
    // The gap's lobby messages are caught up on after Ready, oldest first, each once; one sent afterwards comes live,
    // once. (The old session's own 'before the restart' may still be on its way to a handler added after it was sent:
    // once at most.)
    const sinceRestart = (name: 'ada' | 'bob') => created[name]!.filter((content) => content !== 'before the restart');
    for (const name of ['ada', 'bob'] as const)
      await until(() => sinceRestart(name).length >= gapMessages.length, `${name} catches up on the lobby chat`);
    await ada.client.sendLobbyMessage(lobbyId, 'after the restart');
    for (const name of ['ada', 'bob'] as const)
      await until(() => created[name]!.includes('after the restart'), `${name} gets the live message`);
    await sleep(200); // a duplicate would come right behind
    for (const name of ['ada', 'bob'] as const) {
      expect(sinceRestart(name)).toEqual([...gapMessages, 'after the restart']);
      expect(created[name]!.length - sinceRestart(name).length).toBeLessThanOrEqual(1);
    }
    expect(bob.client.getMessage(before)).toBeUndefined(); // the cache of the old session is gone…
    const history = await bob.client.getLobbyMessages(lobbyId, 10); // …and the history brings it back
    expect(history.map((m) => m.content)).toContain('before the restart');
  });
});
