// Lobby message fan-out against the real platform (its own process, loopback, TLS): one sender and MEMBERS other
// members in one lobby; every message goes sender → HTTP → platform → gateway → each member's handler.
//   latency     closed loop: a message is sent once every member has the previous one; one sample per member and
//               message = time from the start of the send call to the member's handler seeing the content;
//   throughput  the sender keeps WINDOW sends in flight; messages/s = messages ÷ time until every member has all.
// Compared: SDK clients through N-API and through koffi (each member a full svcpp Client with its own threads), and
// the pure-TypeScript baseline (bench/baseline: a WebSocket that parses frames + keep-alive JSON over HTTP).
// Two shapes: MEMBERS clients in this one process, and one client per process (PROCESS_MEMBERS child processes,
// bench/support/fanout-member.ts; the real shape of a game), whose latency is the member's wall-clock receipt time
// minus the send's start (the sender there is the baseline's REST client for every kind, so only receipt differs).
// The SDK's p50 is printed with its ratio to the baseline's from the same run.
// Prints figures; asserts nothing.   node --import tsx bench/lobby-fanout.ts [--smoke] [--only napi|koffi|baseline]
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Client, SvcppServer } from '../lib/index.js';
import { BaselineGatewayClient } from './baseline/gateway-client.js';
import { BaselineRestClient } from './baseline/rest-client.js';
import type { MemberConfig, MemberMessage } from './support/fanout-member.js';
import { startPlatformProcess, type PlatformProcess } from './support/platform-process.js';

const smoke = process.argv.includes('--smoke');
// --only <party>: measure one kind of client (for profiling one path at a time).
const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
const MEMBERS = smoke ? 10 : 100;
const LATENCY_MESSAGES = smoke ? 10 : 200;
const THROUGHPUT_MESSAGES = smoke ? 20 : 1_000;
const WINDOW = 8;
const PROCESS_MEMBERS = smoke ? 3 : 10;
const PROCESS_MESSAGES = smoke ? 10 : 100;

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

async function measure(name: string, factory: PartyFactory, platform: PlatformProcess, server: SvcppServer): Promise<[number, string]> {
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
    return [percentile(samples, 0.5), `p99 ${percentile(samples, 0.99).toFixed(2)} ms  ` +
      `${Math.round(perSecond).toLocaleString('en-US')} msgs/s (${Math.round(perSecond * MEMBERS).toLocaleString('en-US')} deliveries/s)`];
  } finally {
    await party.close();
  }
}


/** One client per process: closed-loop latency (ms) from the send's start to each member's handler. */
async function measurePerProcess(kind: MemberConfig['kind'], platform: PlatformProcess, server: SvcppServer): Promise<[number, string]> {
  const tokens = await tokensFor(server, PROCESS_MEMBERS + 1, `proc-${kind}`);
  const secret = `fanout-proc-${kind}-${process.pid}`;
  const ca = readFileSync(platform.caFile!, 'utf8');
  const sender = new BaselineRestClient(platform.apiBase, tokens[0]!, ca);
  const lobbyId = ((await sender.request('PUT', 'lobbies', { secret })) as { id: string }).id;
  const receipts = new Map<string, number[]>();
  const waiters = new Map<string, () => void>();
  const children = await Promise.all(tokens.slice(1).map((token) => new Promise<ReturnType<typeof fork>>((resolve, reject) => {
    const child = fork(fileURLToPath(new URL('./support/fanout-member.ts', import.meta.url)), [], {
      execArgv: ['--import', import.meta.resolve('tsx')], stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child.on('message', (message: MemberMessage) => {
      if (message.type === 'ready') return resolve(child);
      const at = receipts.get(message.content) ?? [];
      at.push(message.at);
      receipts.set(message.content, at);
      if (at.length === PROCESS_MEMBERS) waiters.get(message.content)?.();
    });
    child.once('exit', (code) => reject(new Error(`a fan-out member exited (${code})`)));
    const config: MemberConfig = {
      kind, apiBase: platform.apiBase, httpUrl: platform.httpUrl, gatewayUrl: platform.gatewayUrl, caFile: platform.caFile!, token, secret,
    };
    child.send(config);
  })));
  try {
    const samples: number[] = [];
    for (let i = -3; i < PROCESS_MESSAGES; i++) { // the first three warm up
      const content = `proc-${i}`;
      const arrived = new Promise<void>((resolve) => waiters.set(content, resolve));
      const sentAt = performance.timeOrigin + performance.now();
      await sender.request('POST', `lobbies/${lobbyId}/messages`, { content });
      await arrived;
      if (i >= 0) samples.push(...receipts.get(content)!.map((at) => at - sentAt));
    }
    samples.sort((a, b) => a - b);
    return [percentile(samples, 0.5), `p99 ${percentile(samples, 0.99).toFixed(2)} ms`];
  } finally {
    sender.close();
    for (const child of children) {
      child.removeAllListeners('exit');
      child.disconnect();
    }
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
  const format = (results: Array<[string, string, [number, string]]>) => {
    const baseline = results.find(([name]) => name === 'baseline')?.[2][0];
    return results.map(([name, label, [p50, rest]]) =>
      `  ${label.padEnd(20)} p50 ${p50.toFixed(2)} ms${baseline !== undefined && name !== 'baseline' ? ` (${(p50 / baseline).toFixed(2)}x baseline)` : ''}  ${rest}`);
  };
  const inProcess: Array<[string, string, [number, string]]> = [];
  const perProcess: Array<[string, string, [number, string]]> = [];
  for (const [name, label, factory] of parties) {
    if (only !== undefined && only !== name) continue;
    inProcess.push([name, label, await measure(name, factory, platform, server)]);
    perProcess.push([name, label, await measurePerProcess(name as MemberConfig['kind'], platform, server)]);
  }
  console.log(`lobby fan-out benchmark (${smoke ? 'smoke' : 'full'}: 1 sender → ${MEMBERS} members, ${LATENCY_MESSAGES} closed-loop + ` +
    `${THROUGHPUT_MESSAGES} windowed (${WINDOW} in flight) messages; TLS, platform in its own process, loopback)`);
  for (const line of format(inProcess)) console.log(line);
  console.log(`one client per process (1 sender → ${PROCESS_MEMBERS} member processes, ${PROCESS_MESSAGES} closed-loop messages)`);
  for (const line of format(perProcess)) console.log(line);
} finally {
  await platform.close();
}
