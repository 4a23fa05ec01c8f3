// Lobby message fan-out against the real platform (its own process, loopback, TLS): one sender and MEMBERS other
// members in one lobby; every message goes sender → HTTP → platform → gateway → each member's handler.
//   latency     closed loop: a message is sent once every member has the previous one; one sample per member and
//               message = time from the start of the send call to the member's handler seeing the content; and
//               the medians over messages of each message's first, median and last delivery (the hop, then the spread);
//   throughput  the sender keeps WINDOW sends in flight; messages/s = messages ÷ time until every member has all; and
//               the CPU time per delivery over that phase, of this process (members and sender, every thread) and of
//               the platform's process.
// Compared: SDK clients through N-API and through koffi (each member a full svcpp Client with its own threads), and
// the pure-TypeScript baseline (bench/baseline: a WebSocket that parses frames + keep-alive JSON over HTTP). An SDK
// member reads the message from the snapshot its messageCreated event carries, as the baseline reads the frame's `d`.
// Two shapes: MEMBERS clients in this one process, and one client per process (PROCESS_MEMBERS child processes,
// bench/support/fanout-member.ts; the real shape of a game), whose latency is the member's receipt time minus the
// send's start on the system-wide monotonic clock (process.hrtime, CLOCK_MONOTONIC on Linux: one clock for every
// process, never stepped); the sender there is the baseline's REST client for every kind, so only receipt differs.
// The kinds' latency messages are interleaved (one message for each kind in turn, the order rotating), so a change in
// the load of the shared machine reaches every kind alike; throughput is measured kind after kind.
// The SDK's p50 is printed with its ratio to the baseline's from the same run. With --only, the in-process shape also
// prints each thread's time per closed-loop message (support/thread-times.ts): on a CPU, waiting for one, scheduled.
// Prints figures; asserts nothing.   node --import tsx bench/lobby-fanout.ts [--smoke] [--only napi|koffi|baseline]
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Client, SvcppServer } from '../lib/index.js';
import { BaselineGatewayClient } from './baseline/gateway-client.js';
import { BaselineRestClient } from './baseline/rest-client.js';
import type { MemberConfig, MemberMessage } from './support/fanout-member.js';
import { ownCpuMs, processCpuMs } from './support/cpu-time.js';
import { monotonicMs } from './support/monotonic-clock.js';
import { startPlatformProcess, type PlatformProcess } from './support/platform-process.js';
import { formatThreadTimes, threadTimes, threadTimesSince, type ThreadTimes } from './support/thread-times.js';

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
type PartyFactory = (
  platform: PlatformProcess,
  tokens: string[],
  secret: string,
  onReceive: OnReceive,
) => Promise<Party>;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
/**
 * Milliseconds on the system-wide monotonic clock (comparable across the member processes: support/monotonic-clock.ts).
 */
const now = monotonicMs;

/** Each kind's turn in round `round`: the order rotates so no kind always goes first (or right after another). */
function rotated<T>(items: T[], round: number): T[] {
  const start = round % items.length;
  return [...items.slice(start), ...items.slice(0, start)];
}

async function tokensFor(server: SvcppServer, count: number, tag: string): Promise<string[]> {
  const tokens: string[] = [];
  for (let i = 0; i < count; i++)
    tokens.push(
      (await server.createProvisionalToken({ externalUserId: `fanout-${tag}-${process.pid}-${i}` })).accessToken,
    );
  return tokens;
}

