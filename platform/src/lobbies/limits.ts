/**
 * Lobby limits (PROTOCOL.md §10.5 "Limits"), each overridable through `options.lobbyLimits`. Defaults are the
 * SDK's documented values; tests and benchmarks shrink or raise them.
 */
export interface LobbyLimits {
  /** Members per lobby. */
  maxMembers: number;
  /** Lobbies one user can be a member of, per application. */
  maxLobbiesPerUser: number;
  /** Lobby and member metadata: keys per map, key length (1…), value length (0…). */
  metadataMaxKeys: number;
  metadataKeyMaxLength: number;
  metadataValueMaxLength: number;
  /** Moderation metadata of a lobby message. */
  moderationMaxKeys: number;
  moderationKeyMaxLength: number;
  moderationValueMaxLength: number;
  /** Join secret length (1…). */
  secretMaxLength: number;
  /** How long a secret stays joinable after the lobby was created with it (the lobby survives). */
  secretJoinableSeconds: number;
  /** Member `additional_name` length (1…). */
  additionalNameMaxLength: number;
  /** Members per create/patch/bulk call. */
  maxMembersPerCall: number;
  /** Lobby message content length (1…). */
  messageMaxLength: number;
  /** How far back message history reaches (messages older than this are deleted). */
  historySeconds: number;
  /** GET messages `limit`: maximum and default. */
  historyMaxLimit: number;
  historyDefaultLimit: number;
  /** `idle_timeout_seconds`: default and allowed range. */
  idleTimeoutDefaultSeconds: number;
  idleTimeoutMinSeconds: number;
  idleTimeoutMaxSeconds: number;
  /** Lifetime of a linked-channel guild invite. */
  inviteSeconds: number;
  /** How often the idle sweeper looks for lobbies to delete (and prunes old messages and invites). */
  sweepIntervalMs: number;
}

export const DEFAULT_LOBBY_LIMITS: LobbyLimits = {
  maxMembers: 1_000,
  maxLobbiesPerUser: 100,
  metadataMaxKeys: 25,
  metadataKeyMaxLength: 1_024,
  metadataValueMaxLength: 1_024,
  moderationMaxKeys: 5,
  moderationKeyMaxLength: 1_024,
  moderationValueMaxLength: 2_000,
  secretMaxLength: 250,
  secretJoinableSeconds: 30 * 86_400,
  additionalNameMaxLength: 80,
  maxMembersPerCall: 25,
  messageMaxLength: 2_000,
  historySeconds: 72 * 3_600,
  historyMaxLimit: 200,
  historyDefaultLimit: 50,
  idleTimeoutDefaultSeconds: 300,
  idleTimeoutMinSeconds: 5,
  idleTimeoutMaxSeconds: 604_800,
  inviteSeconds: 3_600,
  sweepIntervalMs: 1_000,
};
