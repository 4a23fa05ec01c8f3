// 429 soak: SDK clients (the real native addon, N-API) fire requests far faster than the platform's rate limits allow,
// and every request must still succeed, its effect observed once, with every 429 honoured.
//   - the platform (bench/soak-platform-child.ts, file database) runs with tight limits: the global limit (per
//     token), the lobby message bucket and the lobby write bucket (both shared by every client of the application, so
//     one client cannot know what the other spent: 429s are unavoidable);
//   - CLIENTS clients each fire MESSAGES sendLobbyMessage and LOBBIES createOrJoinLobby calls at once, without waiting;
//   - the clients reach the platform through an HTTP relay (bench/support/rate-limit-relay.ts) that sees every request
//     and answer. It counts the 429s by scope and the waits told (429s and exhausted buckets), and lists the requests
//     that arrived while their client had been told to wait: before a global 429's retry_after ran out (any route),
//     before a bucket 429's retry_after ran out (that bucket), or while an answer had said the bucket was exhausted
//     (X-RateLimit-Remaining 0, until Reset-After);
//   - each such request is then placed in its client's own order of events (bench/support/told-wait-order.ts, from
//     the client's Verbose log): written before the client read the answer (it crossed the answer in flight: counted)
//     or after (written into a told wait: a failure);
//   - afterwards the bot reads every lobby message (GET /lobbies/{id}/messages?after=) and every created lobby: each
//     message exists exactly once, each lobby once.
// Exits non-zero on a failed call, a lost or doubled effect, or any request written into a told wait. Prints the
// counts.
//   node --import tsx bench/soak-429.ts [--smoke]   (--smoke: 2 × (20 messages + 6 lobbies); full: 2 × (300 + 60))
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, LoggingSeverity, SvcppServer } from '../lib/index.js';
import { startRateLimitRelay } from './support/rate-limit-relay.js';
import { startSoakPlatform } from './support/soak-platform.js';
import { orderAgainstClientLogs } from './support/told-wait-order.js';

const smoke = process.argv.includes('--smoke');
const CLIENTS = 2;
const MESSAGES = smoke ? 20 : 300;
const LOBBIES = smoke ? 6 : 60;
const RATE_LIMITS = {
  global: { limit: 6, windowSeconds: 1 }, // per token
  'lobbies.message': { limit: 10, windowSeconds: 1 }, // per application: shared by the clients
  'lobbies.write': { limit: 5, windowSeconds: 1 }, // per application
};

// ---- The platform child, and the relay in front of it ----------------------------------------------------------

const dir = mkdtempSync(join(tmpdir(), 'svcpp-soak-429-'));
const soakPlatform = await startSoakPlatform([
  '--db',
  join(dir, 'platform.db'),
  '--rate-limits',
  JSON.stringify(RATE_LIMITS),
]);
const { child, exited } = soakPlatform;
const platform = {
  apiBase: soakPlatform.apiBase,
  botToken: soakPlatform.devApp.botToken,
  appId: soakPlatform.devApp.id,
};
const relay = await startRateLimitRelay(platform.apiBase);
const counts = relay.counts;

// ---- The clients fire everything at once ----------------------------------------------------------------------

