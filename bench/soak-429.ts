// 429 soak: SDK clients (the real native addon, N-API) fire requests far faster than the platform's rate limits allow,
// and every request must still succeed, its effect observed once, with every 429 honoured.
//   - the platform (bench/soak-platform-child.ts, file database) runs with tight limits: the global limit (per
//     token), the lobby message bucket and the lobby write bucket (both shared by every client of the application, so
//     one client cannot know what the other spent: 429s are unavoidable);
//   - CLIENTS clients each fire MESSAGES sendLobbyMessage and LOBBIES createOrJoinLobby calls at once, without waiting;
//   - the clients reach the platform through an HTTP relay in this process that sees every request and answer. It
//     counts the 429s by scope and lists, per client token, the requests that arrived while the client had been told
//     to wait (from the moment the relay had handed the answer over): before a global 429's retry_after ran out (any
//     route), before a bucket 429's retry_after ran out (that bucket), or while an answer had said the bucket was
//     exhausted (X-RateLimit-Remaining 0, until Reset-After);
//   - afterwards the bot reads every lobby message (GET /lobbies/{id}/messages?after=) and every created lobby: each
//     message exists exactly once, each lobby once.
// Exits non-zero on a failed call or a lost or doubled effect. Prints the counts, and lists the requests that arrived
// during a wait (see check(): not provably sent after the client knew of it).
//   node --import tsx bench/soak-429.ts [--smoke]   (--smoke: 2 × (20 messages + 6 lobbies); full: 2 × (300 + 60))
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, SvcppServer } from '../lib/index.js';
import { startSoakPlatform } from './support/soak-platform.js';

const smoke = process.argv.includes('--smoke');
const CLIENTS = 2;
const MESSAGES = smoke ? 20 : 300;
const LOBBIES = smoke ? 6 : 60;
const RATE_LIMITS = {
  global: { limit: 6, windowSeconds: 1 },            // per token
  'lobbies.message': { limit: 10, windowSeconds: 1 }, // per application: shared by the clients
  'lobbies.write': { limit: 5, windowSeconds: 1 },    // per application
};

// ---- The platform child ----------------------------------------------------------------------------------------

const dir = mkdtempSync(join(tmpdir(), 'svcpp-soak-429-'));
const soakPlatform = await startSoakPlatform(['--db', join(dir, 'platform.db'), '--rate-limits', JSON.stringify(RATE_LIMITS)]);
const { child, exited } = soakPlatform;
const platform = { apiBase: soakPlatform.apiBase, botToken: soakPlatform.devApp.botToken, appId: soakPlatform.devApp.id };
const upstream = new URL(platform.apiBase);

// ---- The relay: forwards, counts and checks every request of the clients --------------------------------------

const counts = { requests: 0, ok: 0, global429: 0, bucket429: 0, shared429: 0, other: 0 };
const violations: string[] = [];  // requests that arrived during a wait (check())
/**
 * A wait the client was told about: from the moment the relay had handed the answer to the client's socket (a
 * request arriving earlier crossed the answer in flight) until the answer's arrival at the relay plus the wait (the
 * earliest the client's own clock can end it). Per token: the global wait; per token + bucket: a 429's wait, and an
 * exhausted bucket's reset.
 */
interface Wait { from: number; until: number; connection: net.Socket }
const globalWait = new Map<string, Wait>();
const bucketWait = new Map<string, Wait>();
const exhausted = new Map<string, Wait>();
/** Route (method + path with ids as :id) → the bucket the platform named for it. */
const bucketOfRoute = new Map<string, string>();
/** Timer rounding: the relay and the SDK read different clocks at millisecond resolution. */
const CLOCK_SLACK_MS = 2;

const routeOf = (method: string, url: string) => `${method} ${url.split('?')[0]!.replace(/\/\d{5,}/g, '/:id')}`;

/**
 * What arrives during a wait is listed, not failed: from outside, a request the client decided on before it read the
 * answer cannot be told from one it sent after. It may reach this relay's event loop (shared with the clients' event
 * pump) after the answer went out, and the SDK's HTTP layer starts a queued send on a later turn of its I/O loop, on
 * whichever keep-alive connection is idle then — possibly the one that just carried the 429. `onItsConnection` says
 * whether it came on that connection.
 */
