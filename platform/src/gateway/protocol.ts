/**
 * Opcodes and close codes of the main gateway v10 (published v10; what each close code does to the session:
 * PROTOCOL.md §20.6).
 */

export const Op = {
  Dispatch: 0,
  Heartbeat: 1,
  Identify: 2,
  PresenceUpdate: 3,
  VoiceStateUpdate: 4,
  Resume: 6,
  Reconnect: 7,
  RequestGuildMembers: 8,
  InvalidSession: 9,
  Hello: 10,
  HeartbeatAck: 11,
} as const;

export const Close = {
  /** Client ends its session on purpose (1000 or 1001). */
  Normal: 1000,
  GoingAway: 1001,
  UnknownError: 4000,
  UnknownOpcode: 4001,
  DecodeError: 4002,
  NotAuthenticated: 4003,
  AuthenticationFailed: 4004,
  AlreadyAuthenticated: 4005,
  InvalidSeq: 4007,
  RateLimited: 4008,
  SessionTimedOut: 4009,
  InvalidShard: 4010,
  ShardingRequired: 4011,
  InvalidApiVersion: 4012,
  InvalidIntents: 4013,
  DisallowedIntents: 4014,
} as const;

/**
 * What happens to the session behind a connection that closes with a code (the published reconnect class;
 * PROTOCOL.md §20.6).
 */
export type CloseOutcome = 'resume' | 'new-session' | 'terminal';

const NEW_SESSION = new Set<number>([Close.InvalidSeq, Close.SessionTimedOut]);
const TERMINAL = new Set<number>([
  Close.AuthenticationFailed,
  Close.InvalidShard,
  Close.ShardingRequired,
  Close.InvalidApiVersion,
  Close.InvalidIntents,
  Close.DisallowedIntents,
]);

export function closeOutcome(code: number): CloseOutcome {
  if (TERMINAL.has(code)) return 'terminal';
  if (NEW_SESSION.has(code)) return 'new-session';
  return 'resume';
}

/** Privileged intents and the application flags that allow them (full or "limited" variant). */
export const PRIVILEGED_INTENTS: ReadonlyArray<{ intent: number; flags: number }> = [
  { intent: 1 << 1, flags: (1 << 14) | (1 << 15) }, // GUILD_MEMBERS ← GATEWAY_GUILD_MEMBERS(_LIMITED)
  { intent: 1 << 8, flags: (1 << 12) | (1 << 13) }, // GUILD_PRESENCES ← GATEWAY_PRESENCE(_LIMITED)
  { intent: 1 << 15, flags: (1 << 18) | (1 << 19) }, // MESSAGE_CONTENT ← GATEWAY_MESSAGE_CONTENT(_LIMITED)
];

/** Intents are a 31-bit field on the wire here; higher bits are rejected with 4013. */
export const MAX_INTENTS = 2 ** 31 - 1;

/** API versions this gateway speaks: v10, and v9 because the observed SDK protocol uses it (PROTOCOL.md §20.1). */
export const SUPPORTED_VERSIONS: ReadonlySet<string> = new Set(['9', '10']);
