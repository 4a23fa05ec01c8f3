/**
 * Voice calls of lobbies and of guild voice channels (PROTOCOL.md §13): main-gateway op 4 → calls.ts (guild rules:
 * guild-calls.ts); the voice gateway (its own port) and the UDP relay (its own port). startPlatform assembles
 * voiceArea before listening and calls `handle.listen` once the HTTP server is up.
 */
import type { GatewayHandlers, PlatformArea } from '../areas/area.js';
import type { PlatformKernel } from '../kernel.js';
import type { TlsMaterial } from '../crypto/tls.js';
import { Op } from '../gateway/protocol.js';
import { registerArea } from '../http/api.js';
import { VoiceCalls } from './calls.js';
import { VoiceClose } from './protocol.js';
import type { GuildVoiceCalls } from '../bot-api/guilds/voice-channel-state.js';
import { GuildCalls, type GuildModel } from './guild-calls.js';
import { guildVoiceStateRoutes } from './guild-routes.js';
import type { DaveExtension } from './dave.js';
import { registerVoiceDevRoutes } from './dev-routes.js';
import { LossInjector } from './loss.js';
import { registerVoiceStateRoutes } from './routes.js';
import { DaveService } from './dave/service.js';
import { UdpRelay, type RelayTap } from './udp-relay.js';
import { VoiceGateway, type VoiceDropFilter, type VoiceGatewayOptions } from './voice-gateway.js';
import { ClusterVoice } from './cluster-voice.js';
import { voiceStateJson, VoiceStates } from './voice-states.js';

export interface VoiceOptions {
  /** TCP port of the voice gateway; 0 (default) picks a free one. */
  port?: number;
  /** UDP port of the media relay; 0 (default) picks a free one. */
  udpPort?: number;
  /** Participants per call (default 25, the recommended maximum); op 4 beyond it gets VOICE_JOIN_REFUSED 30050. */
  maxParticipants?: number;
  /** Test option: probability that the relay drops each packet copy it would send (default 0). */
  lossRate?: number;
  /** Seed of the loss generator (reproducible runs). */
  lossSeed?: number;
  /** Voice gateway tunables (heartbeat interval, resume window, resume buffer size). */
  gateway?: Partial<VoiceGatewayOptions>;
  /**
   * No unencrypted calls (default true): every client must announce DAVE (Identify `max_dave_protocol_version` ≥ 1)
   * and the platform is each call's DAVE external sender; others are refused with 4017. `false` serves no DAVE at
   * all (version 0, transport encryption only) for voice engines that do not implement it yet — tests only.
   */
  requireE2ee?: boolean;
  /** How long a DAVE transition waits for every member's op 23 before executing (default 3,000 ms). */
  daveTransitionTimeoutMs?: number;
  /** Replaces the DAVE extension (tests); by default it follows `requireE2ee`. */
  dave?: DaveExtension;
  /** Dev/test only: sees every transport-decrypted media payload the relay forwards (see UdpRelay.tap). */
  relayTap?: RelayTap;
}

import type { VoiceHandle, VoiceStats } from './handle.js';

export type { VoiceHandle, VoiceStats } from './handle.js';

export const DEFAULT_MAX_PARTICIPANTS = 25;

/** Wildcard listen addresses are no address to send to: advertise loopback instead. */
function advertised(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return '127.0.0.1';
  return host;
}

/**
 * The voice area: its routes, its gateway handlers (READY `voice_states`, op 4, calls ended with the last session),
 * `guildVoice` (what the bot API asks about guild calls) and `handle`, whose `listen` startPlatform calls once the
 * HTTP server is up.
 */
