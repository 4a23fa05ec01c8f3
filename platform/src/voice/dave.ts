/**
 * The extension point for DAVE end-to-end encryption (voice opcodes 21–31, PROTOCOL.md §13.7). The voice gateway
 * asks it whether a client may join at all and which protocol version a session gets, routes every DAVE opcode
 * (JSON or binary) to it, and tells it who joins and leaves. The DAVE delivery service (dave/service.ts) implements
 * it; NO_DAVE (a platform started with `voice.requireE2ee: false`) negotiates version 0 (transport encryption only)
 * and ignores the DAVE opcodes a client may send anyway.
 */
import type { VoiceSession } from './session.js';

/** What the gateway offers the extension. */
export interface DaveHost {
  /** Closes the session's voice connection with a close code (as if the gateway had refused the payload). */
  refuse(session: VoiceSession, code: number, reason: string): void;
}

export interface DaveExtension {
  /** Called once by the gateway. */
  bind?(host: DaveHost): void;
  /** At Identify (`session.maxDaveVersion` known): a close code to refuse the client, or nothing. */
  admit?(session: VoiceSession): number | void;
  /** The `dave_protocol_version` of Session Description for a client announcing `maxClientVersion` (0 = none). */
  negotiate(session: VoiceSession, maxClientVersion: number): number;
  /**
   * A DAVE opcode from the client: JSON `d` or a binary payload (after the opcode byte). Returns a close code to
   * refuse it, or nothing.
   */
  onClientOp(session: VoiceSession, op: number, payload: unknown): number | void;
  /** The session's media became live in the call (after Select Protocol) or left it. */
  joined(session: VoiceSession, others: VoiceSession[]): void;
  left(session: VoiceSession, others: VoiceSession[]): void;
}

export const NO_DAVE: DaveExtension = {
  negotiate: () => 0,
  onClientOp: () => undefined,
  joined: () => undefined,
  left: () => undefined,
};
