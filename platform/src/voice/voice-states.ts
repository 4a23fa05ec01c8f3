/**
 * Who is in which call — a lobby's call or a guild voice channel's. Voice states live in memory only: like the
 * published platform's, they describe live connections, and nobody is connected after a restart (PROTOCOL.md §13.1).
 */
import { randomBytes } from 'node:crypto';

export interface VoiceState {
  /**
   * The call: the lobby id of a lobby call, the channel id of a guild voice channel's call (PROTOCOL.md §13.8). Relay,
   * voice gateway and DAVE group calls by it (the DAVE group id is this id).
   */
  lobbyId: string;
  /** The guild of a guild voice channel's call; null for a lobby call. */
  guildId: string | null;
  applicationId: string;
  userId: string;
  /** The main-gateway session that sent op 4 (voice Identify must name it). */
  sessionId: string;
  selfMute: boolean;
  selfDeaf: boolean;
  selfVideo: boolean;
  /** Voice server token of this join (VOICE_SERVER_UPDATE); a new join issues a new one. */
  token: string;
}

/**
 * Voice Identify's and Resume's `server_id`: the guild id of a guild call (published), the lobby id of a lobby call.
 */
export function voiceServerId(state: VoiceState): string {
  return state.guildId ?? state.lobbyId;
}

/** The voice state object of a lobby call (published shape; `guild_id: null` and our `lobby_id`). */
export function voiceStateJson(state: VoiceState, inCall = true): Record<string, unknown> {
  return {
    guild_id: null,
    channel_id: inCall ? state.lobbyId : null,
    lobby_id: state.lobbyId,
    user_id: state.userId,
    ...sessionFields(state),
  };
}

/**
 * The fields of the voice state object that describe the connection, the same in every kind of call: server
 * mute/deafen, streaming and stage suppression are not modelled (always false / null).
 */
export function sessionFields(state: VoiceState): Record<string, unknown> {
  return {
    session_id: state.sessionId,
    deaf: false,
    mute: false,
    self_deaf: state.selfDeaf,
    self_mute: state.selfMute,
    self_stream: false,
    self_video: state.selfVideo,
    suppress: false,
    request_to_speak_timestamp: null,
  };
}

export function newVoiceToken(): string {
  return randomBytes(16).toString('hex');
}

/** Told of every join and leave (voice/cluster-voice.ts records them for the other nodes). */
export interface VoiceStatesObserver {
  put(state: VoiceState): void;
  removed(state: VoiceState): void;
}

export class VoiceStates {
  private readonly byLobby = new Map<string, Map<string, VoiceState>>();
  private readonly byToken = new Map<string, VoiceState>();
  observer: VoiceStatesObserver | undefined;

  get(lobbyId: string, userId: string): VoiceState | undefined {
    return this.byLobby.get(lobbyId)?.get(userId);
  }

  byVoiceToken(token: string): VoiceState | undefined {
    return this.byToken.get(token);
  }

  /** The call's participants in join order. */
  inLobby(lobbyId: string): VoiceState[] {
    return [...(this.byLobby.get(lobbyId)?.values() ?? [])];
  }

  count(lobbyId: string): number {
    return this.byLobby.get(lobbyId)?.size ?? 0;
  }

  /** Every call of the user for the application. */
  ofUser(userId: string, applicationId: string): VoiceState[] {
    const out: VoiceState[] = [];
    for (const calls of this.byLobby.values()) {
      const state = calls.get(userId);
      if (state && state.applicationId === applicationId) out.push(state);
    }
    return out;
  }

  /** The user's state in a voice channel of the guild (one per guild, whichever application's session joined). */
  inGuild(guildId: string, userId: string): VoiceState | undefined {
    for (const calls of this.byLobby.values()) {
      const state = calls.get(userId);
      if (state && state.guildId === guildId) return state;
    }
    return undefined;
  }

  /** Every participant of the guild's voice channels. */
  ofGuild(guildId: string): VoiceState[] {
    const out: VoiceState[] = [];
    for (const calls of this.byLobby.values())
      for (const state of calls.values()) if (state.guildId === guildId) out.push(state);
    return out;
  }

  put(state: VoiceState): void {
    const previous = this.get(state.lobbyId, state.userId);
    if (previous) this.byToken.delete(previous.token);
    let calls = this.byLobby.get(state.lobbyId);
    if (!calls) this.byLobby.set(state.lobbyId, (calls = new Map()));
    calls.set(state.userId, state);
    this.byToken.set(state.token, state);
    this.observer?.put(state);
  }

  /** Forgets the state if it is still the current one (a newer join of the same user replaced it otherwise). */
  remove(state: VoiceState): boolean {
    const calls = this.byLobby.get(state.lobbyId);
    if (calls?.get(state.userId) !== state) return false;
    calls.delete(state.userId);
    if (calls.size === 0) this.byLobby.delete(state.lobbyId);
    this.byToken.delete(state.token);
    this.observer?.removed(state);
    return true;
  }
}
