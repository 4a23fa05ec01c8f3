// Fault soak: the platform killed with SIGKILL again and again while clients write, on a file database.
//   - writes: lobby messages (POST /lobbies/{id}/messages, Bot) from WRITERS concurrent loops; a write counts as
//     acknowledged when its 201 arrived (its message id is recorded);
//   - KILLS times: the platform process is killed (kill -9) at a random moment of a burst, then started again on the
//     same file;
//   - then: one clean start, and the webhook receiver (a real HTTP server in this process) must get a
//     LOBBY_MESSAGE_CREATE for every acknowledged message; the database file passes PRAGMA integrity_check and
//     holds every acknowledged message.
// Exits non-zero when anything acknowledged is missing. Prints the counts.
//   node --import tsx bench/soak-faults.ts [--smoke]     (--smoke: 3 kills, CI's size; the full run is 20)
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { startSoakPlatform } from './support/soak-platform.js';

const smoke = process.argv.includes('--smoke');
const KILLS = smoke ? 3 : 20;
const WRITERS = 4;
/** Acknowledged writes per burst before the kill lands at a random point of the next ones. */
const BURST = smoke ? 40 : 100;
/** How long the closing check waits for deliveries (a liveness bound for the check, not a measurement). */
const DELIVERY_WAIT_MS = 120_000;

interface Started {
  child: ChildProcess;
  apiBase: string;
  botToken: string;
  exited: Promise<void>;
}

async function startChild(db: string, webhookUrl: string): Promise<Started> {
  const platform = await startSoakPlatform(['--db', db, '--webhook-url', webhookUrl]);
  return {
    child: platform.child,
    apiBase: platform.apiBase,
    botToken: platform.devApp.botToken,
    exited: platform.exited,
  };
}

async function call(
  url: string,
  method: string,
  token: string,
  body?: unknown,
): Promise<{ status: number; json: any }> {
  const response = await fetch(url, {
    method,
    headers: { authorization: `Bot ${token}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, json: text ? JSON.parse(text) : undefined };
}

// The webhook receiver: counts deliveries by event id and which message each one announced.
const deliveredMessages = new Set<string>();
const eventIds = new Set<string>();
let deliveries = 0;
const receiver = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    deliveries++;
    eventIds.add(body.event.id);
    if (body.event.type === 'LOBBY_MESSAGE_CREATE') deliveredMessages.add(body.event.data.id);
    res.writeHead(204).end();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const webhookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`;

const dir = mkdtempSync(join(tmpdir(), 'svcpp-soak-faults-'));
const db = join(dir, 'platform.db');
const acknowledged = new Set<string>();
let failedWrites = 0;
let counter = 0;

let platform = await startChild(db, webhookUrl);
const lobby = await call(`${platform.apiBase}/lobbies`, 'POST', platform.botToken, {});
if (lobby.status !== 201) throw new Error(`lobby not created: ${lobby.status}`);
const lobbyId: string = lobby.json.id;

for (let kill = 1; kill <= KILLS; kill++) {
  let stop = false;
  let acknowledgedThisRound = 0;
  const target = BURST + Math.floor(Math.random() * BURST);
  const writer = async () => {
    while (!stop) {
      try {
        const sent = await call(`${platform.apiBase}/lobbies/${lobbyId}/messages`, 'POST', platform.botToken, {
          content: `soak ${++counter}`,
        });
        if (sent.status === 201) {
          acknowledged.add(sent.json.id);
          acknowledgedThisRound++;
        } else failedWrites++;
      } catch {
        failedWrites++; // the connection died with the process: not acknowledged, so nothing is owed
        return;
      }
      if (acknowledgedThisRound >= target && !stop) {
        stop = true;
        platform.child.kill('SIGKILL');
      }
    }
  };
  await Promise.all(Array.from({ length: WRITERS }, writer));
  await platform.exited;
  console.log(
    `kill ${kill}/${KILLS}: ${acknowledgedThisRound} writes acknowledged in this burst, ${acknowledged.size} in all`,
  );
  platform = await startChild(db, webhookUrl);
}

// The last start runs cleanly: pending outbox entries (never delivered, or delivered but not recorded) go out.
const deadline = Date.now() + DELIVERY_WAIT_MS;
while ([...acknowledged].some((id) => !deliveredMessages.has(id)) && Date.now() < deadline)
  await new Promise((r) => setTimeout(r, 200));
platform.child.disconnect();
await platform.exited;
receiver.close();

const database = new Database(db, { readonly: true });
const integrity = database.pragma('integrity_check', { simple: true });
const stored = new Set(
  (database.prepare('SELECT id FROM lobby_messages WHERE lobby_id = ?').all(lobbyId) as { id: string }[]).map(
    (r) => r.id,
  ),
);
database.close();
rmSync(dir, { recursive: true, force: true });

const lost = [...acknowledged].filter((id) => !stored.has(id)).length;
const undelivered = [...acknowledged].filter((id) => !deliveredMessages.has(id)).length;
console.log(
  `soak-faults${smoke ? ' (smoke size; the full run is 20 kills)' : ''}: ` +
    `${KILLS} kill -9, ${acknowledged.size} writes acknowledged, ` +
    `${failedWrites} not acknowledged (in flight at a kill), integrity_check ${integrity}, ` +
    `acknowledged writes lost ${lost}, ` +
    `webhooks: ${deliveredMessages.size} messages announced, ${undelivered} acknowledged messages never announced, ` +
    `${deliveries} deliveries of ${eventIds.size} distinct events ` +
    `(${deliveries - eventIds.size} redeliveries, at-least-once)`,
);
if (integrity !== 'ok' || lost > 0 || undelivered > 0) process.exit(1);