export function voiceArea(
  ctx: PlatformKernel,
  { devMode }: { devMode: boolean },
  options: VoiceOptions = {},
  guildModel: GuildModel,
): PlatformArea & {
  handle: VoiceHandle & { listen(host: string, tls?: TlsMaterial): Promise<void> };
  guildVoice: GuildVoiceCalls;
} {
  const maxParticipants = options.maxParticipants ?? DEFAULT_MAX_PARTICIPANTS;
  if (!Number.isInteger(maxParticipants) || maxParticipants < 1)
    throw new RangeError('voice option maxParticipants must be a positive integer');
  LossInjector.check(options.lossRate ?? 0);
  const states = new VoiceStates();
  const relay = new UdpRelay(options.lossRate ?? 0, options.lossSeed, () => ctx.now());
  if (options.relayTap) {
    // The tap exposes what DAVE protects from the platform only in a development platform (tests).
    if (!devMode) throw new RangeError('voice option relayTap needs devMode');
    relay.tap = options.relayTap;
  }
  const dave =
    options.dave ??
    (options.requireE2ee === false
      ? undefined
      : new DaveService({
          logger: ctx.logger.child({ area: 'dave' }),
          ...(options.daveTransitionTimeoutMs !== undefined && {
            transitionTimeoutMs: options.daveTransitionTimeoutMs,
          }),
        }));
  let endpoint = '';
  let media = { ip: '127.0.0.1', port: 0 };

  // calls ⇄ gateway: the gateway ends connections for calls.ts; calls.ts removes states the gateway gives up on.
  let calls: VoiceCalls | null = null;
  const gateway = new VoiceGateway({
    states,
    relay,
    mediaAddress: () => media,
    callEnded: (state) => calls?.leave(state),
    logger: ctx.logger.child({ area: 'voice' }),
    ...(dave && { dave }),
    ...(options.gateway && { options: options.gateway }),
  });
  const guildCalls = new GuildCalls(ctx, guildModel, states);
  const guildVoice: GuildVoiceCalls = {
    voiceStatesOf: (guildId) => guildCalls.guildCreateVoiceStates(guildId),
    // A deleted channel's call is over (4022, like a deleted lobby's); a removed member is disconnected (4014).
    disconnect: ({ guildId, channelId, userId }) => {
      for (const state of states.ofGuild(guildId)) {
        if (
          (channelId === undefined || state.lobbyId === channelId) &&
          (userId === undefined || state.userId === userId)
        ) {
          calls?.leave(state, channelId !== undefined ? VoiceClose.CallTerminated : VoiceClose.Disconnected);
        }
      }
    },
  };
  calls = new VoiceCalls({
    ctx,
    states,
    endpoint: () => endpoint,
    endConnection: (state, code) => gateway.endFor(state, code),
    maxParticipants: () => maxParticipants,
    guilds: guildCalls,
  });
  const voiceCalls = calls;
  // With a broker: the other nodes learn this node's participants, and end their calls if it dies.
  states.observer = new ClusterVoice(ctx.bus.log, (state) => voiceCalls.announceLeft(state));

  const gatewayHandlers: GatewayHandlers = {
    // READY `voice_states`: who is in the calls of the user's lobbies, so participants are known from the start.
    readyExtras: (identity) =>
      identity.kind === 'user'
        ? {
            voice_states: ctx.store.lobbies
              .listForUser(identity.userId, identity.applicationId)
              .flatMap((lobby) => states.inLobby(lobby.id).map((state) => voiceStateJson(state))),
          }
        : {},
    // Main-gateway op 4 (Voice State Update): the one command op the voice feature owns.
    command: (command) =>
      command.op === Op.VoiceStateUpdate
        ? voiceCalls.onVoiceStateUpdate(command.session.identity, command.session.id, command.d)
        : false,
    sessionsChanged: (change) => {
      // A user's or a bot's last session is gone: every call it joined ends (a bot's are guild calls).
      if (!change.present) voiceCalls.leaveAll(change.userId, change.applicationId);
    },
  };
  // LOBBY_DELETE goes to every user who is no longer a member (left, removed, lobby deleted): they leave its call.
  // After the current publish, so the lobby's own dispatches go out first.
  // LOBBY_CREATE goes to a user who just joined (or created) a lobby: they get the voice states of its running call,
  // as READY would have told them, so a new member knows who is in voice without joining (§13.2).
  const unsubscribeJoins = ctx.bus.subscribe((event) => {
    if (event.t !== 'LOBBY_CREATE' || !event.to.userIds) return;
    const lobbyId = (event.d as { id?: unknown }).id;
    const to = event.to;
    if (typeof lobbyId !== 'string') return;
    queueMicrotask(() => {
      for (const state of states.inLobby(lobbyId)) {
        ctx.bus.publish({
          t: 'VOICE_STATE_UPDATE',
          d: voiceStateJson(state),
          to: { userIds: to.userIds, applicationId: state.applicationId },
        });
      }
    });
  });
  const unsubscribe = ctx.bus.subscribe((event) => {
    if (event.t !== 'LOBBY_DELETE' || !event.to.userIds) return;
    const lobbyId = (event.d as { id?: unknown }).id;
    const userIds = event.to.userIds;
    if (typeof lobbyId !== 'string') return;
    queueMicrotask(() => {
      try {
        voiceCalls.leaveLobby(lobbyId, userIds);
      } catch (error) {
        ctx.logger.error({ err: error }, 'voice: leaving a deleted lobby failed');
      }
    });
  });

  const handle = {
    get endpoint() {
      return endpoint;
    },
    get udpPort() {
      return media.port;
    },
    dropConnections: (filter: VoiceDropFilter) => gateway.dropConnections(filter),
    dave: (lobbyId: string) => (dave instanceof DaveService ? dave.describe(lobbyId) : null),
    setLoss: (rate: number, seed?: number) => relay.loss.set(rate, seed),
    stats: (): VoiceStats => {
      const callsNow: Record<string, string[]> = {};
      for (const session of gateway.allSessions()) (callsNow[session.lobbyId] ??= []).push(session.userId);
      return { ...relay.stats, lossRate: relay.loss.lossRate, calls: callsNow, ...gateway.resumeStats };
    },
    async listen(host: string, tls?: TlsMaterial) {
      const udp = await relay.listen(host, options.udpPort ?? 0);
      media = { ip: advertised(udp.address), port: udp.port };
      const port = await gateway.listen(host, options.port ?? 0, tls);
      const name = advertised(host);
      endpoint = `${name.includes(':') ? `[${name}]` : name}:${port}`;
    },
  };

  return {
    name: 'voice',
    // Guild voice channels' calls use the bot API's guild model and its voice-channel state (start time).
    dependencies: ['bot-api'],
    handle,
    guildVoice,
    routes(app) {
      registerVoiceStateRoutes(app, ctx, states);
      registerArea(app, guildVoiceStateRoutes(guildModel.guilds, guildCalls, states));
      if (devMode) registerVoiceDevRoutes(app, handle);
    },
    gateway: gatewayHandlers,
    async close() {
      unsubscribe();
      unsubscribeJoins();
      await gateway.close();
      await relay.close();
    },
  };
}
