/**
 * Calls (PROTOCOL.md §13.1–13.2, §13.8): main-gateway op 4 joins, updates and leaves a lobby's call or a guild voice
 * channel's (the same machinery; guild-calls.ts adds the guild's rules and audience); the dispatches go out from
 * here. A lobby call is the lobby's voice channel: `channel_id = lobby id`, `guild_id: null`, members only. Every lobby
 * member's sessions get VOICE_STATE_UPDATE (so the SDK's participant-changed callback fires for members outside the
 * call too); the joiner's sessions get VOICE_SERVER_UPDATE with a fresh token.
 */
import type { PlatformKernel } from '../kernel.js';
import type { GatewayIdentity } from '../gateway/types.js';
import type { GuildCalls, Refusal } from './guild-calls.js';
import { VoiceClose } from './protocol.js';
import { voiceStateUpdateSchema } from './schemas.js';
import { newVoiceToken, voiceStateJson, type VoiceState, type VoiceStates } from './voice-states.js';

/** Why op 4 could not put the user in the call (VOICE_JOIN_REFUSED `code`, HTTP-style codes). */
export const JoinRefusal = {
  unknownLobby: { code: 10031, message: 'Unknown Lobby' },
  notMember: { code: 50001, message: 'Missing Access' },
  callFull: { code: 30050, message: 'Maximum number of call participants reached' },
} as const;

export interface CallsDeps {
  ctx: PlatformKernel;
  states: VoiceStates;
  /** host:port of the voice gateway (VOICE_SERVER_UPDATE `endpoint`). */
  endpoint(): string;
  /** Ends the participant's voice connection (4014 unless told otherwise). */
  endConnection(state: VoiceState, code?: number): void;
  /** Participants per call; op 4 beyond it is refused with 30050. */
  maxParticipants(): number;
  /** Guild voice channels' rules, dispatches and start time. */
  guilds: GuildCalls;
}

export class VoiceCalls {
  constructor(private readonly deps: CallsDeps) {}

  private get ctx(): PlatformKernel {
    return this.deps.ctx;
  }

  /**
   * Main-gateway op 4. Returns 'invalid' for a malformed payload (the gateway closes with 4001, like any invalid
   * payload); a well-formed request the platform cannot honour is answered with VOICE_JOIN_REFUSED. A bot session
   * has no lobbies: its op 4 must name a guild.
   */
  onVoiceStateUpdate(identity: GatewayIdentity, sessionId: string, d: unknown): true | 'invalid' {
    const parsed = voiceStateUpdateSchema.safeParse(d);
    if (!parsed.success) return 'invalid';
    const request = parsed.data;
    const guildId = request.guild_id ?? null;
    if (identity.kind !== 'user' && guildId === null) return 'invalid';
    const flags = { selfMute: request.self_mute, selfDeaf: request.self_deaf, selfVideo: request.self_video ?? false };
    if (request.channel_id === null) {
      // With a guild: leave that guild's voice channel (the user's one state there, whichever application's session
      // joined). Without: every call of the application, or only the lobby's (`lobby_id`, ours).
      const inGuild = guildId !== null ? this.deps.states.inGuild(guildId, identity.userId) : undefined;
      const leaving =
        guildId !== null
          ? inGuild
            ? [inGuild]
            : []
          : this.deps.states
              .ofUser(identity.userId, identity.applicationId)
              .filter((state) => request.lobby_id === undefined || state.lobbyId === request.lobby_id);
      for (const state of leaving) this.leave(state);
      return true;
    }
    const call = { lobbyId: request.channel_id, guildId };
    if (guildId !== null) {
      const refusal = this.deps.guilds.admit(identity.userId, guildId, call.lobbyId);
      if (refusal) return this.refuse(identity, call, refusal);
    } else {
      const lobby = this.ctx.store.lobbies.get(call.lobbyId);
      if (!lobby || lobby.applicationId !== identity.applicationId)
        return this.refuse(identity, call, JoinRefusal.unknownLobby);
      if (!this.ctx.store.lobbies.member(call.lobbyId, identity.userId))
        return this.refuse(identity, call, JoinRefusal.notMember);
    }
    return this.join(identity, sessionId, call, flags);
  }

