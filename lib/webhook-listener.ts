// The node:http adapter of WebhookReceiver (part of `svcpp/server`): `http.createServer(webhookListener(...))` or
// a route of any framework that hands over node's request and response.
import type http from 'node:http';
import type { WebhookEventHandler, WebhookOutcome, WebhookReceiver } from './webhook-receiver.js';

export interface WebhookListenerOptions {
  /** Larger bodies are refused with 413 before verification (default 1 MiB). */
  maxBodyBytes?: number;
  /** Told about every non-204 outcome (refused signature, handler error…); default: console.error of the error. */
  onRefused?: (outcome: WebhookOutcome) => void;
}

const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** A request listener answering the platform: POST only, the raw body verified as received, no response body. */
export function webhookListener(
  receiver: WebhookReceiver,
  onEvent: WebhookEventHandler,
  options: WebhookListenerOptions = {},
): http.RequestListener {
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const onRefused =
    options.onRefused ??
    ((outcome) => console.error(`svcpp: webhook request answered ${outcome.status}:`, outcome.error));
  return (req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST' }).end();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBodyBytes) chunks.push(chunk);
    });
    req.on('end', () => {
      if (size > maxBodyBytes) {
        res.writeHead(413).end();
        return;
      }
      void receiver.receive(req.headers, Buffer.concat(chunks), onEvent).then((outcome) => {
        res.writeHead(outcome.status).end();
        if (outcome.status !== 204) onRefused(outcome);
      });
    });
  };
}
