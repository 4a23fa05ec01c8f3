import http from 'node:http';
import https from 'node:https';
import { rootCertificates } from 'node:tls';
import { OUTBOUND_VIA, OutboundGuard } from './guard.js';

export interface OutboundRequest {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  timeoutMs: number;
  /** Largest response body read; longer bodies fail the request. */
  maxBytes?: number;
}

export interface OutboundResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/**
 * Outgoing HTTP(S) for identity-provider discovery, key sets, webhooks and interactions endpoints. Every request
 * passes the outbound guard first and connects to the address it checked (guard.ts), carrying the platform's
 * `Via`. node:http never follows redirects, which is what the issuer rules and the guard require; a 3xx comes back
 * as a plain response for the caller to reject. Trusts the system roots plus the platform's extra CAs (self-signed
 * test issuers and receivers).
 */
export class OutboundHttpClient {
  private readonly ca: string[] | undefined;

  constructor(
    extraCaPems: string[],
    readonly guard: OutboundGuard,
  ) {
    this.ca = extraCaPems.length > 0 ? [...rootCertificates, ...extraCaPems] : undefined;
  }

  async request(url: string, options: OutboundRequest): Promise<OutboundResponse> {
    const target = new URL(url);
    const destination = await this.guard.destination(target);
    const transport = target.protocol === 'https:' ? https : http;
    const maxBytes = options.maxBytes ?? 1024 * 1024;
    return new Promise((resolve, reject) => {
      const request = transport.request(
        target,
        {
          method: options.method ?? 'GET',
          headers: { 'user-agent': 'svcpp-platform', ...options.headers, via: OUTBOUND_VIA },
          timeout: options.timeoutMs,
          // A name connects to the address the guard checked, not to a second answer of the resolver.
          lookup: OutboundGuard.pinnedLookup(destination),
          ...(target.protocol === 'https:' && this.ca ? { ca: this.ca } : {}),
          agent: false,
        },
        (response) => {
          const chunks: Buffer[] = [];
          let size = 0;
          response.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > maxBytes) {
              request.destroy(new Error(`response larger than ${maxBytes} bytes`));
              return;
            }
            chunks.push(chunk);
          });
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
          );
          response.on('error', reject);
        },
      );
      request.on('timeout', () => request.destroy(new Error(`timed out after ${options.timeoutMs} ms`)));
      request.on('error', reject);
      request.end(options.body);
    });
  }
}
