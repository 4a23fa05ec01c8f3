// The demo of `npm run demo`: the SDK next to the embedded platform, on loopback, with no internet.
//
// 1. The platform starts over TLS (self-signed certificate) with a development application.
// 2. A game backend links a provisional account for one of its players with the server helpers (SvcppServer).
// 3. The game client — the SDK over N-API — trusts the platform's certificate, takes the token, connects to the
//    gateway and reaches Ready; the platform renames the player and the SDK sees the USER_UPDATE.
// 4. A second client, over koffi, validates the same token without connecting.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPlatform } from '../platform/src/index.js';
import { Client, ClientStatus, LoggingSeverity, SvcppServer } from '../lib/index.js';

const platform = await startPlatform({ port: 0, database: ':memory:', logger: false, tls: true });
const dir = mkdtempSync(join(tmpdir(), 'svcpp-demo-'));
const caFile = join(dir, 'platform-ca.pem');
writeFileSync(caFile, platform.caCertPem!);
console.log(`platform   ${platform.apiBase}  (gateway ${platform.gatewayUrl})`);
console.log(`dev app    id ${platform.devApp.id}`);

// Game backend: link a provisional account for one of its players.
const server = new SvcppServer({ apiBase: platform.apiBase, botToken: platform.devApp.botToken, applicationId: platform.devApp.id, ca: platform.caCertPem! });
const linked = await server.createProvisionalToken({ externalUserId: 'player-42', preferredGlobalName: 'Player Forty-Two' });
console.log(`backend    provisional token issued (valid ${linked.expiresIn} s)`);

{
  await using client = new Client({ apiBase: platform.apiBase, webBase: platform.httpUrl, caFile, applicationId: BigInt(platform.devApp.id) });
  client.on('log', (message, severity) => console.log(`sdk log    [${LoggingSeverity[severity]}] ${message}`));
  client.on('statusChanged', (status) => console.log(`status     ${ClientStatus[status]}`));

  await client.updateToken(linked.accessToken);
  await client.connect();
  const me = client.currentUser!;
  console.log(`ready      ${me.displayName} (@${me.username}, id ${me.id}, provisional=${me.isProvisional})`);

  const renamed = new Promise<void>((resolve) => client.once('userUpdated', () => resolve()));
  await client.updateProvisionalAccountDisplayName('Player 42');
  await renamed;
  console.log(`renamed    now "${client.currentUser!.displayName}"`);

  await using ffi = new Client({ backend: 'koffi', apiBase: platform.apiBase, webBase: platform.httpUrl, caFile });
  const checked = await ffi.fetchCurrentUser(linked.accessToken);
  console.log(`koffi      the token belongs to @${checked.username}`);

  await client.disconnect();
  const v = Client.version;
  console.log(`sdk        svcpp ${v.major}.${v.minor}.${v.patch} (${v.hash})`);
}

await platform.close();
rmSync(dir, { recursive: true, force: true });
console.log('done: clients closed, platform stopped');
