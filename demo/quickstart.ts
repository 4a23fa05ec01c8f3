// The demo of `npm run demo`: the SDK next to the embedded platform, on loopback, with no internet.
//
// What it shows today (issue 2/3 scope): the platform starts with a development application; a game
// backend links a provisional account with the bot token (plain HTTP, as a Node game server would); the
// SDK client is configured for that platform, receives its log lines through the wakeup-driven pump, and
// prepares a PKCE authorization. Connecting the SDK to the gateway comes with the client core (issue 4).
import { startPlatform } from '../platform/src/index.js';
import { AuthenticationCodeChallengeMethod, AuthorizationArgs, Client, ClientStatus, LoggingSeverity } from '../lib/index.js';

const platform = await startPlatform({ port: 0, database: ':memory:', logger: false });
console.log(`platform   ${platform.apiBase}  (gateway ${platform.gatewayUrl})`);
console.log(`dev app    id ${platform.devApp.id}`);

// Game backend: link a provisional account for one of its players.
const linked = await fetch(`${platform.apiBase}/partner-sdk/token/bot`, {
  method: 'POST',
  headers: { authorization: `Bot ${platform.devApp.botToken}`, 'content-type': 'application/json' },
  body: JSON.stringify({ external_user_id: 'player-42', preferred_global_name: 'Player Forty-Two' }),
}).then((r) => r.json() as Promise<{ access_token: string; expires_in: number }>);
const me = await fetch(`${platform.apiBase}/users/@me`, { headers: { authorization: `Bearer ${linked.access_token}` } })
  .then((r) => r.json() as Promise<{ id: string; username: string; global_name: string; is_provisional: boolean }>);
console.log(`provisional user ${me.global_name} (@${me.username}, id ${me.id}, provisional=${me.is_provisional}), token valid ${linked.expires_in} s`);

// The game client: the SDK over the N-API backend (pass backend: 'koffi' for the FFI backend).
{
  await using client = new Client({ apiBase: platform.apiBase, webBase: platform.httpUrl });
  const logged = new Promise<void>((resolve) => {
    client.on('log', (message, severity) => {
      console.log(`sdk log    [${LoggingSeverity[severity]}] ${message}`);
      if (message.startsWith('application id')) resolve();
    });
  });
  client.applicationId = BigInt(platform.devApp.id);
  await logged;

  const { verifier, challenge } = client.createAuthorizationCodeVerifier();
  using args = new AuthorizationArgs({ scopes: Client.defaultCommunicationScopes, codeChallenge: challenge });
  console.log(`authorize  client ${client.applicationId}, scopes "${args.scopes}", PKCE ${AuthenticationCodeChallengeMethod[challenge.method]} challenge ${challenge.challenge} (verifier ${verifier.length} chars)`);
  const v = Client.version;
  console.log(`sdk        svcpp ${v.major}.${v.minor}.${v.patch} (${v.hash}), status ${ClientStatus[client.status]}`);
}

await platform.close();
console.log('done: client closed, platform stopped');
