import { GatewayClient } from '../support/gateway-client.js';
import { bot, request, type TestResponse } from '../support/http.js';
import type { BotFixture } from './fixture.js';

export const INTENTS = {
  GUILDS: 1,
  GUILD_MEMBERS: 2,
  GUILD_INVITES: 1 << 6,
  GUILD_PRESENCES: 1 << 8,
  GUILD_MESSAGES: 1 << 9,
  MESSAGE_CONTENT: 1 << 15,
};

export function botCall(
  f: BotFixture,
  method: string,
  path: string,
  json?: unknown,
  headers: Record<string, string> = {},
): Promise<TestResponse> {
  return request(`${f.platform.apiBase}${path}`, {
    method,
    headers: { ...bot(f.botToken), ...headers },
    ...(json !== undefined && { json }),
  });
}

/** A bot session that records every dispatch; `next(t)` waits for the next one of that name. */
export async function botSession(f: BotFixture, intents: number) {
  const client = new GatewayClient({ url: f.platform.gatewayUrl, token: f.botToken, intents, autoReconnect: false });
  const seen: Array<{ t: string; d: any }> = [];
  const waiters: Array<{ t: string; resolve: (d: any) => void }> = [];
  client.on('dispatch', (t: string, d: unknown) => {
    const waiter = waiters.findIndex((w) => w.t === t);
    if (waiter >= 0) waiters.splice(waiter, 1)[0]!.resolve(d);
    else seen.push({ t, d });
  });
  const ready = (await client.connect()) as any;
  return {
    client,
    ready,
    seen,
    next(t: string): Promise<any> {
      const index = seen.findIndex((e) => e.t === t);
      if (index >= 0) return Promise.resolve(seen.splice(index, 1)[0]!.d);
      return new Promise((resolve) => waiters.push({ t, resolve }));
    },
    close: () => client.close(),
  };
}

export function multipart(parts: Array<{ name: string; filename?: string; type?: string; body: string | Buffer }>): {
  headers: Record<string, string>;
  raw: Buffer;
} {
  const boundary = 'svcppboundary' + Math.random().toString(36).slice(2);
  const chunks: Buffer[] = [];
  for (const part of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"`;
    if (part.filename) head += `; filename="${part.filename}"`;
    head += '\r\n';
    if (part.type) head += `Content-Type: ${part.type}\r\n`;
    chunks.push(
      Buffer.from(head + '\r\n'),
      Buffer.isBuffer(part.body) ? part.body : Buffer.from(part.body),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, raw: Buffer.concat(chunks) };
}

export async function botMultipart(
  f: BotFixture,
  method: string,
  path: string,
  parts: Parameters<typeof multipart>[0],
): Promise<TestResponse> {
  const body = multipart(parts);
  return request(`${f.platform.apiBase}${path}`, {
    method,
    headers: { ...bot(f.botToken), ...body.headers },
    raw: body.raw,
  });
}
