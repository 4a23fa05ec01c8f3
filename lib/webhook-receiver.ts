// Receiving webhook events (part of `svcpp/server`): verification (webhooks.ts), PING, and de-duplication of the
// at-least-once delivery by event id (recent-event-ids.ts), with the HTTP status the platform should get. Framework
// neutral; webhook-listener.ts adapts it to node:http.
import { RecentEventIds } from './recent-event-ids.js';
import {
  SvcppWebhookError,
  WebhookType,
  WebhookVerifier,
  type WebhookEvent,
  type WebhookHeaders,
  type WebhookMessage,
  type WebhookVerifierOptions,
} from './webhooks.js';

export interface WebhookReceiverOptions extends WebhookVerifierOptions {
  /**
   * How many recent event ids this process remembers to drop re-deliveries (default 10,000; 0 turns it off).
   * Per process and lost on restart: with several processes, de-duplicate in a shared store by `event.id`.
   */
  rememberEventIds?: number;
}

/** Called once per event (re-deliveries of a handled event are not passed on). Throw to have it delivered again. */
export type WebhookEventHandler = (event: WebhookEvent) => void | Promise<void>;

/** What happened to one request, and the status to answer with (no body in every case). */
export interface WebhookOutcome {
  /** 204 handled (or PING, or a duplicate); 401 signature refused; 400 body refused; 409 the same event is being
   *  handled by another request right now; 500 the handler threw (the platform will deliver it again). */
  status: 204 | 400 | 401 | 409 | 500;
  message?: WebhookMessage;
  /** The event was handled before and was not passed to the handler again. */
  duplicate?: boolean;
  /** The verification error (400/401) or what the handler threw (500). */
  error?: unknown;
}

const DEFAULT_REMEMBERED_EVENT_IDS = 10_000;

export class WebhookReceiver {
  readonly verifier: WebhookVerifier;
  private readonly recent: RecentEventIds;

  constructor(options: WebhookReceiverOptions) {
    this.verifier = new WebhookVerifier(options);
    this.recent = new RecentEventIds(options.rememberEventIds ?? DEFAULT_REMEMBERED_EVENT_IDS);
  }

  /** Verifies one request and passes a new event to `onEvent`; never throws (the outcome carries the error). */
  async receive(
    headers: WebhookHeaders,
    rawBody: Buffer | string,
    onEvent: WebhookEventHandler,
  ): Promise<WebhookOutcome> {
    let message: WebhookMessage;
    try {
      message = this.verifier.verify(headers, rawBody);
    } catch (error) {
      const bodyRefused = error instanceof SvcppWebhookError && error.code === 'ERR_SVCPP_WEBHOOK_INVALID_BODY';
      return { status: bodyRefused ? 400 : 401, error };
    }
    if (message.type === WebhookType.Ping) return { status: 204, message };
    const id = message.id;
    // Without an id (an older platform) every delivery is handed over: the handler must then be idempotent.
    const claim = id === undefined ? 'new' : this.recent.claim(id);
    if (claim === 'handled') return { status: 204, message, duplicate: true };
    if (claim === 'in-progress') return { status: 409, message, duplicate: true };
    try {
      await onEvent(message);
    } catch (error) {
      if (id !== undefined) this.recent.forget(id);
      return { status: 500, message, error };
    }
    if (id !== undefined) this.recent.finish(id);
    return { status: 204, message };
  }
}
