import http from 'node:http';
import https from 'node:https';

export interface TestResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  body: any;
}

export interface TestRequest {
  method?: string;
  headers?: Record<string, string>;
  /** JSON body (sets content-type). */
  json?: unknown;
  /** Form body (sets content-type). */
  form?: Record<string, string>;
  /** Raw body with the given headers. */
  raw?: string | Buffer;
  /** Trusted CA for https URLs. */
  ca?: string;
}

let defaultCa: string | undefined;

/** Trusts this certificate in every later request that names no `ca` (TLS platforms behind helpers that take none). */
export function trustCaByDefault(ca: string | undefined): void {
  defaultCa = ca;
}

/** One HTTP request over a real socket; never follows redirects; parses JSON bodies when possible. */
export function request(url: string, options: TestRequest = {}): Promise<TestResponse> {
  const target = new URL(url);
  const headers: Record<string, string> = { ...options.headers };
  let payload: string | Buffer | undefined = options.raw;
  if (options.json !== undefined) {
    payload = JSON.stringify(options.json);
    headers['content-type'] ??= 'application/json';
  }
  if (options.form !== undefined) {
    payload = new URLSearchParams(options.form).toString();
    headers['content-type'] ??= 'application/x-www-form-urlencoded';
  }
  // Node frames a GET/DELETE body only with an explicit length (it would otherwise send it unframed).
  if (payload !== undefined) headers['content-length'] ??= String(Buffer.byteLength(payload));
  const transport = target.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = transport.request(
      target,
      {
        method: options.method ?? (payload !== undefined ? 'POST' : 'GET'),
        headers,
        agent: false,
        ...((options.ca ?? defaultCa) ? { ca: options.ca ?? defaultCa } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown;
          try {
            body = text ? JSON.parse(text) : undefined;
          } catch {
            body = text;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

export const bot = (token: string) => ({ authorization: `Bot ${token}` });
export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/**
 * One of the platform's error bodies: `{code, message}` (+ `errors`), the OAuth2 `{error, error_description}`, or a
 * 429's.
 */
export function isOurErrorBody(response: TestResponse): boolean {
  const value = response.body as Record<string, unknown> | undefined;
  if (typeof value !== 'object' || value === null) return false;
  if (typeof value.code === 'number' && typeof value.message === 'string') return true;
  if (typeof value.error === 'string' && typeof value.error_description === 'string') return true;
  return response.status === 429 && typeof value.retry_after === 'number';
}