function check(wait: Wait | undefined, at: number, connection: net.Socket, route: string, what: string): void {
  if (!wait || at < wait.from || at + CLOCK_SLACK_MS >= wait.until) return;
  violations.push(`${route} ${what} (${(wait.until - at).toFixed(1)} ms early${connection === wait.connection ? ', on its connection' : ''})`);
}

function checkRequest(token: string, route: string, at: number, connection: net.Socket): void {
  check(globalWait.get(token), at, connection, route, 'during a global 429 wait');
  const bucket = bucketOfRoute.get(route);
  if (bucket === undefined) return;
  check(bucketWait.get(`${token} ${bucket}`), at, connection, route, "during its bucket's 429 wait");
  check(exhausted.get(`${token} ${bucket}`), at, connection, route, 'into its exhausted bucket');
}

/** An answer `received` from the platform and `delivered` (written out) to the client. */
function learnAnswer(token: string, route: string, status: number, headers: http.IncomingHttpHeaders, body: string, received: number, delivered: number,
  connection: net.Socket): void {
  const bucket = headers['x-ratelimit-bucket'] as string | undefined;
  if (bucket) bucketOfRoute.set(route, bucket);
  if (status === 429) {
    const wait = { from: delivered, until: received + Number((JSON.parse(body) as { retry_after: number }).retry_after) * 1000, connection };
    if (headers['x-ratelimit-global'] === 'true') {
      counts.global429++;
      globalWait.set(token, wait);
    } else {
      if (headers['x-ratelimit-scope'] === 'shared') counts.shared429++;
      else counts.bucket429++;
      if (bucket) bucketWait.set(`${token} ${bucket}`, wait);
    }
    return;
  }
  if (status < 400) counts.ok++;
  else counts.other++;
  if (bucket && headers['x-ratelimit-remaining'] === '0') {
    exhausted.set(`${token} ${bucket}`, { from: delivered, until: received + Number(headers['x-ratelimit-reset-after']) * 1000, connection });
  }
}

const connections = new Set<net.Socket>();
const agent = new http.Agent({ keepAlive: true });
const relay = http.createServer((req, res) => {
  const at = performance.now();
  const token = req.headers.authorization ?? '';
  const route = routeOf(req.method!, req.url!);
  counts.requests++;
  connections.add(req.socket);
  checkRequest(token, route, at, req.socket);
  const forward = http.request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers, agent }, (answer) => {
    const chunks: Buffer[] = [];
    answer.on('data', (chunk: Buffer) => chunks.push(chunk));
    answer.on('end', () => {
      const body = Buffer.concat(chunks);
      const received = performance.now();
      res.writeHead(answer.statusCode!, answer.headers).end(body, () =>
        learnAnswer(token, route, answer.statusCode!, answer.headers, body.toString('utf8'), received, performance.now(), req.socket));
    });
  });
  forward.on('error', (error) => res.destroy(error));
  req.pipe(forward);
});
// The gateway WebSocket passes through untouched.
relay.on('upgrade', (req, socket, head) => {
  const link = net.connect(Number(upstream.port), upstream.hostname, () => {
    link.write(`${req.method} ${req.url} HTTP/1.1\r\n${Object.entries(req.headers).map(([k, v]) => `${k}: ${v}`).join('\r\n')}\r\n\r\n`);
    link.write(head);
    socket.pipe(link).pipe(socket);
  });
  link.on('error', () => socket.destroy());
  socket.on('error', () => link.destroy());
});
await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
const relayBase = `http://127.0.0.1:${(relay.address() as net.AddressInfo).port}`;

// ---- The clients fire everything at once ----------------------------------------------------------------------

const bot = new SvcppServer({ apiBase: platform.apiBase, botToken: platform.botToken, applicationId: platform.appId });
const lobby = await bot.createLobby();
const clients: Client[] = [];
for (let c = 0; c < CLIENTS; c++) {
  const client = new Client({ backend: 'napi', apiBase: `${relayBase}/api/v10`, webBase: relayBase });
  await client.updateToken((await bot.createProvisionalToken({ externalUserId: `soak-429-${c}` })).accessToken);
  await client.connect();
  await bot.putLobbyMember(lobby.id, client.currentUser!.id);
  clients.push(client);
}

