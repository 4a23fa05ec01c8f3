/**
 * Child process of lobby-fanout.ts's one-client-per-process variant (the real shape of a game: one client per
 * process): one lobby member — an SDK Client (napi or koffi) or the pure-TS baseline — that joins the lobby and
 * reports, over IPC, each message content with the time its handler saw it on the system-wide monotonic clock
 * (support/monotonic-clock.ts), which the parent subtracts its send time from. An SDK member reads the message from the
 * snapshot its messageCreated event carries, as the baseline reads the frame's `d`.
 */
import { readFileSync } from 'node:fs';
import { Client } from '../../lib/index.js';
import { BaselineGatewayClient } from '../baseline/gateway-client.js';
import { BaselineRestClient } from '../baseline/rest-client.js';
import { monotonicMs } from './monotonic-clock.js';

export interface MemberConfig {
  kind: 'napi' | 'koffi' | 'baseline';
  apiBase: string;
  httpUrl: string;
  gatewayUrl: string;
  caFile: string;
  token: string;
  secret: string;
}
export type MemberMessage = { type: 'ready' } | { type: 'received'; content: string; at: number };

const report = (message: MemberMessage) => process.send!(message);

async function start(config: MemberConfig): Promise<() => Promise<void>> {
  if (config.kind === 'baseline') {
    const ca = readFileSync(config.caFile, 'utf8');
    const socket = new BaselineGatewayClient({
      gatewayUrl: config.gatewayUrl,
      token: config.token,
      ca,
      onDispatch: (t, d) => {
        if (t === 'LOBBY_MESSAGE_CREATE')
          report({ type: 'received', content: (d as { content: string }).content, at: monotonicMs() });
      },
    });
    await socket.ready;
    const rest = new BaselineRestClient(config.apiBase, config.token, ca);
    await rest.request('PUT', 'lobbies', { secret: config.secret });
    return async () => {
      rest.close();
      socket.close();
      await socket.closed;
    };
  }
  const client = new Client({
    backend: config.kind,
    apiBase: config.apiBase,
    webBase: config.httpUrl,
    caFile: config.caFile,
  });
  await client.updateToken(config.token);
  await client.connect();
  await client.createOrJoinLobby(config.secret);
  client.on('messageCreated', (_messageId, message) => {
    if (message) report({ type: 'received', content: message.content, at: monotonicMs() });
  });
  return () => client.close();
}

process.once('message', (config: MemberConfig) => {
  start(config).then(
    (stop) => {
      process.once('disconnect', () => void stop().finally(() => process.exit(0)));
      report({ type: 'ready' });
    },
    (error: unknown) => {
      console.error('fanout member failed:', error);
      process.exit(1);
    },
  );
});