const bot = new SvcppServer({ apiBase: platform.apiBase, botToken: platform.botToken, applicationId: platform.appId });
const lobby = await bot.createLobby();
const clients: Client[] = [];
const logFileOfToken = new Map<string, string>();
for (let c = 0; c < CLIENTS; c++) {
  const client = new Client({ backend: 'napi', apiBase: `${relay.base}/api/v10`, webBase: relay.base });
  // Verbose: the rate limiter's "written" / "told to wait" lines, in the order of the client's I/O thread.
  const logDir = join(dir, `client-${c}`);
  mkdirSync(logDir);
  if (!client.setLogDir(logDir, LoggingSeverity.Verbose)) throw new Error(`cannot open a log in ${logDir}`);
  const token = (await bot.createProvisionalToken({ externalUserId: `soak-429-${c}` })).accessToken;
  logFileOfToken.set(`Bearer ${token}`, join(logDir, 'svcpp.log'));
  await client.updateToken(token);
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
await Promise.all(
  clients.flatMap((client, c) => [
    ...Array.from({ length: MESSAGES }, (_, i) =>
      client
        .sendLobbyMessage(lobby.id, `c${c} m${i}`)
        .then((id) => void sentIds.set(`c${c} m${i}`, id), failed(`message c${c} m${i}`)),
    ),
    ...Array.from({ length: LOBBIES }, (_, i) =>
      client
        .createOrJoinLobby(`soak-429-c${c}-l${i}`)
        .then((id) => void lobbyIds.set(`c${c} l${i}`, id), failed(`lobby c${c} l${i}`)),
    ),
  ]),
);
const elapsed = (performance.now() - started) / 1000;

// ---- Effects, read back as the bot (whose own limit is far away: it reads the platform directly) ---------------

const stored = new Map<string, number>();
for (let after = '0'; ;) {
  const response = await fetch(`${platform.apiBase}/lobbies/${lobby.id}/messages?limit=200&after=${after}`, {
    headers: { authorization: `Bot ${platform.botToken}` },
  });
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
const lostMessages = [...Array(CLIENTS).keys()]
  .flatMap((c) => Array.from({ length: MESSAGES }, (_, i) => `c${c} m${i}`))
  .filter((content) => !stored.has(content)).length;
const doubledMessages = [...stored.values()].filter((n) => n > 1).length;
const distinctLobbies = new Set([...lobbyIds.values()].map(String)).size;
let missingLobbies = 0;
for (const id of lobbyIds.values()) {
  for (;;) {
    const response = await fetch(`${platform.apiBase}/lobbies/${id}`, {
      headers: { authorization: `Bot ${platform.botToken}` },
    });
    if (response.status === 429) {
      await new Promise((resolve) => setTimeout(resolve, Number(response.headers.get('retry-after') ?? 1) * 1000));
      continue;
    }
    if (response.status !== 200) missingLobbies++;
    break;
  }
}

// ---- Requests that arrived during a told wait, in their clients' own order --------------------------------------

for (const client of clients) await client.close(); // every log line written
const order = orderAgainstClientLogs(
  relay.early,
  (token) => logFileOfToken.get(token) ?? join(dir, 'no-such-client.log'),
);
const toldWaits = counts.global429 + counts.bucket429 + counts.shared429 + counts.exhausted;
const intoTheWait = order.intoTheWait.length + order.unmatched.length;

const requested = CLIENTS * (MESSAGES + LOBBIES);
const succeeded = sentIds.size + lobbyIds.size;
const received429 = counts.global429 + counts.bucket429 + counts.shared429;
const honoured = toldWaits - new Set(order.intoTheWait.map((a) => a.toldBy)).size;
console.log(
  `soak-429${smoke ? ' (smoke size)' : ''}: ${CLIENTS} N-API clients fired ${requested} calls at once ` +
    `(${CLIENTS} × ${MESSAGES} lobby messages + ${LOBBIES} lobbies) ` +
    `against global ${RATE_LIMITS.global.limit}/s per token, ` +
    `lobby messages ${RATE_LIMITS['lobbies.message'].limit}/s ` +
    `and lobby writes ${RATE_LIMITS['lobbies.write'].limit}/s per application; ` +
    `HTTP requests seen ${counts.requests} (${counts.ok} answered 2xx/3xx, ${counts.other} other errors) ` +
    `over ${relay.connections()} client connections; ` +
    `429s received ${received429} (global ${counts.global429}, per-client bucket ${counts.bucket429}, ` +
    `shared bucket ${counts.shared429}); ` +
    `waits told ${toldWaits} (429s + ${counts.exhausted} exhausted buckets), honoured ${honoured}; ` +
    `requests written into a told wait ${intoTheWait} ` +
    `(${order.unmatched.length} of them unmatched in the client's log), ` +
    `requests that crossed a told wait's answer in flight ${order.crossed.length} ` +
    '(written before the client read it); ' +
    `calls succeeded ${succeeded}/${requested}, failed ${failures}; ` +
    `messages stored ${stored.size}/${expectedMessages}, lost ${lostMessages}, doubled ${doubledMessages}; ` +
    `lobbies ${distinctLobbies} distinct, missing ${missingLobbies}; ${elapsed.toFixed(1)} s (indicative)`,
);
const describe = (a: (typeof relay.early)[number]) =>
  `${a.route} #${a.rank} during the ${a.toldBy.scope} wait told by ${a.toldBy.route} #${a.toldBy.rank} ` +
  `(${a.msBeforeTheEnd.toFixed(1)} ms before its end)`;
for (const arrival of order.intoTheWait.slice(0, 10)) console.log(`  written into a told wait: ${describe(arrival)}`);
for (const arrival of order.unmatched.slice(0, 10))
  console.log(`  arrived during a told wait, not found in its client's log: ${describe(arrival)}`);

await relay.close();
child.disconnect();
await exited;
rmSync(dir, { recursive: true, force: true });
if (
  failures > 0 ||
  succeeded !== requested ||
  lostMessages > 0 ||
  doubledMessages > 0 ||
  distinctLobbies !== CLIENTS * LOBBIES ||
  missingLobbies > 0 ||
  intoTheWait > 0
)
  process.exit(1);
