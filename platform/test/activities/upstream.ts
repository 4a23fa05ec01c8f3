/**
 * A local HTTP server the activity proxy tests map to (the "external host"): fixed binary and large bodies, any
 * status code, repeated and hop-by-hop response headers, and an echo of what reached it (method, path and query,
 * headers as sent, a digest of the body).
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** Every byte value, 16 times over: a body no text decoding would leave intact. */
export const BINARY = Buffer.from(Array.from({ length: 4096 }, (_, i) => i % 256));

/** Deterministic bytes, larger than any socket read or buffer when `bytes` is large. */
export function largeBody(bytes: number): Buffer {
  const out = Buffer.alloc(bytes);
  for (let offset = 0, block = 0; offset < bytes; block++)
    offset += createHash('sha512').update(`block ${block}`).digest().copy(out, offset);
  return out;
}

export const BIG = largeBody(8 * 1024 * 1024 + 123);

export interface Upstream {
  host: string;
  port: number;
  /** Requests that reached it, in order (echo route or not). */
  seen: Array<{ method: string; url: string }>;
  close(): Promise<void>;
}

export async function startUpstream(): Promise<Upstream> {
  const seen: Upstream['seen'] = [];
  const server = http.createServer((req, res) => {
    // No Date: answers are then byte-for-byte repeatable.
    res.sendDate = false;
    seen.push({ method: req.method!, url: req.url! });
    const url = new URL(req.url!, 'http://upstream');
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const path = url.pathname;
      if (path.endsWith('/binary'))
        return void res
          .writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': BINARY.length })
          .end(BINARY);
      if (path.endsWith('/big'))
        return void res.writeHead(200, { 'Content-Type': 'application/octet-stream' }).end(BIG);
      const status = /\/status\/(\d{3})$/.exec(path);
      if (status) {
        const code = Number(status[1]);
        const headers: Record<string, string> = {
          'Content-Type': 'text/plain; charset=utf-8',
          'X-Status': String(code),
        };
        if (code >= 300 && code < 400) headers.Location = '/elsewhere?x=1';
        return void res.writeHead(code, headers).end(code === 204 || code === 304 ? undefined : `status ${code}`);
      }
      if (path.endsWith('/headers')) {
        res.setHeader('Set-Cookie', ['a=1; Path=/', 'b=2; Path=/']);
        res.setHeader('X-Repeated', ['one', 'two']);
        res.setHeader('X-Up-Hop', 'must not pass');
        res.setHeader('Connection', 'X-Up-Hop');
        res.setHeader('Proxy-Authenticate', 'Basic realm="upstream"');
        res.setHeader('Cache-Control', 'max-age=60');
        return void res.writeHead(201).end('headers');
      }
      // Everything else: the echo.
      const echo = {
        method: req.method,
        url: req.url,
        rawHeaders: req.rawHeaders,
        bodyLength: body.length,
        bodySha256: createHash('sha256').update(body).digest('hex'),
      };
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(echo));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    host: `127.0.0.1:${port}`,
    port,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface RawResponse {
  status: number;
  statusMessage: string;
  rawHeaders: string[];
  body: Buffer;
}

/** One request over a fresh socket, answer kept raw: status, headers as sent (names, order, repeats), body bytes. */
export function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: Buffer } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    // host/port/path rather than the URL: a URL would resolve `.` and `..` segments before sending.
    const parsed = new URL(url);
    const path = url.slice(url.indexOf('/', parsed.protocol.length + 2));
    const headers = {
      ...options.headers,
      ...(options.body !== undefined && { 'content-length': String(options.body.length) }),
    };
    const req = http.request(
      { host: parsed.hostname, port: parsed.port, path, method: options.method ?? 'GET', headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            statusMessage: res.statusMessage!,
            rawHeaders: res.rawHeaders,
            body: Buffer.concat(chunks),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** Header names of a raw header list, lower case. */
export const headerNames = (raw: string[]) => raw.filter((_, i) => i % 2 === 0).map((name) => name.toLowerCase());

/** Values of one header in a raw header list. */
export const headerValues = (raw: string[], name: string) =>
  raw.flatMap((value, i) => (i % 2 === 1 && raw[i - 1]!.toLowerCase() === name ? [value] : []));
