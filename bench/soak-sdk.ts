// SDK soak: a numbered stream of lobby messages to an SDK client (the real native addon, N-API) through gateway drops
// and platform restarts on a file database — every message must reach the client's 'messageCreated' handler exactly
// once. The run:
//   - the platform runs in a child process (bench/soak-platform-child.ts) on a file database; the SDK client reaches
//     it through a TCP relay in this process, so the harness can cut the client's connections (a network drop: the
//     gateway session survives on the platform and the client resumes it);
//   - the bot (another user, over HTTP) posts EVENTS lobby messages in SEGMENTS; after each segment comes a fault:
//     a cut of the client's connections (DROPS in all), or a platform restart (RESTARTS in all: the child is killed
//     — SIGKILL or a clean close, alternately — and started again on the same file; its gateway sessions are gone,
//     so the client identifies afresh and catches up on the lobby chat of the gap, native/SEMANTICS.md "Delivery
//     across drops and restarts"). The bot keeps posting while the client is away; a post is counted once its 201
//     arrived (the harness only restarts the platform between posts, so no post is in doubt);
//   - at the end every acknowledged message id must have reached the handler once: losses 0, duplicates 0.
// Prints the counts; exits non-zero on any loss or duplicate.
//   node --import tsx bench/soak-sdk.ts [--smoke]   (--smoke: 500 messages, 5 drops, 1 restart; the full run:
//   10,000 messages, 100 drops, 5 restarts)
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, ClientStatus, SvcppServer } from '../lib/index.js';
import { startSoakPlatform } from './support/soak-platform.js';

const smoke = process.argv.includes('--smoke');
const EVENTS = smoke ? 500 : 10_000;
const DROPS = smoke ? 5 : 100;
const RESTARTS = smoke ? 1 : 5;
const SEGMENTS = DROPS + RESTARTS;
/** Liveness bounds of the harness (a wedged run fails instead of hanging), not measurements. */
const RECONNECT_WAIT_MS = 90_000;
const DELIVERY_WAIT_MS = 120_000;

// ---- The platform child ----------------------------------------------------------------------------------------

interface Platform {
  child: ChildProcess;
  port: number;
  apiBase: string;
  botToken: string;
  exited: Promise<void>;
}

async function startPlatform(db: string): Promise<Platform> {
  // The platform tells clients the relay's address (--public-url); the bot and the relay use its own port.
  const platform = await startSoakPlatform(['--db', db, '--port', String(platformPort), '--public-url', relayBase]);
  return {
    child: platform.child,
    port: platformPort,
    apiBase: `http://127.0.0.1:${platformPort}/api/v10`,
    botToken: platform.devApp.botToken,
    exited: platform.exited,
  };
}

// ---- The relay between the SDK client and the platform: cutting it is the network drop -------------------------

let upstreamPort = 0;
const links = new Set<{ client: net.Socket; upstream: net.Socket }>();
const relay = net.createServer((client) => {
  const upstream = net.connect(upstreamPort, '127.0.0.1');
  const link = { client, upstream };
  links.add(link);
  const close = () => {
    links.delete(link);
    client.destroy();
    upstream.destroy();
  };
  client.on('error', close).on('close', close);
  upstream.on('error', close).on('close', close);
  client.pipe(upstream);
  upstream.pipe(client);
});
await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
const relayBase = `http://127.0.0.1:${(relay.address() as net.AddressInfo).port}`;

/** Cuts every connection of the client (its gateway WebSocket and any HTTP keep-alive socket). */
function cutClientConnections(): number {
  const cut = links.size;
  for (const { client, upstream } of [...links]) {
    client.resetAndDestroy();
    upstream.destroy();
  }
  return cut;
}

// ---- Setup ---------------------------------------------------------------------------------------------------

// The platform listens on one port across its restarts (the relay forwards there): a free one, picked here.
const platformPort = await new Promise<number>((resolve) => {
  const probe = net.createServer().listen(0, '127.0.0.1', () => {
    const { port } = probe.address() as net.AddressInfo;
    probe.close(() => resolve(port));
  });
});

const dir = mkdtempSync(join(tmpdir(), 'svcpp-soak-sdk-'));
const db = join(dir, 'platform.db');
let platform = await startPlatform(db);
upstreamPort = platform.port;

const server = () => new SvcppServer({ apiBase: platform.apiBase, botToken: platform.botToken, applicationId: '1' });
const token = (await server().createProvisionalToken({ externalUserId: 'soak-sdk-receiver' })).accessToken;

const client = new Client({ backend: 'napi', apiBase: `${relayBase}/api/v10`, webBase: relayBase });
let readies = 0;
let newSessions = 0;
let lastStatus = ClientStatus.Disconnected;
client.on('statusChanged', (status) => {
  if (status === ClientStatus.Ready) readies++;
  lastStatus = status;
});
client.on('missedEvents', () => newSessions++);
if (process.env.SOAK_DEBUG) client.on('log', (line: unknown) => console.log(`log ${String(line)}`));
if (process.env.SOAK_DEBUG)
  client.on('statusChanged', (status) => console.log(`status ${ClientStatus[status]} (links ${links.size})`));
