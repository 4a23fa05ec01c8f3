import { createPublicKey, verify } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eventually } from './platform.js';

export interface ReceivedWebhook {
  headers: http.IncomingHttpHeaders;
  raw: string;
  body: any;
}

/** A webhook endpoint that records what it receives and answers with `status` (204 by default). */
export interface WebhookReceiver {
  url: string;
  status: number;
  received: ReceivedWebhook[];
  /** Every request, whatever it was answered with (re-deliveries of a refused event included). */
  requests: ReceivedWebhook[];
  /** Waits for an event of this type (optionally matching more) and returns it. */
  waitForEvent(type: string, match?: (event: ReceivedWebhook) => boolean): Promise<ReceivedWebhook>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(port = 0): Promise<WebhookReceiver> {
  const state: WebhookReceiver = {
    url: '',
    status: 204,
    received: [],
    requests: [],
    waitForEvent: (type, match = () => true) =>
      eventually(() => state.received.find((event) => event.body?.event?.type === type && match(event))),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const webhook = { headers: req.headers, raw, body: JSON.parse(raw) };
      state.requests.push(webhook);
      if (state.status >= 200 && state.status < 300) state.received.push(webhook);
      res.writeHead(state.status);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  return state;
}

/** Verifies the published signature scheme with node:crypto: Ed25519 over timestamp || raw body. */
export function signatureIsValid(publicKeyHex: string, webhook: ReceivedWebhook): boolean {
  const spki = Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), Buffer.from(publicKeyHex, 'hex')]);
  const key = createPublicKey({ key: spki, format: 'der', type: 'spki' });
  const timestamp = String(webhook.headers['x-signature-timestamp']);
  const signature = Buffer.from(String(webhook.headers['x-signature-ed25519']), 'hex');
  return verify(null, Buffer.concat([Buffer.from(timestamp), Buffer.from(webhook.raw)]), key, signature);
}
