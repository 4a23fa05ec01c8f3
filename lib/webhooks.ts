// Verifying the platform's webhook events (part of `svcpp/server`): every POST to the application's webhook URL is
// signed with the application's Ed25519 key over `X-Signature-Timestamp` bytes || raw body bytes, hex in
// `X-Signature-Ed25519` (the published scheme). A server must check the signature on the exact bytes received,
// before parsing: re-serialised JSON would not verify. node:crypto only.
import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import { fromWire } from './server-ids.js';

/** Stable codes of SvcppWebhookError. */
export type SvcppWebhookErrorCode =
  /** The public key is not 32 bytes of hex (a configuration error, thrown by the constructor). */
  | 'ERR_SVCPP_WEBHOOK_INVALID_KEY'
  /** `X-Signature-Ed25519` or `X-Signature-Timestamp` is absent or empty. */
  | 'ERR_SVCPP_WEBHOOK_MISSING_SIGNATURE'
  /** The signature does not verify: tampered body or timestamp, another application's key, or malformed hex. */
  | 'ERR_SVCPP_WEBHOOK_INVALID_SIGNATURE'
  /** The timestamp is not Unix seconds within `maxTimestampAgeSeconds` of now (a replayed or delayed request). */
  | 'ERR_SVCPP_WEBHOOK_STALE_TIMESTAMP'
  /** Signed, but not a webhook envelope this version understands. */
  | 'ERR_SVCPP_WEBHOOK_INVALID_BODY';

export class SvcppWebhookError extends Error {
  override readonly name = 'SvcppWebhookError';

