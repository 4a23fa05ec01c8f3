/**
 * Voice gateway v8 constants (PROTOCOL.md §13 Voice): opcodes, close codes, versions and transport encryption
 * modes, exactly as published, so existing voice clients interoperate.
 */

export const VoiceOp = {
  Identify: 0,
  SelectProtocol: 1,
  Ready: 2,
  Heartbeat: 3,
  SessionDescription: 4,
  Speaking: 5,
  HeartbeatAck: 6,
  Resume: 7,
  Hello: 8,
  Resumed: 9,
  ClientsConnect: 11,
  ClientDisconnect: 13,
} as const;

/** DAVE (end-to-end encryption) opcodes 21–31: routed to the DaveExtension (dave.ts), not handled here. */
export const DAVE_FIRST_OP = 21;
export const DAVE_LAST_OP = 31;

export function isDaveOp(op: number): boolean {
  return op >= DAVE_FIRST_OP && op <= DAVE_LAST_OP;
}

export const VoiceClose = {
  UnknownOpcode: 4001,
  DecodeError: 4002,
  NotAuthenticated: 4003,
  AuthenticationFailed: 4004,
  AlreadyAuthenticated: 4005,
  SessionNoLongerValid: 4006,
  SessionTimeout: 4009,
  ServerNotFound: 4011,
  UnknownProtocol: 4012,
  /** Kicked, left, channel or session gone: clients must not reconnect. */
  Disconnected: 4014,
  /** Clients resume after it (used by the dev "drop" hook's close variant). */
  ServerCrashed: 4015,
  UnknownEncryptionMode: 4016,
  E2eeRequired: 4017,
  BadRequest: 4020,
  RateLimited: 4021,
  CallTerminated: 4022,
} as const;

/**
 * Close codes after which the voice state (and its token) stays, so the client may Identify again ("reconnect
 * (full)" in the published client policy). Every other server close ends the participant's call.
 */
export const RECONNECTABLE_CLOSES: ReadonlySet<number> = new Set([
  VoiceClose.UnknownOpcode,
  VoiceClose.DecodeError,
  VoiceClose.NotAuthenticated,
  VoiceClose.AlreadyAuthenticated,
  VoiceClose.SessionNoLongerValid,
  VoiceClose.SessionTimeout,
  VoiceClose.ServerNotFound,
  VoiceClose.ServerCrashed,
]);

/** `?v=` values served: 4–8 (v8 adds `seq` and buffered resume). Missing or below 4 is refused with 4020. */
export const MIN_VOICE_VERSION = 4;
export const MAX_VOICE_VERSION = 8;

/** The two live AEAD modes, in the server's order of preference (clients take the first they support). */
export const ENCRYPTION_MODES = ['aead_aes256_gcm_rtpsize', 'aead_xchacha20_poly1305_rtpsize'] as const;
export type EncryptionMode = (typeof ENCRYPTION_MODES)[number];

export function isEncryptionMode(mode: string): mode is EncryptionMode {
  return (ENCRYPTION_MODES as readonly string[]).includes(mode);
}

/** Heartbeat interval announced in Hello (Ready's `heartbeat_interval` is published as "ignore it"). */
export const DEFAULT_HEARTBEAT_INTERVAL_MS = 13_750;
