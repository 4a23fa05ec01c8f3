import type { OutboundHttpClient } from '../outbound/http-client.js';
import type { ApplicationRecord } from '../store/types.js';
import { WEBHOOK_PING } from '../webhooks/events.js';
import { signatureHeaders } from '../webhooks/signing.js';

export interface TestDeliveryResult {
  ok: boolean;
  /** What the page shows: the receiver's status, or why there was none. */
  detail: string;
}

/**
 * The portal's "Send test event": a PING envelope `{version: 1, application_id, type: 0}` — what the public
 * service sends to check a webhook URL — signed exactly like every event (Ed25519 over timestamp || body), sent
 * at once and outside the outbox (a test is never retried), with the outbox's timeout. A 2xx answer is a success.
 */
export async function sendTestEvent(
  http: OutboundHttpClient,
  app: ApplicationRecord,
  options: { timeoutMs: number; nowMs: number },
): Promise<TestDeliveryResult> {
  if (!app.webhookUrl) return { ok: false, detail: 'Set a webhook URL first.' };
  const body = JSON.stringify({ version: 1, application_id: app.id, type: WEBHOOK_PING });
  try {
    const response = await http.request(app.webhookUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...signatureHeaders(app.privateKeyPem, body, Math.floor(options.nowMs / 1000)),
      },
      body,
      timeoutMs: options.timeoutMs,
      maxBytes: 64 * 1024,
    });
    const ok = response.status >= 200 && response.status < 300;
    return { ok, detail: `The receiver answered HTTP ${response.status}.` };
  } catch (error) {
    return { ok: false, detail: `No answer: ${error instanceof Error ? error.message : String(error)}.` };
  }
}