const sdkParty =
  (backend: 'napi' | 'koffi'): PartyFactory =>
  async (platform, tokens, secret, onReceive) => {
    const clients: Client[] = [];
    for (const token of tokens) {
      const client = new Client({
        backend,
        apiBase: platform.apiBase,
        webBase: platform.httpUrl,
        caFile: platform.caFile!,
      });
      await client.updateToken(token);
      await client.connect();
      clients.push(client);
    }
    let lobbyId = 0n;
    for (const client of clients) lobbyId = await client.createOrJoinLobby(secret);
    clients.slice(1).forEach((client, index) => {
      client.on('messageCreated', (_messageId, message) => {
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
    sockets.push(
      new BaselineGatewayClient({
        gatewayUrl: platform.gatewayUrl,
        token,
        ca,
        onDispatch: (t, d) => {
          if (member >= 0 && t === 'LOBBY_MESSAGE_CREATE') onReceive(member, (d as { content: string }).content);
        },
      }),
    );
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

/** A kind of client, as the command line names it, and as the figures label it. */
interface Kind {
  name: MemberConfig['kind'];
  label: string;
  factory: PartyFactory;
}
type Figures = [p50: number, rest: string];

/** One kind's lobby in this process: MEMBERS members, the sender, and what they received. */
interface InProcessLobby {
  kind: Kind;
  party: Party;
  receipts: Receipts;
  samples: number[];
  /** Per closed-loop message: its first, median and last member's latency (ms). */
  spreads: [first: number, median: number, last: number][];
}

/**
 * Sends `content` and waits until every member has it (each member's latency goes to the lobby's samples, the
 * message's first, median and last to its spreads).
 */
async function roundTrip(lobby: InProcessLobby, content: string): Promise<void> {
  const arrived = lobby.receipts.everyMember(content);
  const before = lobby.samples.length;
  lobby.receipts.sentAt.set(content, now());
  await lobby.party.send(content);
  await arrived;
  const message = lobby.samples.slice(before).sort((a, b) => a - b);
  lobby.spreads.push([message[0]!, percentile(message, 0.5), message.at(-1)!]);
}

/**
 * The medians over messages of each message's first, median and last delivery: the first is the hop from the send to
 * one member's handler, last minus first what the fan-out of one message to every member costs (docs/lobby-fanout.md).
 */
function spreadOf(spreads: InProcessLobby['spreads']): string {
  const median = (index: 0 | 1 | 2) =>
    percentile(
      spreads.map((spread) => spread[index]).sort((a, b) => a - b),
      0.5,
    ).toFixed(2);
  return `one message: first ${median(0)}, median ${median(1)}, last ${median(2)} ms`;
}

const THREAD_GROUPS = [
  "members' JS thread",
  "members' I/O threads",
  "members' other threads",
  "platform's main thread",
];

/**
 * This process's threads (the members' and the sender's) and the platform's, grouped: the JS thread, the SDK's I/O
 * threads (svcpp-io), the rest (V8's and libuv's helpers); the platform's main thread (its helpers left out).
 */
function threadsOfTheFanOut(platform: PlatformProcess): Map<string, ThreadTimes> {
  const members = threadTimes(process.pid, ({ pid, tid, name }) =>
    tid === pid ? "members' JS thread" : name === 'svcpp-io' ? "members' I/O threads" : "members' other threads",
  );
  const server = threadTimes(platform.pid, ({ pid, tid }) => (tid === pid ? "platform's main thread" : undefined));
  return new Map([...members, ...server]);
}

/** Every kind's lobby in this one process: interleaved closed-loop latency, then each kind's throughput in turn. */
async function measureInProcess(
  kinds: Kind[],
  platform: PlatformProcess,
  server: SvcppServer,
): Promise<Map<string, Figures>> {
  const lobbies: InProcessLobby[] = [];
  try {
    for (const kind of kinds) {
      const receipts = new Receipts();
      const tokens = await tokensFor(server, MEMBERS + 1, kind.name);
      const party = await kind.factory(platform, tokens, `fanout-${kind.name}-${process.pid}`, (_member, content) =>
        receipts.receive(content),
      );
      lobbies.push({ kind, party, receipts, samples: receipts.samples, spreads: [] });
    }
    // Warm-up (not timed): code paths, sockets, the platform's caches.
    for (let i = 0; i < 3; i++) {
      for (const lobby of lobbies) await roundTrip(lobby, `warm-${i}`);
    }
    lobbies.forEach((lobby) => {
      lobby.samples.length = 0;
      lobby.spreads.length = 0;
    });
    // With one kind measured, every thread's time in the closed loop is that kind's: its share per message.
    const threadsBefore = lobbies.length === 1 ? threadsOfTheFanOut(platform) : undefined;
    for (let i = 0; i < LATENCY_MESSAGES; i++) {
      for (const lobby of rotated(lobbies, i)) await roundTrip(lobby, `${lobby.kind.name}-lat-${i}`);
    }
    const threads = threadsBefore
      ? `\n${''.padEnd(24)}threads, per message: ` +
        formatThreadTimes(
          threadTimesSince(threadsBefore, threadsOfTheFanOut(platform), LATENCY_MESSAGES),
          THREAD_GROUPS,
        )
      : '';
    const figures = new Map<string, Figures>();
    for (const lobby of lobbies) {
      const samples = [...lobby.samples].sort((a, b) => a - b);
      const cpuBefore = { clients: ownCpuMs(), platform: processCpuMs(platform.pid) };
      const perSecond = await throughput(lobby);
      // CPU per delivery over the windowed phase: this process (its members and the sender, every thread) and the
      // platform's process — the same frames for every kind, so what differs there is how its writes meet each kind's
      // readers (docs/lobby-fanout.md).
      const perDelivery = (ms: number) => ((ms * 1000) / (THROUGHPUT_MESSAGES * MEMBERS)).toFixed(1);
      const cpu =
        `CPU/delivery ${perDelivery(ownCpuMs() - cpuBefore.clients)} µs here, ` +
        `${perDelivery(processCpuMs(platform.pid) - cpuBefore.platform)} µs platform` +
        (smoke ? ' (10 ms clock ticks: coarse in a smoke run)' : '');
      figures.set(lobby.kind.name, [
        percentile(samples, 0.5),
        `p99 ${percentile(samples, 0.99).toFixed(2)} ms  ` +
          `${Math.round(perSecond).toLocaleString('en-US')} msgs/s ` +
          `(${Math.round(perSecond * MEMBERS).toLocaleString('en-US')} deliveries/s)  ${cpu}\n` +
          `${''.padEnd(24)}${spreadOf(lobby.spreads)}${threads}`,
      ]);
    }
    return figures;
  } finally {
    await Promise.all(lobbies.map((lobby) => lobby.party.close()));
  }
}

/** Messages per second with WINDOW sends in flight, until every member has every message. */
async function throughput({ party, receipts }: InProcessLobby): Promise<number> {
  const before = receipts.completed;
  const finished = new Promise<void>((resolve) => {
    receipts.allDone = () => {
      if (receipts.completed - before === THROUGHPUT_MESSAGES) resolve();
    };
  });
  const start = now();
  let next = 0;
  await Promise.all(
    Array.from({ length: WINDOW }, async () => {
      while (next < THROUGHPUT_MESSAGES) await party.send(`thr-${next++}`);
    }),
  );
  await finished;
  return THROUGHPUT_MESSAGES / ((now() - start) / 1000);
}

/** One kind's lobby of member processes, and the REST client that sends to it. */
interface ProcessLobby {
  kind: Kind;
  sender: BaselineRestClient;
  lobbyId: string;
  children: ChildProcess[];
  receipts: Map<string, number[]>;
  waiters: Map<string, () => void>;
  samples: number[];
}

function startMember(lobby: ProcessLobby, config: MemberConfig): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(new URL('./support/fanout-member.ts', import.meta.url)), [], {
      execArgv: ['--import', import.meta.resolve('tsx')],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child.on('message', (message: MemberMessage) => {
      if (message.type === 'ready') return resolve(child);
      const at = lobby.receipts.get(message.content) ?? [];
      at.push(message.at);
      lobby.receipts.set(message.content, at);
      if (at.length === PROCESS_MEMBERS) lobby.waiters.get(message.content)?.();
    });
    child.once('exit', (code) => reject(new Error(`a fan-out member exited (${code})`)));
    child.send(config);
  });
}

/** One client per process, every kind's lobby at once: interleaved closed-loop latency (ms) from the send's start. */
async function measurePerProcess(
  kinds: Kind[],
  platform: PlatformProcess,
  server: SvcppServer,
): Promise<Map<string, Figures>> {
  const ca = readFileSync(platform.caFile!, 'utf8');
  const lobbies: ProcessLobby[] = [];
  try {
    for (const kind of kinds) {
      const tokens = await tokensFor(server, PROCESS_MEMBERS + 1, `proc-${kind.name}`);
      const secret = `fanout-proc-${kind.name}-${process.pid}`;
      const sender = new BaselineRestClient(platform.apiBase, tokens[0]!, ca);
      const lobbyId = ((await sender.request('PUT', 'lobbies', { secret })) as { id: string }).id;
      const lobby: ProcessLobby = {
        kind,
        sender,
        lobbyId,
        children: [],
        receipts: new Map(),
        waiters: new Map(),
        samples: [],
      };
      lobbies.push(lobby);
      lobby.children = await Promise.all(
        tokens.slice(1).map((token) =>
          startMember(lobby, {
            kind: kind.name,
            apiBase: platform.apiBase,
            httpUrl: platform.httpUrl,
            gatewayUrl: platform.gatewayUrl,
            caFile: platform.caFile!,
            token,
            secret,
          }),
        ),
      );
    }
    for (let i = -3; i < PROCESS_MESSAGES; i++) {
      // the first three warm up
      for (const lobby of rotated(lobbies, i + 3)) {
        const content = `${lobby.kind.name}-proc-${i}`;
        const arrived = new Promise<void>((resolve) => lobby.waiters.set(content, resolve));
        const sentAt = now();
        await lobby.sender.request('POST', `lobbies/${lobby.lobbyId}/messages`, { content });
        await arrived;
        if (i >= 0) lobby.samples.push(...lobby.receipts.get(content)!.map((at) => at - sentAt));
      }
    }
    return new Map(
      lobbies.map((lobby): [string, Figures] => {
        const samples = [...lobby.samples].sort((a, b) => a - b);
        return [lobby.kind.name, [percentile(samples, 0.5), `p99 ${percentile(samples, 0.99).toFixed(2)} ms`]];
      }),
    );
  } finally {
    for (const lobby of lobbies) {
      lobby.sender.close();
      for (const child of lobby.children) {
        child.removeAllListeners('exit');
        child.disconnect();
      }
    }
  }
}

/** The figures of every kind, each SDK p50 with its ratio to the baseline's of the same table. */
function format(kinds: Kind[], figures: Map<string, Figures>): string[] {
  const baseline = figures.get('baseline')?.[0];
  return kinds.map(({ name, label }) => {
    const [p50, rest] = figures.get(name)!;
    const ratio = baseline !== undefined && name !== 'baseline' ? ` (${(p50 / baseline).toFixed(2)}x baseline)` : '';
    return `  ${label.padEnd(20)} p50 ${p50.toFixed(2)} ms${ratio}  ${rest}`;
  });
}

const platform = await startPlatformProcess({ tls: true });
try {
  const server = new SvcppServer({
    apiBase: platform.apiBase,
    botToken: platform.devApp.botToken,
    applicationId: platform.devApp.id,
    ca: readFileSync(platform.caFile!, 'utf8'),
  });
  const kinds = (
    [
      { name: 'napi', label: 'SDK napi', factory: sdkParty('napi') },
      { name: 'koffi', label: 'SDK koffi', factory: sdkParty('koffi') },
      { name: 'baseline', label: 'pure-TS baseline', factory: baselineParty },
    ] satisfies Kind[]
  ).filter(({ name }) => only === undefined || only === name);
  const inProcess = await measureInProcess(kinds, platform, server);
  const perProcess = await measurePerProcess(kinds, platform, server);
  console.log(
    `lobby fan-out benchmark (${smoke ? 'smoke' : 'full'}: 1 sender → ${MEMBERS} members, ` +
      `${LATENCY_MESSAGES} closed-loop (kinds interleaved) + ` +
      `${THROUGHPUT_MESSAGES} windowed (${WINDOW} in flight) messages; ` +
      'TLS, platform in its own process, loopback)',
  );
  for (const line of format(kinds, inProcess)) console.log(line);
  console.log(
    `one client per process (1 sender → ${PROCESS_MEMBERS} member processes per kind, ` +
      `${PROCESS_MESSAGES} closed-loop messages, kinds interleaved)`,
  );
  for (const line of format(kinds, perProcess)) console.log(line);
} finally {
  await platform.close();
}
