/**
 * Lobby calls (PROTOCOL.md §13.1–13.2): main-gateway op 4 joins, updates and leaves a lobby's call; the dispatches
 * go out from here. A lobby call is the lobby's voice channel: `channel_id = lobby id`, `guild_id: null`, members
 * only. Every lobby member's sessions get VOICE_STATE_UPDATE (so the SDK's participant-changed callback fires for
 * members outside the call too); the joiner's sessions get VOICE_SERVER_UPDATE with a fresh token.
 */
import type { PlatformContext } from '../context.js';
import type { GatewayIdentity } from '../gateway/types.js';
import { VoiceClose } from './protocol.js';
import { voiceStateUpdateSchema } from './schemas.js';
import { newVoiceToken, voiceStateJson, type VoiceState, type VoiceStates } from './voice-states.js';

/** Why op 4 could not put the user in the call (VOICE_JOIN_REFUSED `code`, HTTP-style codes). */
export const JoinRefusal = {
  unknownLobby: { code: 10031, message: 'Unknown Lobby' },
  notMember: { code: 50001, message: 'Missing Access' },
  callFull: { code: 30050, message: 'Maximum number of call participants reached' },
  guildCall: { code: 50024, message: 'Guild voice channels are not served: join a lobby call with guild_id null' },
} as const;

export interface CallsDeps {
  ctx: PlatformContext;
  states: VoiceStates;
  /** host:port of the voice gateway (VOICE_SERVER_UPDATE `endpoint`). */
  endpoint(): string;
  /** Ends the participant's voice connection (4014 unless told otherwise). */
  endConnection(state: VoiceState, code?: number): void;
  /** Participants per call; op 4 beyond it is refused with 30050. */
  maxParticipants(): number;
}

export class VoiceCalls {
  constructor(private readonly deps: CallsDeps) {}

  private get ctx(): PlatformContext {
    return this.deps.ctx;
  }

  /**
   * Main-gateway op 4 of a user session. Returns 'invalid' for a malformed payload (the gateway closes with 4001,
   * like any invalid payload); a well-formed request the platform cannot honour is answered with VOICE_JOIN_REFUSED.
   */
  onVoiceStateUpdate(identity: GatewayIdentity, sessionId: string, d: unknown): true | 'invalid' {
    const parsed = voiceStateUpdateSchema.safeParse(d);
    if (!parsed.success || identity.kind !== 'user') return 'invalid';
    const request = parsed.data;
    const flags = { selfMute: request.self_mute, selfDeaf: request.self_deaf, selfVideo: request.self_video ?? false };
    if (request.channel_id === null) {
      const leaving = this.deps.states.ofUser(identity.userId, identity.applicationId);
      for (const state of leaving) if (request.lobby_id === undefined || state.lobbyId === request.lobby_id) this.leave(state);
      return true;
    }
    const lobbyId = request.channel_id;
    if (request.guild_id) return this.refuse(identity, lobbyId, JoinRefusal.guildCall);
    const lobby = this.ctx.store.lobbies.get(lobbyId);
    if (!lobby || lobby.applicationId !== identity.applicationId) return this.refuse(identity, lobbyId, JoinRefusal.unknownLobby);
    if (!this.ctx.store.lobbies.member(lobbyId, identity.userId)) return this.refuse(identity, lobbyId, JoinRefusal.notMember);

    const current = this.deps.states.get(lobbyId, identity.userId);
    if (current && current.sessionId === sessionId) {
      // Already in this call from this session: only the self flags change (no new voice server, no new token).
      Object.assign(current, flags);
      this.publishState(current, true);
      return true;
    }
    if (!current && this.deps.states.count(lobbyId) >= this.deps.maxParticipants()) return this.refuse(identity, lobbyId, JoinRefusal.callFull);
    // Joining from another session of the same user moves the call there: the old connection is ended first.
    if (current) this.deps.endConnection(current, VoiceClose.Disconnected);
    const state: VoiceState = { lobbyId, applicationId: identity.applicationId, userId: identity.userId, sessionId, token: newVoiceToken(), ...flags };
    this.deps.states.put(state);
    this.publishState(state, true);
    this.ctx.bus.publish({
      t: 'VOICE_SERVER_UPDATE',
      d: { token: state.token, guild_id: null, channel_id: lobbyId, endpoint: this.deps.endpoint() },
      to: { userIds: [state.userId], applicationId: state.applicationId },
    });
    return true;
  }

  /** The participant leaves the call (op 4, left or removed from the lobby, lobby deleted, session gone, voice ended). */
  leave(state: VoiceState, closeCode: number = VoiceClose.Disconnected): void {
    if (!this.deps.states.remove(state)) return;
    this.deps.endConnection(state, closeCode);
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

  /** VOICE_STATE_UPDATE to every member of the lobby and to the participant itself (who may just have left it). */
  private publishState(state: VoiceState, inCall: boolean): void {
    const members = this.ctx.store.lobbies.members(state.lobbyId).map((m) => m.userId);
    const userIds = members.includes(state.userId) ? members : [...members, state.userId];
    this.ctx.bus.publish({ t: 'VOICE_STATE_UPDATE', d: voiceStateJson(state, inCall), to: { userIds, applicationId: state.applicationId } });
  }

  private refuse(identity: GatewayIdentity, lobbyId: string, refusal: { code: number; message: string }): true {
    this.ctx.bus.publish({
      t: 'VOICE_JOIN_REFUSED',
      d: { lobby_id: lobbyId, code: refusal.code, message: refusal.message },
      to: { userIds: [identity.userId], applicationId: identity.applicationId },
    });
    return true;
  }
}
