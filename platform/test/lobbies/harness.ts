/** Shared set-up of the lobby tests: a platform with a guild, users with SDK tokens, HTTP and gateway helpers. */
import type { RunningPlatform, StartOptions } from '../../src/index.js';
import { RawClient, type GatewayPayload } from '../gateway/client.js';
import { bearer, bot, request, type TestResponse } from '../support/http.js';
import { accessTokenFor, createUser, startTestPlatform } from '../support/platform.js';

/** A received frame whose payload tests read freely. */
export type Frame = GatewayPayload & { d: any };

export interface LobbyHarness {
  platform: RunningPlatform;
  /** The dev application's bot headers. */
  bot: Record<string, string>;
  guildId: string;
  channels: Record<string, string>;
  /** A new user with an sdk.social_layer token of the dev application. */
  user(name: string, scope?: string): Promise<TestUser>;
  /** An API call: `method path` with optional JSON body. */
  call(method: string, path: string, headers: Record<string, string>, json?: unknown): Promise<TestResponse>;
  /** A gateway session of the user's token; READY is returned on the client. */
  connect(user: TestUser): Promise<{ client: RawClient; ready: Frame }>;
  /** Frames each client received before a fence dispatch (no sleeping). */
  drain(...clients: RawClient[]): Promise<Frame[][]>;
  close(): Promise<void>;
}

export interface TestUser {
  id: string;
  username: string;
  token: string;
  auth: Record<string, string>;
}

let counter = 0;

export async function startLobbyHarness(options: StartOptions = {}): Promise<LobbyHarness> {
  const platform = await startTestPlatform({
    ...options,
    config: {
      users: [{ username: 'guild_owner' }, { username: 'guild_member' }],
      guilds: [
        {
          name: 'Lobby Guild',
          owner: 'guild_owner',
          members: ['guild_member'],
          channels: [
            { name: 'general', type: 0, position: 0 },
            { name: 'raid', type: 0, position: 1 },
            { name: 'voice', type: 2, position: 2 },
          ],
        },
      ],
    },
  });
  const state = (await request(`${platform.apiBase}/dev/state`)).body as {
    guilds: Array<{ id: string; name: string; channels: Array<{ id: string; name: string }> }>;
  };
  const guild = state.guilds.find((g) => g.name === 'Lobby Guild')!;
  const clients: RawClient[] = [];

  const harness: LobbyHarness = {
    platform,
    bot: bot(platform.devApp.botToken),
    guildId: guild.id,
    channels: Object.fromEntries(guild.channels.map((c) => [c.name, c.id])),
    async user(name, scope = 'sdk.social_layer') {
      const username = `${name}_${++counter}`;
      const created = name.startsWith('guild_') ? { id: '', username: name } : await createUser(platform, { username });
      const login = created.username;
      const token = (await accessTokenFor(platform, { clientId: platform.devApp.id, scope, user: login })).access_token;
      const id = created.id || (await request(`${platform.apiBase}/users/@me`, { headers: bearer(token) })).body.id;
      return { id, username: login, token, auth: bearer(token) };
    },
    call: (method, path, headers, json) =>
      request(`${platform.apiBase}${path}`, { method, headers, ...(json !== undefined && { json }) }),
    async connect(user) {
      const client = await RawClient.open(platform.gatewayUrl, undefined, platform.caCertPem);
      clients.push(client);
      const ready = (await client.identify(`Bearer ${user.token}`)) as Frame;
      return { client, ready };
    },
    async drain(...targets) {
      platform.bus.publish({ t: 'FENCE', d: null, to: { all: true } });
      const out: Frame[][] = [];
      for (const client of targets) {
        const got: Frame[] = [];
        for (;;) {
          const frame = await client.next();
          if (frame.t === 'FENCE') break;
          if (frame.op === 0) got.push(frame);
        }
        out.push(got);
      }
      return out;
    },
    async close() {
      await Promise.all(clients.splice(0).map((c) => c.close()));
      await platform.close();
    },
  };
  return harness;
}
