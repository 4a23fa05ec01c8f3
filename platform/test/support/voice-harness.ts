/**
 * Set-up of the voice tests: a real platform (lobby harness), users in a lobby, their main-gateway sessions, and
 * the op 4 → VOICE_STATE_UPDATE / VOICE_SERVER_UPDATE step that yields voice gateway credentials.
 */
import type { RunningPlatform, StartOptions } from '../../src/index.js';
import { RawClient } from '../gateway/client.js';
import { accessTokenFor } from './platform.js';
import { startLobbyHarness, type Frame, type LobbyHarness, type TestUser } from '../lobbies/harness.js';
import { TestVoiceClient, type ConnectOptions, type VoiceCredentials } from './voice-client.js';
import type { Mode } from './voice-crypto.js';

export interface Member {
  user: TestUser;
  gateway: RawClient;
  /** READY's session_id (voice Identify's `session_id`). */
  sessionId: string;
}

export interface VoiceHarness extends LobbyHarness {
  /** Users with gateway sessions, members of one bot-created lobby. */
  lobby(names: string[]): Promise<{ lobbyId: string; members: Member[] }>;
  /** Op 4 join; waits for the member's own VOICE_STATE_UPDATE and its VOICE_SERVER_UPDATE. */
  requestJoin(
    member: Member,
    lobbyId: string,
    flags?: { selfMute?: boolean; selfDeaf?: boolean },
  ): Promise<{ state: Frame; server: Frame; credentials: VoiceCredentials }>;
  /** requestJoin, then the whole voice flow in `mode`. */
  joinCall(member: Member, lobbyId: string, mode: Mode, options?: ConnectOptions): Promise<TestVoiceClient>;
}

/**
 * Op 4 join on a main-gateway session; waits for the user's own VOICE_STATE_UPDATE and its VOICE_SERVER_UPDATE,
 * which yield the voice gateway credentials (throws on VOICE_JOIN_REFUSED). `channelId` is a lobby id, or with
 * `guildId` a guild voice channel (Identify's `server_id` is then the guild id).
 */
export async function requestVoiceJoin(
  gateway: RawClient,
  userId: string,
  channelId: string,
  flags: { selfMute?: boolean; selfDeaf?: boolean } = {},
  guildId: string | null = null,
): Promise<{ state: Frame; server: Frame; credentials: VoiceCredentials }> {
  gateway.send(4, {
    guild_id: guildId,
    channel_id: channelId,
    self_mute: flags.selfMute ?? false,
    self_deaf: flags.selfDeaf ?? false,
  });
  let state: Frame | undefined;
  for (;;) {
    const frame = (await gateway.nextOf(0)) as Frame;
    if (frame.t === 'VOICE_STATE_UPDATE' && frame.d.user_id === userId) state = frame;
    if (frame.t === 'VOICE_JOIN_REFUSED') throw new Error(`join refused: ${JSON.stringify(frame.d)}`);
    if (frame.t === 'VOICE_SERVER_UPDATE') {
      if (!state) throw new Error('VOICE_SERVER_UPDATE before the own VOICE_STATE_UPDATE');
      const credentials: VoiceCredentials = {
        endpoint: frame.d.endpoint,
        serverId: guildId ?? channelId,
        userId,
        sessionId: state.d.session_id,
        token: frame.d.token,
      };
      return { state, server: frame, credentials };
    }
  }
}

/**
 * A user in a guild voice channel with op 4 only (no voice connection: the voice state exists from op 4 on), on a
 * session of the dev application; for HTTP reads of the state. Close the returned client to leave.
 */
export async function inGuildVoice(
  platform: RunningPlatform,
  where: { username: string; guildId: string; channelId: string; scope?: string; selfMute?: boolean },
): Promise<{ client: RawClient; token: string }> {
  const login = {
    clientId: platform.devApp.id,
    scope: where.scope ?? 'sdk.social_layer guilds.members.read',
    user: where.username,
  };
  const token = (await accessTokenFor(platform, login)).access_token;
  const client = await RawClient.open(platform.gatewayUrl, undefined, platform.caCertPem);
  await client.identify(`Bearer ${token}`);
  client.send(4, {
    guild_id: where.guildId,
    channel_id: where.channelId,
    self_mute: where.selfMute ?? false,
    self_deaf: false,
  });
  while ((await client.nextOf(0)).t !== 'VOICE_SERVER_UPDATE');
  return { client, token };
}

export async function startVoiceHarness(options: StartOptions = {}): Promise<VoiceHarness> {
  const base = await startLobbyHarness(options);
  const voiceClients: TestVoiceClient[] = [];
  const harness: VoiceHarness = {
    ...base,
    async lobby(names) {
      const users = await Promise.all(names.map((name) => base.user(name)));
      const created = await base.call('POST', '/lobbies', base.bot, { members: users.map((u) => ({ id: u.id })) });
      if (created.status !== 201) throw new Error(`lobby creation failed: ${created.status} ${created.text}`);
      const members: Member[] = [];
      for (const user of users) {
        const { client, ready } = await base.connect(user);
        members.push({ user, gateway: client, sessionId: ready.d.session_id });
      }
      return { lobbyId: created.body.id as string, members };
    },
    requestJoin: (member, lobbyId, flags = {}) => requestVoiceJoin(member.gateway, member.user.id, lobbyId, flags),
    async joinCall(member, lobbyId, mode, connect = {}) {
      const { credentials } = await harness.requestJoin(member, lobbyId);
      const client = await TestVoiceClient.join(credentials, mode, {
        ...connect,
        ...(base.platform.caCertPem && connect.ca === undefined && { ca: base.platform.caCertPem }),
      });
      voiceClients.push(client);
      return client;
    },
    async close() {
      await Promise.all(voiceClients.splice(0).map((c) => c.close().catch(() => undefined)));
      await base.close();
    },
  };
  return harness;
}
