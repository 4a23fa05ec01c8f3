/**
 * A platform restart, on both backends: the platform's gateway sessions live in its memory, so after a restart a
 * client cannot resume and identifies afresh. What happened in between was never dispatched to it; the SDK must not
 * hide that. Two players in a lobby; the platform restarts on the same port and database (keeping its TLS
 * certificate, so the clients' CA still verifies it); while they are away the game server changes the lobby.
 * Each client fires 'missedEvents' once, before Ready, with its caches rebuilt: the lobby shows the change made in
 * the gap, and a message cached before the restart is gone from the cache but comes back with the history.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientStatus } from '../../lib/index.js';
import { SvcppServer } from '../../lib/server.js';
import { DEFAULT_RATE_LIMITS, startPlatform, type RunningPlatform } from '../../platform/src/index.js';
import { BACKENDS } from '../backends.js';
import { connectPlayer, type Player } from './chat-support.js';
import { e2eClient, until } from './support.js';
import type { E2EPlatform } from './harness.js';

/** The platform over TLS on `port` (0: ephemeral) with its database (and so its certificate) in `dir`. */
async function startOn(dir: string, port: number): Promise<RunningPlatform> {
  return startPlatform({
    port,
    database: join(dir, 'platform.db'),
    logger: false,
    tls: true,
    rateLimits: Object.fromEntries(Object.keys(DEFAULT_RATE_LIMITS).map((bucket) => [bucket, { limit: 1_000_000, windowSeconds: 1 }])),
  });
}

function e2eOf(platform: RunningPlatform, dir: string): E2EPlatform {
  const caFile = join(dir, 'ca.pem');
  writeFileSync(caFile, platform.caCertPem!);
  return {
    platform,
    caFile,
    caPem: platform.caCertPem!,
    apiBase: platform.apiBase,
    webBase: platform.httpUrl,
    server: new SvcppServer({ apiBase: platform.apiBase, botToken: platform.devApp.botToken, applicationId: platform.devApp.id, ca: platform.caCertPem! }),
    close: () => platform.close(),
  };
}

describe.each(BACKENDS)('a platform restart over %s', (backend) => {
  let dir: string;
  let platform: RunningPlatform;
  let ada: Player | undefined;
  let bob: Player | undefined;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'svcpp-restart-'));
  });
  afterAll(async () => {
    await ada?.client.close();
    await bob?.client.close();
    await platform?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('tells each client that events were missed, after rebuilding its caches from the new session', async () => {
    platform = await startOn(dir, 0);
    const e2e = e2eOf(platform, dir);
    const token = async (externalUserId: string) => (await e2e.server.createProvisionalToken({ externalUserId })).accessToken;
    ada = await connectPlayer(e2eClient(e2e, backend), await token(`ada-restart-${backend}`));
    bob = await connectPlayer(e2eClient(e2e, backend), await token(`bob-restart-${backend}`));
    const lobbyId = await ada.client.createOrJoinLobby(`restart-${backend}`, { lobbyMetadata: { round: '1' } });
    expect(await bob.client.createOrJoinLobby(`restart-${backend}`)).toBe(lobbyId);
    const before = await ada.client.sendLobbyMessage(lobbyId, 'before the restart');
    await until(() => bob!.client.getMessage(before) !== undefined, 'Bob caches the message');

    const trace: Record<string, string[]> = { ada: [], bob: [] };
    for (const [name, player] of [['ada', ada], ['bob', bob]] as const) {
      player.client.on('missedEvents', () => trace[name]!.push('missedEvents'));
      player.client.on('statusChanged', (status) => trace[name]!.push(ClientStatus[status]));
    }

    const { port } = new URL(platform.httpUrl);
    const caPem = platform.caCertPem;
    await platform.close();
    platform = await startOn(dir, Number(port));
    expect(platform.caCertPem).toBe(caPem);  // the certificate is kept with the database
    // While the clients are still away (their first retry waits about a second), the game server changes the lobby.
    await e2eOf(platform, dir).server.updateLobby(lobbyId.toString(), { metadata: { round: '2' } });

    for (const [name, player] of [['ada', ada], ['bob', bob]] as const) {
      await until(() => trace[name]!.includes('Ready'), `${name} is Ready again`, 30_000);
      // Told once, after the caches were rebuilt and before Ready.
      expect(trace[name]!.filter((e) => e === 'missedEvents')).toHaveLength(1);
      expect(trace[name]!.indexOf('missedEvents')).toBeLessThan(trace[name]!.indexOf('Ready'));
      expect(player.client.getLobby(lobbyId)?.metadata).toEqual({ round: '2' });
    }
    expect(bob.client.getMessage(before)).toBeUndefined();  // the cache of the old session is gone…
    const history = await bob.client.getLobbyMessages(lobbyId, 10);  // …and the history brings it back
    expect(history.map((m) => m.content)).toContain('before the restart');
  });
});
