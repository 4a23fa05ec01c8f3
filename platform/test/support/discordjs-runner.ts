/**
 * Runs unmodified @discordjs/voice clients (support/discordjs-peer.ts) in child processes against a TLS platform:
 * the library always connects with wss:// and takes no TLS options, so each process trusts the platform's
 * certificate through NODE_EXTRA_CA_CERTS, read at process start.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { StartOptions } from '../../src/index.js';
import { trustCaByDefault } from './http.js';
import { startTestPlatform, tempDir } from './platform.js';
import { startVoiceHarness, type VoiceHarness } from './voice-harness.js';

/** A TLS platform whose certificate the helpers trust; returns the certificate's file for the peer processes. */
export async function tlsVoiceHarness(options: StartOptions = {}): Promise<{ harness: VoiceHarness; caFile: string }> {
  const dir = tempDir();
  const database = join(dir, 'voice-tls.db');
  const first = await startTestPlatform({ database, tls: true });
  const ca = first.caCertPem!;
  await first.close();
  trustCaByDefault(ca);
  const caFile = join(dir, 'ca.pem');
  writeFileSync(caFile, ca);
  return { harness: await startVoiceHarness({ ...options, database, tls: true }), caFile };
}

export type PeerEvent = { event: string; [key: string]: unknown };

export interface LibraryPeer {
  /** The next event, in order. */
  next(): Promise<PeerEvent>;
  /** Skips events until one matches (the skipped ones are gone). */
  nextWhere(match: (e: PeerEvent) => boolean): Promise<PeerEvent>;
  send(line: string): void;
  readonly process: ChildProcess;
}

/** Starts the library in its own process; config: {gatewayUrl, token, userId, lobbyId, listenTo}. */
export function startLibraryPeer(caFile: string, config: Record<string, string>): LibraryPeer {
  const script = fileURLToPath(new URL('./discordjs-peer.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    env: { ...process.env, NODE_EXTRA_CA_CERTS: caFile, PEER_CONFIG: JSON.stringify(config) },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const next = async (): Promise<PeerEvent> => {
    const line = await lines.next();
    if (line.done) throw new Error('the peer process ended');
    return JSON.parse(line.value) as PeerEvent;
  };
  return {
    next,
    async nextWhere(match) {
      for (;;) {
        const event = await next();
        if (match(event)) return event;
      }
    },
    send: (line) => void child.stdin!.write(`${line}\n`),
    process: child,
  };
}