const started = performance.now();
let failures = 0;
const failed = (what: string) => (error: unknown) => {
  failures++;
  console.error(`${what} failed: ${error instanceof Error ? error.message : String(error)}`);
};
const sentIds = new Map<string, bigint>();
const lobbyIds = new Map<string, bigint>();
await Promise.all(clients.flatMap((client, c) => [
  ...Array.from({ length: MESSAGES }, (_, i) => client.sendLobbyMessage(lobby.id, `c${c} m${i}`).then((id) => void sentIds.set(`c${c} m${i}`, id), failed(`message c${c} m${i}`))),
  ...Array.from({ length: LOBBIES }, (_, i) => client.createOrJoinLobby(`soak-429-c${c}-l${i}`).then((id) => void lobbyIds.set(`c${c} l${i}`, id), failed(`lobby c${c} l${i}`))),
]));
const elapsed = (performance.now() - started) / 1000;

// ---- Effects, read back as the bot (whose own limit is far away: it reads the platform directly) ---------------

const stored = new Map<string, number>();
for (let after = '0'; ;) {
  const response = await fetch(`${platform.apiBase}/lobbies/${lobby.id}/messages?limit=200&after=${after}`, { headers: { authorization: `Bot ${platform.botToken}` } });
  if (response.status === 429) {
    await new Promise((resolve) => setTimeout(resolve, Number(response.headers.get('retry-after') ?? 1) * 1000));
    continue;
  }
  const page = (await response.json()) as { id: string; content: string }[];
  for (const message of page) stored.set(message.content, (stored.get(message.content) ?? 0) + 1);
  if (page.length < 200) break;
  after = page[0]!.id;
}
const expectedMessages = CLIENTS * MESSAGES;
const lostMessages = [...Array(CLIENTS).keys()].flatMap((c) => Array.from({ length: MESSAGES }, (_, i) => `c${c} m${i}`)).filter((content) => !stored.has(content)).length;
const doubledMessages = [...stored.values()].filter((n) => n > 1).length;
const distinctLobbies = new Set([...lobbyIds.values()].map(String)).size;
let missingLobbies = 0;
for (const id of lobbyIds.values()) {
  for (;;) {
    const response = await fetch(`${platform.apiBase}/lobbies/${id}`, { headers: { authorization: `Bot ${platform.botToken}` } });
    if (response.status === 429) {
      await new Promise((resolve) => setTimeout(resolve, Number(response.headers.get('retry-after') ?? 1) * 1000));
      continue;
    }
    if (response.status !== 200) missingLobbies++;
    break;
  }
}

const requested = CLIENTS * (MESSAGES + LOBBIES);
const succeeded = sentIds.size + lobbyIds.size;
console.log(`soak-429${smoke ? ' (smoke size)' : ''}: ${CLIENTS} N-API clients fired ${requested} calls at once ` +
  `(${CLIENTS} × ${MESSAGES} lobby messages + ${LOBBIES} lobbies) against global ${RATE_LIMITS.global.limit}/s per token, ` +
  `lobby messages ${RATE_LIMITS['lobbies.message'].limit}/s and lobby writes ${RATE_LIMITS['lobbies.write'].limit}/s per application; ` +
  `HTTP requests seen ${counts.requests} (${counts.ok} answered 2xx/3xx, ${counts.other} other errors); 429s received ` +
  `${counts.global429 + counts.bucket429 + counts.shared429} (global ${counts.global429}, per-client bucket ${counts.bucket429}, shared bucket ${counts.shared429}); ` +
  `calls succeeded ${succeeded}/${requested}, failed ${failures}; messages stored ${stored.size}/${expectedMessages}, lost ${lostMessages}, ` +
  `doubled ${doubledMessages}; lobbies ${distinctLobbies} distinct, missing ${missingLobbies}; over ${connections.size} client connections: ` +
  `requests that arrived during a wait ${violations.length} (listed; possibly decided before the client read the answer); ` +
  `${elapsed.toFixed(1)} s (indicative)`);
for (const request of violations.slice(0, 10)) console.log(`  arrived during a wait: ${request}`);

for (const client of clients) await client.close();
agent.destroy();
relay.close();
child.disconnect();
await exited;
rmSync(dir, { recursive: true, force: true });
if (failures > 0 || succeeded !== requested || lostMessages > 0 || doubledMessages > 0 || distinctLobbies !== CLIENTS * LOBBIES ||
    missingLobbies > 0) process.exit(1);
