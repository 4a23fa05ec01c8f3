// Lobby message fan-out against the real platform (its own process, loopback, TLS): one sender and MEMBERS other
// members in one lobby; every message goes sender → HTTP → platform → gateway → each member's handler.
//   latency     closed loop: a message is sent once every member has the previous one; one sample per member and
//               message = time from the start of the send call to the member's handler seeing the content;
//   throughput  the sender keeps WINDOW sends in flight; messages/s = messages ÷ time until every member has all.
// Compared: SDK clients through N-API and through koffi (each member a full svcpp Client with its own threads), and
// the pure-TypeScript baseline (bench/baseline: a WebSocket that parses frames + keep-alive JSON over HTTP).
// Prints figures; asserts nothing.   node --import tsx bench/lobby-fanout.ts [--smoke] [--only napi|koffi|baseline]
import { readFileSync } from 'node:fs';
import { Client, SvcppServer } from '../lib/index.js';
import { BaselineGatewayClient } from './baseline/gateway-client.js';
import { BaselineRestClient } from './baseline/rest-client.js';
import { startPlatformProcess, type PlatformProcess } from './support/platform-process.js';

const smoke = process.argv.includes('--smoke');
// --only <party>: measure one kind of client (for profiling one path at a time).
const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
const MEMBERS = smoke ? 10 : 100;
const LATENCY_MESSAGES = smoke ? 10 : 200;
const THROUGHPUT_MESSAGES = smoke ? 20 : 1_000;
const WINDOW = 8;

/** One kind of client in a lobby: the sender's send, and every member's receipt of a message's content. */
interface Party {
  send(content: string): Promise<void>;
  close(): Promise<void>;
}
type OnReceive = (member: number, content: string) => void;
type PartyFactory = (platform: PlatformProcess, tokens: string[], secret: string, onReceive: OnReceive) => Promise<Party>;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
const now = () => performance.now();

async function tokensFor(server: SvcppServer, count: number, tag: string): Promise<string[]> {
  const tokens: string[] = [];
  for (let i = 0; i < count; i++) tokens.push((await server.createProvisionalToken({ externalUserId: `fanout-${tag}-${process.pid}-${i}` })).accessToken);
  return tokens;
}

const sdkParty = (backend: 'napi' | 'koffi'): PartyFactory => async (platform, tokens, secret, onReceive) => {
  const clients: Client[] = [];
  for (const token of tokens) {
    const client = new Client({ backend, apiBase: platform.apiBase, webBase: platform.httpUrl, caFile: platform.caFile! });
    await client.updateToken(token);
    await client.connect();
    clients.push(client);
  }
  let lobbyId = 0n;
  for (const client of clients) lobbyId = await client.createOrJoinLobby(secret);
  clients.slice(1).forEach((client, index) => {
    client.on('messageCreated', (messageId) => {
      const message = client.getMessage(messageId);
      if (message) onReceive(index, message.content);
    });
  });
  const sender = clients[0]!;
  return {
    send: async (content) => {
      await sender.sendLobbyMessage(lobbyId, content);
    },
    close: async () => {
      await Promise.all(clients.map((client) => client.close()));
    },
  };
};

const baselineParty: PartyFactory = async (platform, tokens, secret, onReceive) => {
  const ca = readFileSync(platform.caFile!, 'utf8');
  const sockets: BaselineGatewayClient[] = [];
  const rests: BaselineRestClient[] = [];
  for (const [index, token] of tokens.entries()) {
    const member = index - 1; // index 0 is the sender
    sockets.push(new BaselineGatewayClient({
      gatewayUrl: platform.gatewayUrl, token, ca,
      onDispatch: (t, d) => {
        if (member >= 0 && t === 'LOBBY_MESSAGE_CREATE') onReceive(member, (d as { content: string }).content);
      },
    }));
    await sockets.at(-1)!.ready;
    rests.push(new BaselineRestClient(platform.apiBase, token, ca));
  }
  let lobbyId = '';
  for (const rest of rests) lobbyId = ((await rest.request('PUT', 'lobbies', { secret })) as { id: string }).id;
  return {
    send: async (content) => {
      await rests[0]!.request('POST', `lobbies/${lobbyId}/messages`, { content });
    },
    close: async () => {
      rests.forEach((rest) => rest.close());
      await Promise.all(sockets.map((socket) => socket.close()));
    },
  };
};

