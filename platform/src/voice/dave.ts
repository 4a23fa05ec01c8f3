/**
 * The extension point for DAVE end-to-end encryption (voice opcodes 21–31, PROTOCOL.md §13.7). The voice gateway
 * asks it which protocol version a session gets, routes every DAVE opcode (JSON or binary) to it, and tells it who
 * joins and leaves; a DAVE delivery service (MLS external sender, proposals, commits, welcomes, transitions) will
 * implement this interface. Until then NO_DAVE negotiates version 0 (transport encryption only) and ignores the
 * DAVE opcodes a client may send anyway.
 */
import type { VoiceSession } from './session.js';

export interface DaveExtension {
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