const received = new Map<bigint, number>();
client.on('messageCreated', (id) => received.set(id, (received.get(id) ?? 0) + 1));

await client.updateToken(token);
await client.connect();
const lobbyId = await client.createOrJoinLobby('soak-sdk');

/** Resolves at the client's next Ready after `since` Readies (a resumed or a new session). */
async function readyAgain(since: number): Promise<void> {
  const deadline = Date.now() + RECONNECT_WAIT_MS;
  while (readies <= since) {
    if (Date.now() > deadline)
      throw new Error(
        `the client did not get Ready again within ${RECONNECT_WAIT_MS / 1000} s (status ${ClientStatus[lastStatus]})`,
      );
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

// ---- The stream ----------------------------------------------------------------------------------------------

const acknowledged: bigint[] = [];
let failedPosts = 0;
async function post(n: number): Promise<void> {
  for (;;) {
    try {
      const response = await fetch(`${platform.apiBase}/lobbies/${lobbyId}/messages`, {
        method: 'POST',
        headers: { authorization: `Bot ${platform.botToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ content: `soak ${n}` }),
      });
      const body = (await response.json()) as { id?: string };
      if (response.status === 201 && body.id) return void acknowledged.push(BigInt(body.id));
      failedPosts++;
    } catch {
      failedPosts++; // nothing here ever stops the platform during a post: counted, never expected
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function restartPlatform(restart: number): Promise<void> {
  const old = platform;
  if (restart % 2 === 1) old.child.kill('SIGKILL');
  else old.child.disconnect(); // the child closes the platform cleanly (its sessions get a close frame)
  await old.exited;
  platform = await startPlatform(db);
  upstreamPort = platform.port;
}

const started = performance.now();
let drops = 0;
let restarts = 0;
let connectionsCut = 0;
let readiesAtFault = readies - 1;
const restartEvery = Math.floor(SEGMENTS / RESTARTS);
for (let segment = 1; segment <= SEGMENTS; segment++) {
  const from = Math.floor(((segment - 1) * EVENTS) / SEGMENTS) + 1;
  const to = Math.floor((segment * EVENTS) / SEGMENTS);
  for (let n = from; n <= to; n++) await post(n);
  // Each fault hits a live session: the client must be Ready again after the previous one.
  await readyAgain(readiesAtFault);
  readiesAtFault = readies;
  // Restarts fall mid-way through their stretch of segments, so the stream goes on after each.
  if (segment % restartEvery === Math.floor(restartEvery / 2) && restarts < RESTARTS) {
    await restartPlatform(++restarts);
  } else {
    connectionsCut += cutClientConnections();
    if (process.env.SOAK_DEBUG)
      console.log(
        `cut at segment ${segment}, ${connectionsCut} cut so far, ` +
          `${received.size} received, ${acknowledged.length} acknowledged`,
      );
    drops++;
  }
  // The bot goes on posting while the client is away; the next fault waits for its Ready (above).
  if ((drops + restarts) % 10 === 0 || restarts + drops === SEGMENTS) {
    console.log(
      `faults ${drops + restarts}/${SEGMENTS} (drops ${drops}, restarts ${restarts}): ` +
        `${acknowledged.length} messages acknowledged, ${received.size} delivered`,
    );
  }
}
const posted = performance.now();

// Every acknowledged message must arrive; then a moment more for a duplicate to show itself.
const deadline = Date.now() + DELIVERY_WAIT_MS;
while (acknowledged.some((id) => !received.has(id)) && Date.now() < deadline)
  await new Promise((resolve) => setTimeout(resolve, 50));
await readyAgain(readiesAtFault);
await new Promise((resolve) => setTimeout(resolve, 2_000));
const finished = performance.now();

const expected = new Set(acknowledged);
const losses = acknowledged.filter((id) => !received.has(id)).length;
const duplicates = [...received.values()].reduce((sum, count) => sum + Math.max(0, count - 1), 0);
const strangers = [...received.keys()].filter((id) => !expected.has(id)).length;
console.log(
  `soak-sdk${smoke ? ' (smoke size; the full run, npm run soak, is 10,000 messages, 100 drops, 5 restarts)' : ''}: ` +
    `${acknowledged.length} events (lobby messages) acknowledged, ` +
    `${received.size} distinct delivered to the N-API client's handler; ` +
    `drops ${drops} (${connectionsCut} connections cut), ` +
    `restarts ${restarts} (odd ones kill -9, even ones a clean close); ` +
    `the client was Ready again ${readies - 1} times: ` +
    `resumes ${readies - 1 - newSessions}, new sessions ${newSessions} (each caught up on the gap); ` +
    `losses ${losses}, duplicates ${duplicates}, unexpected ${strangers}; posts retried ${failedPosts}; ` +
    `stream ${((posted - started) / 1000).toFixed(1)} s, ` +
    `until all delivered ${((finished - started) / 1000).toFixed(1)} s ` +
    '(indicative: other work shares the machine)',
);

await client.close();
platform.child.disconnect();
await platform.exited;
relay.close();
rmSync(dir, { recursive: true, force: true });
if (losses > 0 || duplicates > 0 || strangers > 0 || acknowledged.length !== EVENTS) process.exit(1);
