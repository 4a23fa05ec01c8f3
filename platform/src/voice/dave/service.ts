/**
 * The DAVE delivery service (PROTOCOL.md §13.7): the platform as each call's MLS external sender. It negotiates the
 * protocol version, refuses clients without DAVE when end-to-end encryption is required, and routes opcodes 23,
 * 26, 28 and 31 to the call's DaveCall. The relay is untouched: DAVE frames are opaque Opus payloads to it.
 */
import type { Logger } from 'pino';
import { z } from 'zod';
import type { DaveExtension, DaveHost } from '../dave.js';
import { VoiceClose } from '../protocol.js';
import type { VoiceSession } from '../session.js';
import { DaveCall } from './call.js';
import { ExternalSenderKey } from './mls.js';
import { DAVE_PROTOCOL_VERSION, DaveOp } from './ops.js';

export interface DaveServiceOptions {
  logger: Logger;
  /** How long a transition waits for every member's op 23 before op 22 goes out anyway (default 3,000 ms). */
  transitionTimeoutMs?: number;
  /** Test observer: a commit was dropped, and why. */
  onCommitDropped?(lobbyId: string, problem: string): void;
}

export const DEFAULT_TRANSITION_TIMEOUT_MS = 3000;

const transitionSchema = z.object({ transition_id: z.int().min(0).max(0xffff) });

export class DaveService implements DaveExtension {
  private readonly calls = new Map<string, DaveCall>();
  private host: DaveHost | null = null;

  constructor(private readonly options: DaveServiceOptions) {}

  bind(host: DaveHost): void {
    this.host = host;
  }

  /** No unencrypted calls: a client that announces no DAVE support is refused at Identify with 4017. */
  admit(session: VoiceSession): number | void {
    if (session.maxDaveVersion < DAVE_PROTOCOL_VERSION) return VoiceClose.E2eeRequired;
  }

  negotiate(_session: VoiceSession, maxClientVersion: number): number {
    return Math.min(maxClientVersion, DAVE_PROTOCOL_VERSION);
  }

  onClientOp(session: VoiceSession, op: number, payload: unknown): number | void {
    const call = this.calls.get(session.lobbyId);
    // DAVE ops before Select Protocol (no group to talk about yet) or ops only the server sends: protocol violations.
    if (!call || !call.sessions.has(session.userId)) return VoiceClose.BadRequest;
    switch (op) {
      case DaveOp.KeyPackage:
        if (!Buffer.isBuffer(payload)) return VoiceClose.BadRequest;
        void call.enqueue(() => call.onKeyPackage(session, payload));
        return;
      case DaveOp.CommitWelcome:
        if (!Buffer.isBuffer(payload)) return VoiceClose.BadRequest;
        void call.enqueue(() => call.onCommit(session, payload));
        return;
      case DaveOp.TransitionReady: {
        const parsed = transitionSchema.safeParse(payload);
        if (!parsed.success) return VoiceClose.BadRequest;
        void call.enqueue(() => call.onReady(session, parsed.data.transition_id));
        return;
      }
      case DaveOp.InvalidCommitWelcome: {
        const parsed = transitionSchema.safeParse(payload);
        if (!parsed.success) return VoiceClose.BadRequest;
        void call.enqueue(() => call.onInvalid(session));
        return;
      }
      default:
        return VoiceClose.UnknownOpcode;
    }
  }

  joined(session: VoiceSession): void {
    let call = this.calls.get(session.lobbyId);
    if (!call) {
      const created = new DaveCall(session.lobbyId, null, {
        refuse: (s, code, reason) => this.host?.refuse(s, code, reason),
        transitionTimeoutMs: this.options.transitionTimeoutMs ?? DEFAULT_TRANSITION_TIMEOUT_MS,
        logger: this.options.logger,
        ...(this.options.onCommitDropped && { onCommitDropped: this.options.onCommitDropped }),
      });
      this.calls.set(session.lobbyId, (call = created));
    }
    call.joined(session, () => ExternalSenderKey.create());
  }

  left(session: VoiceSession): void {
    const call = this.calls.get(session.lobbyId);
    if (!call) return;
    void call.left(session).then(() => {
      if (call.empty && this.calls.get(session.lobbyId) === call) {
        call.dispose();
        this.calls.delete(session.lobbyId);
      }
    });
  }

  /** The call's DAVE state, for tests and the dev stats: epoch and leaves. */
  describe(lobbyId: string): { epoch: bigint; leaves: (string | null)[] } | null {
    const call = this.calls.get(lobbyId);
    return call ? { epoch: call.epoch, leaves: [...call.leaves] } : null;
  }
}
