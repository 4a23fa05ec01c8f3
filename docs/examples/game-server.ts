// The game server guide's example (docs/game-server.md): a small game backend on node:http with `svcpp/server`.
//   POST /players/<externalId>/token   a provisional account for one of your players: { accessToken }
//   POST /matches  { players: [id, ...] }   a lobby with those players: { lobbyId }
//   POST /webhooks                     the platform's signed webhook events (PING answered, duplicates dropped)
// Loads no native code. Run it:
//   npm install svcpp tsx
//   SVCPP_API_BASE=http://127.0.0.1:8787/api/v10 SVCPP_APPLICATION_ID=<client id> SVCPP_BOT_TOKEN=<bot token> \
//   SVCPP_PUBLIC_KEY=<public key> PORT=8080 npx tsx game-server.ts
// (the local platform's defaults; with its --tls: https:// and SVCPP_CA_FILE=svcpp-platform-ca.pem)
// (test/docs-examples.test.ts runs it against the platform, which delivers its webhooks to it.)
import http from 'node:http';
import { readFileSync } from 'node:fs';
import { SvcppServer, WebhookReceiver, webhookListener } from 'svcpp/server';

const env = (name: string) =>
  process.env[name] ??
  (() => {
    throw new Error(`${name} is not set`);
  })();
const server = new SvcppServer({
  apiBase: env('SVCPP_API_BASE'),
  botToken: env('SVCPP_BOT_TOKEN'), // a secret: from your secret store, never logged
  applicationId: BigInt(env('SVCPP_APPLICATION_ID')),
  ...(process.env.SVCPP_CA_FILE ? { ca: readFileSync(process.env.SVCPP_CA_FILE) } : {}),
});
const receiver = new WebhookReceiver({ publicKey: env('SVCPP_PUBLIC_KEY') });
const webhooks = webhookListener(receiver, async (event) => {
  // At least once, verified, de-duplicated: e.g. forget a player who removed the game.
  console.log(`webhook ${event.eventType}`);
});

async function readJson(request: http.IncomingMessage): Promise<unknown> {
  let body = '';
  for await (const chunk of request) body += chunk;
  return body ? JSON.parse(body) : {};
}

function reply(response: http.ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body, (_key, value) => (typeof value === 'bigint' ? String(value) : value)));
}

const backend = http.createServer(async (request, response) => {
  try {
    const token = /^\/players\/([\w:.-]{1,64})\/token$/.exec(request.url ?? '');
    if (request.method === 'POST' && token) {
      // Your own player authentication goes first (a session cookie, a platform ticket): the token is theirs.
      const { accessToken } = await server.createProvisionalToken({ externalUserId: token[1]! });
      return reply(response, 200, { accessToken });
    }
    if (request.method === 'POST' && request.url === '/matches') {
      const { players } = (await readJson(request)) as { players: string[] };
      const lobby = await server.createLobby({
        metadata: { mode: 'ranked' },
        members: players.map((userId) => ({ userId })),
      });
      console.log(`match lobby ${lobby.id} for ${players.length} players`);
      return reply(response, 201, { lobbyId: lobby.id });
    }
    if (request.method === 'POST' && request.url === '/webhooks') return webhooks(request, response);
    reply(response, 404, { message: 'not found' });
  } catch (error) {
    console.error(error);
    reply(response, 500, { message: 'internal error' });
  }
});
backend.listen(Number(process.env.PORT ?? 8080), '127.0.0.1', () => {
  const { port } = backend.address() as { port: number };
  console.log(`game backend on http://127.0.0.1:${port}`);
});