  /** Puts the user in the call (lobby or guild channel) the request was admitted to. */
  private join(
    identity: GatewayIdentity,
    sessionId: string,
    call: { lobbyId: string; guildId: string | null },
    flags: Pick<VoiceState, 'selfMute' | 'selfDeaf' | 'selfVideo'>,
  ): true {
    // A user has one voice state per guild (published): joining another of its channels moves them.
    const current =
      call.guildId !== null
        ? this.deps.states.inGuild(call.guildId, identity.userId)
        : this.deps.states.get(call.lobbyId, identity.userId);
    const sameCall = current?.lobbyId === call.lobbyId;
    if (current && sameCall && current.sessionId === sessionId) {
      // Already in this call from this session: only the self flags change (no new voice server, no new token).
      Object.assign(current, flags);
      this.publishState(current, true);
      return true;
    }
    if (!sameCall && this.deps.states.count(call.lobbyId) >= this.deps.maxParticipants())
      return this.refuse(identity, call, JoinRefusal.callFull);
    if (current && !sameCall) {
      // Moved to another channel of the guild: the old call loses the participant without a "left" state (the new
      // state below says where they are), and its voice connection is closed.
      this.deps.states.remove(current);
      this.deps.endConnection(current, VoiceClose.Disconnected);
      this.deps.guilds.left(current);
    } else if (current) {
      // Joining from another session of the same user moves the call there: the old connection is ended first.
      this.deps.endConnection(current, VoiceClose.Disconnected);
    }
    const state: VoiceState = {
      ...call,
      applicationId: identity.applicationId,
      userId: identity.userId,
      sessionId,
      token: newVoiceToken(),
      ...flags,
    };
    this.deps.states.put(state);
    this.publishState(state, true);
    if (!sameCall) this.deps.guilds.joined(state);
    // Published shape: a guild call's VOICE_SERVER_UPDATE names the guild; a lobby call's (ours) names the lobby.
    const server =
      call.guildId !== null
        ? { token: state.token, guild_id: call.guildId }
        : { token: state.token, guild_id: null, channel_id: call.lobbyId };
    this.ctx.bus.publish({
      t: 'VOICE_SERVER_UPDATE',
      d: { ...server, endpoint: this.deps.endpoint() },
      to: { userIds: [state.userId], applicationId: state.applicationId },
    });
    return true;
  }

  /**
   * The participant leaves the call (op 4, left or removed from the lobby, lobby deleted, session gone, voice ended).
   */
  leave(state: VoiceState, closeCode: number = VoiceClose.Disconnected): void {
    if (!this.deps.states.remove(state)) return;
    this.deps.endConnection(state, closeCode);
    this.publishState(state, false);
    this.deps.guilds.left(state);
  }

  /**
   * A participant of a call another node hosted is gone with that node (voice/cluster-voice.ts): the call's audience
   * hears it as a leave. There is no local state, connection or guild bookkeeping to end here.
   */
  announceLeft(state: VoiceState): void {
    this.publishState(state, false);
  }

  /** Every call of the user for the application ends (their last gateway session is gone). */
  leaveAll(userId: string, applicationId: string): void {
    for (const state of this.deps.states.ofUser(userId, applicationId)) this.leave(state);
  }

  /** The users are no longer members of the lobby: they left or were removed (4014), or it is gone (4022). */
  leaveLobby(lobbyId: string, userIds: string[]): void {
    const code = this.ctx.store.lobbies.get(lobbyId) ? VoiceClose.Disconnected : VoiceClose.CallTerminated;
    for (const userId of userIds) {
      const state = this.deps.states.get(lobbyId, userId);
      if (state) this.leave(state, code);
    }
  }

  /**
   * A guild call's state goes to the guild (guild-calls.ts); a lobby call's to every member of the lobby and to the
   * participant itself (who may just have left it).
   */
  private publishState(state: VoiceState, inCall: boolean): void {
    if (state.guildId !== null) return this.deps.guilds.publishState(state, inCall);
    const members = this.ctx.store.lobbies.members(state.lobbyId).map((m) => m.userId);
    const userIds = members.includes(state.userId) ? members : [...members, state.userId];
    this.ctx.bus.publish({
      t: 'VOICE_STATE_UPDATE',
      d: voiceStateJson(state, inCall),
      to: { userIds, applicationId: state.applicationId },
    });
  }

  private refuse(identity: GatewayIdentity, call: { lobbyId: string; guildId: string | null }, refusal: Refusal): true {
    const names =
      call.guildId !== null ? { guild_id: call.guildId, channel_id: call.lobbyId } : { lobby_id: call.lobbyId };
    this.ctx.bus.publish({
      t: 'VOICE_JOIN_REFUSED',
      d: { ...names, code: refusal.code, message: refusal.message },
      to: { userIds: [identity.userId], applicationId: identity.applicationId },
    });
    return true;
  }
}
