/**
 * How an interaction reaches its application (PROTOCOL.md §17.2): INTERACTION_CREATE over the gateway to the
 * app's bot sessions (no intent needed), or — when the application set an interactions endpoint URL — a POST of
 * the interaction to that URL, signed with the application's Ed25519 key like webhook events, whose JSON answer is
 * the interaction response. Setting the URL first sends a PING (type 1) that must be answered with a PONG
 * (`{"type": 1}`).
 */
import type { PlatformKernel } from '../kernel.js';
import { fieldError } from '../http/errors.js';
import { dottedPath, parseClientJson } from '../http/json-input.js';
import type { OutboundHttpClient } from '../outbound/http-client.js';
import { assertOutboundUrl } from '../outbound/url-check.js';
import type { ApplicationRecord } from '../store/types.js';
import { signatureHeaders } from '../webhooks/signing.js';

/** The endpoint has this long to answer: the initial-response window (PROTOCOL.md §17.3). */
const ENDPOINT_TIMEOUT_MS = 3_000;

export type EndpointAnswer = { ok: true; body: unknown } | { ok: false; error: string };

export class InteractionDelivery {
  /** `http` sends to the endpoints: every request passes its outbound guard. */
  constructor(
    private readonly ctx: PlatformKernel,
    private readonly http: OutboundHttpClient,
  ) {}

  /** The app's endpoint URL, or null when interactions go over the gateway. */
  endpointOf(app: ApplicationRecord): string | null {
    return this.ctx.store.interactions.settings(app.id).endpointUrl;
  }

  toGateway(app: ApplicationRecord, payload: unknown): void {
    this.ctx.bus.publish({ t: 'INTERACTION_CREATE', d: payload, to: { userIds: [app.botUserId] } });
  }

  /** POSTs a signed interaction and reads the JSON answer. */
  async toEndpoint(app: ApplicationRecord, url: string, payload: unknown): Promise<EndpointAnswer> {
    const body = JSON.stringify(payload);
    try {
      const response = await this.http.request(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...signatureHeaders(app.privateKeyPem, body, Math.floor(this.ctx.now() / 1000)),
        },
        body,
        timeoutMs: ENDPOINT_TIMEOUT_MS,
        maxBytes: 1024 * 1024,
      });
      if (response.status < 200 || response.status >= 300) return { ok: false, error: `HTTP ${response.status}` };
      // Read as every input is (json-input.ts): the answer becomes a message others receive.
      const answer = parseClientJson(response.body.toString('utf8'));
      if (answer.ok) return { ok: true, body: answer.value };
      return {
        ok: false,
        error:
          answer.problem === 'invalid-json'
            ? 'The answer is not JSON.'
            : `The answer is not valid Unicode text (unpaired surrogate at ${dottedPath(answer.path)}).`,
      };
    } catch (cause) {
      return { ok: false, error: cause instanceof Error ? cause.message : String(cause) };
    }
  }

  /**
   * The PING check before an endpoint URL is saved (after the outbound guard's): a signed `{type: 1}` must come back as
   * `{type: 1}` (a receiver that does not verify signatures is the developer's problem; the published check also sends
   * a bad signature, which the receiver must refuse with 401 — done here too).
   */
  async verifyEndpoint(app: ApplicationRecord, url: string): Promise<void> {
    // Before anything is sent: a destination the outbound guard refuses is a field error of its own.
    await assertOutboundUrl(this.http.guard, ['interactions_endpoint_url'], url);
    const ping = { id: this.ctx.ids.next(), application_id: app.id, type: 1, token: 'ping', version: 1 };
    const answer = await this.toEndpoint(app, url, ping);
    const pong =
      answer.ok &&
      typeof answer.body === 'object' &&
      answer.body !== null &&
      (answer.body as { type?: unknown }).type === 1;
    if (!pong)
      throw fieldError(
        ['interactions_endpoint_url'],
        'APPLICATION_INTERACTIONS_ENDPOINT_URL_INVALID',
        'The specified interactions endpoint url could not be verified.',
      );
    // A forged request (signature of other bytes) must be refused.
    const body = JSON.stringify(ping);
    const forged = { ...signatureHeaders(app.privateKeyPem, `${body} `, Math.floor(this.ctx.now() / 1000)) };
    let refused: boolean;
    try {
      const response = await this.http.request(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...forged },
        body,
        timeoutMs: ENDPOINT_TIMEOUT_MS,
      });
      refused = response.status === 401;
    } catch {
      refused = false;
    }
    if (!refused)
      throw fieldError(
        ['interactions_endpoint_url'],
        'APPLICATION_INTERACTIONS_ENDPOINT_URL_INVALID',
        'The specified interactions endpoint url accepted a request with an invalid signature.',
      );
  }
}
