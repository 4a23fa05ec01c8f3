/**
 * An unmodified @discordjs/voice client in its own process, driven over stdio by voice/discordjs.test.ts. Its own
 * process because the library always connects with wss:// and passes no TLS options, so the platform's certificate
 * is trusted the way a user of the library would: NODE_EXTRA_CA_CERTS, read at process start.
 *
 * Config (env PEER_CONFIG, JSON): {gatewayUrl, token, userId, lobbyId, listenTo}. Output: one JSON object per line
 * ({event: "ready" | "ssrc" | "packet" | "played" | "transitioned" | "code" | "left" | "error", ...}). Input lines:
 * "play", "code" (the DAVE voice privacy code, null without a group), "leave".
 */
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import {
  AudioPlayerStatus,
  createAudioPlayer,
  createAudioResource,
  EndBehaviorType,
  entersState,
  joinVoiceChannel,
  StreamType,
  VoiceConnectionStatus,
  type DiscordGatewayAdapterCreator,
} from '@discordjs/voice';
import { WebSocket } from 'ws';
import { peerPacket } from './discordjs-peer-packets.js';

interface PeerConfig {
  gatewayUrl: string;
  token: string;
  userId: string;
  lobbyId: string;
  listenTo: string;
}

const config = JSON.parse(process.env.PEER_CONFIG ?? '{}') as PeerConfig;
const emit = (event: string, data: Record<string, unknown> = {}) =>
  process.stdout.write(`${JSON.stringify({ event, ...data })}\n`);

async function main(): Promise<void> {
  const gateway = new WebSocket(`${config.gatewayUrl}?v=10&encoding=json`);
  await new Promise<void>((resolve, reject) => {
    gateway.on('error', reject);
    gateway.on('message', (data: Buffer) => {
      const payload = JSON.parse(data.toString('utf8'));
      if (payload.op === 10)
        gateway.send(
          JSON.stringify({
            op: 2,
            d: { token: `Bearer ${config.token}`, properties: { os: 'linux', browser: 'peer', device: 'peer' } },
          }),
        );
      if (payload.op === 0 && payload.t === 'READY') resolve();
    });
  });

  // The adapter: the library's only contact with the main gateway, mapping the lobby call onto its guild API.
  const adapterCreator: DiscordGatewayAdapterCreator = (methods) => {
    const onMessage = (data: Buffer) => {
      const payload = JSON.parse(data.toString('utf8'));
      if (payload.op !== 0) return;
      if (
        payload.t === 'VOICE_STATE_UPDATE' &&
        payload.d.user_id === config.userId &&
        payload.d.lobby_id === config.lobbyId
      )
        methods.onVoiceStateUpdate(payload.d);
      if (payload.t === 'VOICE_SERVER_UPDATE' && payload.d.channel_id === config.lobbyId)
        methods.onVoiceServerUpdate({ ...payload.d, guild_id: config.lobbyId });
    };
    gateway.on('message', onMessage);
    return {
      sendPayload(payload: { op: number; d: Record<string, unknown> }) {
        gateway.send(JSON.stringify({ op: payload.op, d: { ...payload.d, guild_id: null, lobby_id: config.lobbyId } }));
        return true;
      },
      destroy: () => void gateway.off('message', onMessage),
    };
  };

  const debug: string[] = [];
  const connection = joinVoiceChannel({
    channelId: config.lobbyId,
    guildId: config.lobbyId,
    adapterCreator,
    selfDeaf: false,
    selfMute: false,
    debug: true,
  });
  connection.on('debug', (line) => debug.push(line));
  connection.on('error', (error) => emit('error', { message: error.message }));
  connection.on('transitioned', (id: number) => emit('transitioned', { id }));
  await entersState(connection, VoiceConnectionStatus.Ready, 10_000);
  emit('ready', { debug });

  // The library maps SSRCs to users only from the server's op 5: report it, so the test sends media after it.
  connection.receiver.ssrcMap.on('create', (data) => emit('ssrc', { userId: data.userId, audioSSRC: data.audioSSRC }));
  const stream = connection.receiver.subscribe(config.listenTo, { end: { behavior: EndBehaviorType.Manual } });
  stream.on('data', (chunk: Buffer) => emit('packet', { hex: chunk.toString('hex') }));

  const player = createAudioPlayer();
  connection.subscribe(player);
  for await (const line of createInterface({ input: process.stdin })) {
    if (line === 'play') {
      player.play(
        createAudioResource(Readable.from(Array.from({ length: 10 }, (_, n) => peerPacket(100 + n))), {
          inputType: StreamType.Opus,
        }),
      );
      await entersState(player, AudioPlayerStatus.Playing, 5000);
      await entersState(player, AudioPlayerStatus.Idle, 10_000);
      emit('played');
    } else if (line === 'code') {
      emit('code', { code: connection.voicePrivacyCode ?? null });
    } else if (line === 'leave') {
      connection.destroy();
      emit('left');
      gateway.close(1000);
      break;
    }
  }
}

main().catch((error: unknown) => {
  emit('error', { message: error instanceof Error ? error.message : String(error) });
  process.exitCode = 1;
});
