/** Interaction tokens in URL paths never reach the request log (PROTOCOL.md §17.3). */
import { describe, expect, it } from 'vitest';
import { startPlatform } from '../../src/index.js';
import { redactPathTokens, requestLogValue } from '../../src/logger.js';

describe('request log URLs', () => {
  it('cut the token out of the interaction callback and webhook paths', () => {
    expect(redactPathTokens('/api/v10/interactions/123/aW50.secret/callback?with_response=true')).toBe(
      '/api/v10/interactions/123/[redacted]/callback?with_response=true',
    );
    expect(redactPathTokens('/api/v10/webhooks/42/aW50.secret/messages/@original')).toBe(
      '/api/v10/webhooks/42/[redacted]/messages/@original',
    );
    expect(redactPathTokens('/api/webhooks/42/aW50.secret?wait=true')).toBe('/api/webhooks/42/[redacted]?wait=true');
    expect(redactPathTokens('/api/v10/channels/1/messages')).toBe('/api/v10/channels/1/messages');
  });

  it('the request serializer applies it', () => {
    const value = requestLogValue({ method: 'POST', url: '/api/v10/interactions/1/tok/callback', ip: '127.0.0.1' });
    expect(value).toEqual({
      method: 'POST',
      url: '/api/v10/interactions/1/[redacted]/callback',
      host: undefined,
      remoteAddress: '127.0.0.1',
      remotePort: undefined,
    });
  });

  it('a running platform logs the callback route without the token', async () => {
    const lines: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    // The platform logger writes to stdout; read what it writes while one request is made.
    process.stdout.write = ((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    }) as typeof process.stdout.write;
    try {
      const platform = await startPlatform({ port: 0 });
      await fetch(`${platform.apiBase}/interactions/123/the-secret-token/callback`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"type":4}',
      });
      await platform.close();
    } finally {
      process.stdout.write = write;
    }
    const log = lines.join('');
    expect(log).toContain('/interactions/123/[redacted]/callback');
    expect(log).not.toContain('the-secret-token');
  });
});
