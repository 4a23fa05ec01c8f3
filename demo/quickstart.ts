// The demo of `npm run demo`: the SDK next to the embedded platform, on loopback, with no internet. It prints a
// short numbered story; `--verbose` adds the SDK's own log lines (by default only warnings and errors show).
//
// 1. The platform starts over TLS (self-signed certificate) with a development application.
// 2. A game backend links a provisional account for one of its players with the server helpers (SvcppServer).
// 3. The game client — the SDK over N-API — trusts the platform's certificate, takes the token, connects to the
//    gateway and reaches Ready.
// 4. The player renames itself; the platform pushes a USER_UPDATE and the SDK's cache follows.
// 5. A second client, over koffi (plain FFI into the same libsvcpp.so), validates the same token without connecting.
// 6. A voice call: a second player joins the first in a lobby's call; one speaks a generated tone from the WAV file
//    device, the other records what it hears (demo/call.ts).
// 7. Everything closes; the process then exits by itself.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPlatform } from '../platform/src/index.js';
import { Client, ClientStatus, LoggingSeverity, SvcppServer } from '../lib/index.js';
import { demoCall } from './call.js';

const verbose = process.argv.includes('--verbose');
const logMinSeverity = verbose ? LoggingSeverity.Info : LoggingSeverity.Warning;
/** The story's steps, in order: the heading counts them, so the announced number is the number printed. */
const STEPS = {
  platform: 'Start the platform: OAuth2, HTTP API and gateway over TLS, in-memory database',
  backend: 'The game backend gives player-42 a provisional account (no platform login needed)',
  client: 'The game client (SDK over N-API) connects with that token',
  rename: 'The player renames itself; the gateway pushes the change to the client',
  koffi: 'A second client, over koffi (plain FFI into the same libsvcpp.so), checks the same token',
  call: 'A voice call: a second player joins; one speaks a tone from a WAV file, the other records what it hears',
  close: 'Disconnect, close the clients (await using) and stop the platform',
} as const;
const stepNames = Object.keys(STEPS) as Array<keyof typeof STEPS>;
const title = (name: keyof typeof STEPS) => console.log(`\n${stepNames.indexOf(name) + 1}. ${STEPS[name]}`);
const say = (text: string) => console.log(`   ${text}`);
/** Why a step matters, for someone who has never used a social SDK. */
const why = (text: string) => console.log(`   · ${text}`);
const days = (seconds: number) => (seconds % 86_400 === 0 ? `${seconds / 86_400} days` : `${seconds} s`);

console.log(`svcpp demo: one player's first minute, told in ${stepNames.length} steps (everything runs here, no internet needed)
The cast: the platform (the social service, started locally), your game backend (Node, svcpp/server) and your
game client (the svcpp SDK: a C++ core behind a C ABI, used here from TypeScript).`);

title('platform');
// Calls are end-to-end encrypted (DAVE): the platform's default refuses any other (docs/voice.md "End-to-end
// encryption").
const platform = await startPlatform({ port: 0, database: ':memory:', logger: false, tls: true });
const dir = mkdtempSync(join(tmpdir(), 'svcpp-demo-'));
const caFile = join(dir, 'platform-ca.pem');
writeFileSync(caFile, platform.caCertPem!);
say(`API      ${platform.apiBase}`);
say(`gateway  ${platform.gatewayUrl}`);
say('the clients trust its self-signed certificate through the caFile option');
why('this is what a real deployment talks to: accounts, friends, presence, lobbies and messages live here');

title('backend');
const server = new SvcppServer({
  apiBase: platform.apiBase,
  botToken: platform.devApp.botToken,
  applicationId: platform.devApp.id,
  ca: platform.caCertPem!,
});
const linked = await server.createProvisionalToken({
  externalUserId: 'player-42',
  preferredGlobalName: 'Player Forty-Two',
});
say(`SvcppServer.createProvisionalToken: an access token valid ${days(linked.expiresIn)}, handed to the game`);
why('a game with its own accounts (Steam, consoles) vouches for its player: no sign-up, no password');

{
  title('client');
  await using client = new Client({
    apiBase: platform.apiBase,
    webBase: platform.httpUrl,
    caFile,
    applicationId: BigInt(platform.devApp.id),
    logMinSeverity,
  });
  client.on('log', (message, severity) => say(`sdk log [${LoggingSeverity[severity]}] ${message}`));
  // The status walk, one line per connect or disconnect (HttpWait -> Connecting -> Connected -> Ready).
  let statuses: string[] = [];
  client.on('statusChanged', (status) => statuses.push(ClientStatus[status]));
  const sayStatuses = () => {
    say(`status: ${statuses.join(' -> ')}`);
    statuses = [];
  };
  await client.updateToken(linked.accessToken);
  await client.connect();
  sayStatuses();
  const me = client.currentUser!;
  say(`ready as ${me.displayName} (@${me.username}, provisional account: ${me.isProvisional})`);
  why('the native core now holds a live gateway connection: friends, lobbies and messages work from here on');

  title('rename');
  const renamed = new Promise<void>((resolve) => client.once('userUpdated', () => resolve()));
  await client.updateProvisionalAccountDisplayName('Player 42');
  await renamed;
  say(`userUpdated event: the cached user is now "${client.currentUser!.displayName}"`);
  why('changes arrive as events, and the SDK keeps a cache you read without waiting (client.currentUser)');

  title('koffi');
  await using ffi = new Client({
    backend: 'koffi',
    apiBase: platform.apiBase,
    webBase: platform.httpUrl,
    caFile,
    logMinSeverity,
  });
  const checked = await ffi.fetchCurrentUser(linked.accessToken);
  say(`fetchCurrentUser: the token belongs to @${checked.username}`);
  why('one native library, two bindings: the N-API addon by default, koffi where no addon can be loaded');

  title('call');
  const friend = await server.createProvisionalToken({
    externalUserId: 'player-7',
    preferredGlobalName: 'Player Seven',
  });
  await using listener = new Client({ apiBase: platform.apiBase, webBase: platform.httpUrl, caFile, logMinSeverity });
  await listener.updateToken(friend.accessToken);
  await listener.connect();
  await demoCall(client, listener, dir, say);

  title('close');
  await client.disconnect();
  sayStatuses();
}

await platform.close();
rmSync(dir, { recursive: true, force: true });
const v = Client.version;
say(`done with svcpp ${v.major}.${v.minor}.${v.patch} (${v.hash})`);
console.log(`
What you saw: a backend vouched for a player, the game client signed in with that token and went live on the
gateway, an event updated its cache, and a second binding used the same native core.

Next:
  npm run demo -- --verbose    this demo with the SDK's own log lines
  npm test                     every test: native, both backends, platform
  README.md, "From TypeScript" friends, presence, lobbies and messages in a few lines each
  docs/                        guides: an Electron launcher, a Node game server, an engine plugin in C/C++
  platform/README.md           run the platform on its own (npx svcpp-platform)`);
