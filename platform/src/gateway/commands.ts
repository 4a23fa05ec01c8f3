/**
 * Decisions about client commands, separated from their effects: each function validates a payload and says what
 * the gateway must do (go ahead, close with a code, or answer op 9). gateway.ts applies the outcome.
 */
import { Close, MAX_INTENTS, PRIVILEGED_INTENTS } from './protocol.js';
import {
  heartbeatSchema,
  identifySchema,
  presenceSchema,
  resumeSchema,
  type Identify,
  type Presence,
} from './schemas.js';
import type { Session } from './session.js';
import type { GatewayIdentity } from './types.js';

export type Refusal = { close: number; reason: string };

export function parseHeartbeat(d: unknown): { seq: number | null } | Refusal {
  const parsed = heartbeatSchema.safeParse(d ?? null);
  return parsed.success ? { seq: parsed.data } : { close: Close.UnknownOpcode, reason: 'Invalid heartbeat payload.' };
}

export function parsePresence(d: unknown): { presence: Presence } | Refusal {
  const parsed = presenceSchema.safeParse(d);
  return parsed.success
    ? { presence: parsed.data }
    : { close: Close.UnknownOpcode, reason: 'Invalid presence payload.' };
}

/** Identify: shape (4001), token (4004), shard (4010), intents (4013/4014) — in the order the server checks them. */
export function checkIdentify(
  d: unknown,
  authenticate: (token: string) => GatewayIdentity | null,
): { identity: GatewayIdentity; identify: Identify } | Refusal {
  const parsed = identifySchema.safeParse(d);
  if (!parsed.success) return { close: Close.UnknownOpcode, reason: 'Invalid identify payload.' };
  const identify = parsed.data;
  const identity = authenticate(identify.token);
  if (!identity) return { close: Close.AuthenticationFailed, reason: 'Authentication failed.' };
  if (identify.shard) {
    const [shardId, shardCount] = identify.shard;
    if (shardCount < 1 || shardId < 0 || shardId >= shardCount)
      return { close: Close.InvalidShard, reason: 'Invalid shard.' };
  }
  const intents = identify.intents;
  if (intents === undefined) {
    // User sessions get what their scopes allow; the intents field is a bot-gateway concept there
    // (PROTOCOL.md §20.2).
    if (identity.kind === 'bot') return { close: Close.InvalidIntents, reason: 'Invalid intent(s).' };
  } else {
    if (!Number.isInteger(intents) || intents < 0 || intents > MAX_INTENTS)
      return { close: Close.InvalidIntents, reason: 'Invalid intent(s).' };
    if (identity.kind === 'bot') {
      const flags = identity.applicationFlags ?? 0;
      if (PRIVILEGED_INTENTS.some((p) => (intents & p.intent) !== 0 && (flags & p.flags) === 0)) {
        return { close: Close.DisallowedIntents, reason: 'Disallowed intent(s).' };
      }
    }
  }
  return { identity, identify };
}

const MESSAGE_CONTENT = PRIVILEGED_INTENTS.find((p) => p.intent === 1 << 15)!;

/**
 * The intents a session is served with. On gateway v9 a bot whose application holds the message content grant gets
 * MESSAGE_CONTENT without asking for it, as the published v9 does; v10 requires the bit in Identify.
 */
export function sessionIntents(identify: Identify, identity: GatewayIdentity, version: number): number {
  const intents = identify.intents ?? 0;
  const granted = ((identity.applicationFlags ?? 0) & MESSAGE_CONTENT.flags) !== 0;
  return version === 9 && identity.kind === 'bot' && granted ? intents | MESSAGE_CONTENT.intent : intents;
}

export type ResumeDecision<S extends Session = Session> =
  { resume: S; seq: number } | { invalidSession: true; destroy?: S } | (Refusal & { destroy?: S });

/**
 * Resume of a session held by another node: when the payload, the token and the session's owner all check out,
 * the session id to claim; otherwise null, and checkResume gives the answer (refusal or op 9) as for any resume.
 */
export function checkRemoteResume(
  d: unknown,
  authenticate: (token: string) => GatewayIdentity | null,
  findRemote: (sessionId: string) => { identity: GatewayIdentity } | undefined,
): string | null {
  const parsed = resumeSchema.safeParse(d);
  if (!parsed.success) return null;
  const remote = findRemote(parsed.data.session_id);
  if (!remote) return null;
  const identity = authenticate(parsed.data.token);
  if (
    !identity ||
    identity.userId !== remote.identity.userId ||
    identity.applicationId !== remote.identity.applicationId
  )
    return null;
  return parsed.data.session_id;
}

/**
 * Resume: shape (4001), token (4004), then the session: unknown, someone else's or expired → op 9 false; a `seq`
 * the session never sent → 4007 (the session is gone); a `seq` older than the replay ring → op 9 false.
 */
export function checkResume<S extends Session>(
  d: unknown,
  authenticate: (token: string) => GatewayIdentity | null,
  find: (sessionId: string) => S | undefined,
): ResumeDecision<S> {
  const parsed = resumeSchema.safeParse(d);
  if (!parsed.success) return { close: Close.UnknownOpcode, reason: 'Invalid resume payload.' };
  const { token, session_id: sessionId, seq } = parsed.data;
  const identity = authenticate(token);
  if (!identity) return { close: Close.AuthenticationFailed, reason: 'Authentication failed.' };
  const session = find(sessionId);
  // Another user's session is reported exactly like a missing one, so session ids cannot be probed.
  if (!session || session.userId !== identity.userId || session.applicationId !== identity.applicationId) {
    return { invalidSession: true };
  }
  if (seq < 0 || seq > session.ring.lastSeq)
    return { close: Close.InvalidSeq, reason: 'Invalid seq.', destroy: session };
  if (!session.ring.canReplayAfter(seq)) return { invalidSession: true, destroy: session };
  return { resume: session, seq };
}