  constructor(
    /** Stable machine-readable code; the message is for humans and may change. */
    readonly code: SvcppWebhookErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** Envelope `type` values (published). */
export const WebhookType = { Ping: 0, Event: 1 } as const;

/** The platform checking that the URL answers (answer 204 with no body). */
export interface WebhookPing {
  type: typeof WebhookType.Ping;
  applicationId: bigint;
}

/** An event (`APPLICATION_AUTHORIZED`, `APPLICATION_DEAUTHORIZED`, `LOBBY_MESSAGE_CREATE`, …). */
export interface WebhookEvent {
  type: typeof WebhookType.Event;
  applicationId: bigint;
  /**
   * The event's stable id (`event.id`): the same on every re-delivery of the event, since delivery is at least
   * once. The key for de-duplication; undefined when the platform sends none.
   */
  id: bigint | undefined;
  /** `event.type`, e.g. `APPLICATION_DEAUTHORIZED`. */
  eventType: string;
  /** `event.timestamp` (ISO 8601) as sent: when the event happened, not when this attempt was made. */
  timestamp: string;
  /** `event.data`, as sent (snake_case JSON; ids are decimal strings there). */
  data: unknown;
}

export type WebhookMessage = WebhookPing | WebhookEvent;

/** Request headers as node:http gives them (lower-case names); other frameworks' plain objects work too. */
export type WebhookHeaders = Record<string, string | string[] | undefined>;

export interface WebhookVerifierOptions {
  /** The application's public key: 64 hex characters (the platform prints it at start-up as `public key`). */
  publicKey: string;
  /**
   * How far `X-Signature-Timestamp` may be from this machine's clock, in seconds (default 300), either way: a
   * captured request cannot be replayed later. The platform stamps each attempt anew, so retries pass.
   */
  maxTimestampAgeSeconds?: number;
}

const DEFAULT_MAX_TIMESTAMP_AGE_SECONDS = 300;
/** An Ed25519 SPKI (DER) is this fixed header followed by the raw 32-byte key. */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
const HEX_KEY = /^[0-9a-fA-F]{64}$/;
const HEX_SIGNATURE = /^[0-9a-fA-F]{128}$/;
const UNIX_SECONDS = /^[0-9]{1,12}$/;

/** Checks signed webhook requests of one application. Stateless: see WebhookReceiver for de-duplication. */
export class WebhookVerifier {
  private readonly key: KeyObject;
  private readonly maxAgeSeconds: number;

  constructor(options: WebhookVerifierOptions) {
    if (typeof options.publicKey !== 'string' || !HEX_KEY.test(options.publicKey)) {
      throw new SvcppWebhookError(
        'ERR_SVCPP_WEBHOOK_INVALID_KEY',
        "svcpp: publicKey must be the application's Ed25519 public key as 64 hex characters",
      );
    }
    const maxAge = options.maxTimestampAgeSeconds ?? DEFAULT_MAX_TIMESTAMP_AGE_SECONDS;
    if (!Number.isFinite(maxAge) || maxAge <= 0)
      throw new RangeError('svcpp: maxTimestampAgeSeconds must be a positive number');
    this.key = createPublicKey({
      key: Buffer.concat([ED25519_SPKI_PREFIX, Buffer.from(options.publicKey, 'hex')]),
      format: 'der',
      type: 'spki',
    });
    this.maxAgeSeconds = maxAge;
  }

  /**
   * The verified, parsed message of one request; throws SvcppWebhookError otherwise (answer 401 for the signature
   * codes, as the platform expects). `rawBody` must be the bytes received, unparsed.
   */
  verify(headers: WebhookHeaders, rawBody: Buffer | string): WebhookMessage {
    const signature = singleHeader(headers, 'x-signature-ed25519');
    const timestamp = singleHeader(headers, 'x-signature-timestamp');
    if (signature === undefined || timestamp === undefined) {
      throw new SvcppWebhookError(
        'ERR_SVCPP_WEBHOOK_MISSING_SIGNATURE',
        'svcpp: the request has no X-Signature-Ed25519 / X-Signature-Timestamp header',
      );
    }
    const body = typeof rawBody === 'string' ? Buffer.from(rawBody) : rawBody;
    // The signature covers the timestamp, so it is checked first: a stale but genuine request is told apart from a
    // forgery.
    const signed = Buffer.concat([Buffer.from(timestamp), body]);
    if (!HEX_SIGNATURE.test(signature) || !verify(null, signed, this.key, Buffer.from(signature, 'hex'))) {
      throw new SvcppWebhookError(
        'ERR_SVCPP_WEBHOOK_INVALID_SIGNATURE',
        'svcpp: the webhook signature does not verify with this public key',
      );
    }
    const ageSeconds = Math.abs(Date.now() / 1000 - Number(timestamp));
    if (!UNIX_SECONDS.test(timestamp) || ageSeconds > this.maxAgeSeconds) {
      throw new SvcppWebhookError(
        'ERR_SVCPP_WEBHOOK_STALE_TIMESTAMP',
        `svcpp: X-Signature-Timestamp ${timestamp} is not within ${this.maxAgeSeconds} s of now`,
      );
    }
    return parseEnvelope(body);
  }
}

/** The header's value (`name` in lower case; any case matches); undefined when absent, empty or a list. */
function singleHeader(headers: WebhookHeaders, name: string): string | undefined {
  const value = headers[name] ?? Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

interface WireEnvelope {
  version?: unknown;
  application_id?: unknown;
  type?: unknown;
  event?: { id?: unknown; type?: unknown; timestamp?: unknown; data?: unknown };
}

const SNOWFLAKE_TEXT = /^[0-9]{1,20}$/;

function invalidBody(why: string): SvcppWebhookError {
  return new SvcppWebhookError('ERR_SVCPP_WEBHOOK_INVALID_BODY', `svcpp: the webhook body ${why}`);
}

/** The published envelope `{version: 1, application_id, type, event?: {id?, type, timestamp, data}}`. */
function parseEnvelope(body: Buffer): WebhookMessage {
  let envelope: WireEnvelope;
  try {
    envelope = JSON.parse(body.toString('utf8')) as WireEnvelope;
  } catch {
    throw invalidBody('is not JSON');
  }
  if (typeof envelope !== 'object' || envelope === null) throw invalidBody('is not a JSON object');
  if (envelope.version !== 1) throw invalidBody(`has version ${String(envelope.version)}, expected 1`);
  if (typeof envelope.application_id !== 'string' || !SNOWFLAKE_TEXT.test(envelope.application_id))
    throw invalidBody('has no application_id');
  const applicationId = fromWire(envelope.application_id);
  if (envelope.type === WebhookType.Ping) return { type: WebhookType.Ping, applicationId };
  if (envelope.type !== WebhookType.Event) throw invalidBody(`has unknown type ${String(envelope.type)}`);
  const event = envelope.event;
  if (
    typeof event !== 'object' ||
    event === null ||
    typeof event.type !== 'string' ||
    typeof event.timestamp !== 'string'
  ) {
    throw invalidBody('has no event {type, timestamp}');
  }
  if (event.id !== undefined && (typeof event.id !== 'string' || !SNOWFLAKE_TEXT.test(event.id)))
    throw invalidBody('has an event.id that is not a snowflake');
  return {
    type: WebhookType.Event,
    applicationId,
    id: event.id === undefined ? undefined : fromWire(event.id),
    eventType: event.type,
    timestamp: event.timestamp,
    data: event.data,
  };
}