/** Counts receipts per message; resolves a message's waiter once every member has it. */
class Receipts {
  private readonly counts = new Map<string, number>();
  private readonly waiters = new Map<string, () => void>();
  readonly sentAt = new Map<string, number>();
  readonly samples: number[] = [];
  allDone?: () => void;
  private complete = 0;

  receive(content: string): void {
    const started = this.sentAt.get(content);
    if (started !== undefined) this.samples.push(now() - started);
    const count = (this.counts.get(content) ?? 0) + 1;
    this.counts.set(content, count);
    if (count === MEMBERS) {
      this.complete += 1;
      this.waiters.get(content)?.();
      this.allDone?.();
    }
  }

  everyMember(content: string): Promise<void> {
    if (this.counts.get(content) === MEMBERS) return Promise.resolve();
    return new Promise((resolve) => this.waiters.set(content, resolve));
  }

  get completed(): number {
    return this.complete;
  }
}

async function measure(name: string, factory: PartyFactory, platform: PlatformProcess, server: SvcppServer): Promise<string> {
  const receipts = new Receipts();
  const tokens = await tokensFor(server, MEMBERS + 1, name);
  const party = await factory(platform, tokens, `fanout-${name}-${process.pid}`, (_member, content) => receipts.receive(content));
  try {
    // Warm-up (not timed): code paths, sockets, the platform's caches.
    for (let i = 0; i < 3; i++) {
      await party.send(`warm-${i}`);
      await receipts.everyMember(`warm-${i}`);
    }
    for (let i = 0; i < LATENCY_MESSAGES; i++) {
      const content = `lat-${i}`;
      const arrived = receipts.everyMember(content);
      receipts.sentAt.set(content, now());
      await party.send(content);
      await arrived;
    }
    const samples = receipts.samples.sort((a, b) => a - b);

    const before = receipts.completed;
    const finished = new Promise<void>((resolve) => {
      receipts.allDone = () => {
        if (receipts.completed - before === THROUGHPUT_MESSAGES) resolve();
      };
    });
    const start = now();
    let next = 0;
    await Promise.all(Array.from({ length: WINDOW }, async () => {
      while (next < THROUGHPUT_MESSAGES) await party.send(`thr-${next++}`);
    }));
    await finished;
    const perSecond = THROUGHPUT_MESSAGES / ((now() - start) / 1000);
    return `p50 ${percentile(samples, 0.5).toFixed(2)} ms  p99 ${percentile(samples, 0.99).toFixed(2)} ms  ` +
      `${Math.round(perSecond).toLocaleString('en-US')} msgs/s (${Math.round(perSecond * MEMBERS).toLocaleString('en-US')} deliveries/s)`;
  } finally {
    await party.close();
  }
}

const platform = await startPlatformProcess({ tls: true });
try {
  const server = new SvcppServer({ apiBase: platform.apiBase, botToken: platform.devApp.botToken, applicationId: platform.devApp.id, ca: readFileSync(platform.caFile!, 'utf8') });
  const parties: Array<[string, string, PartyFactory]> = [
    ['napi', 'SDK napi', sdkParty('napi')],
    ['koffi', 'SDK koffi', sdkParty('koffi')],
    ['baseline', 'pure-TS baseline', baselineParty],
  ];
  const rows: Array<[string, string]> = [];
  for (const [name, label, factory] of parties) {
    if (only === undefined || only === name) rows.push([label, await measure(name, factory, platform, server)]);
  }
  console.log(`lobby fan-out benchmark (${smoke ? 'smoke' : 'full'}: 1 sender → ${MEMBERS} members, ${LATENCY_MESSAGES} closed-loop + ` +
    `${THROUGHPUT_MESSAGES} windowed (${WINDOW} in flight) messages; TLS, platform in its own process, loopback)`);
  for (const [label, value] of rows) console.log(`  ${label.padEnd(20)} ${value}`);
} finally {
  await platform.close();
}
