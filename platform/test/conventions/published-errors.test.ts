/** One table of the JSON error codes the platform answers with (src/http/published-errors.ts), referred to by name. */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PUBLISHED_ERRORS, publishedError, publishedRefusal } from '../../src/http/published-errors.js';
import { bot, request } from '../support/http.js';
import { createApp, startTestPlatform } from '../support/platform.js';
import { SRC, sourceFiles } from '../support/sources.js';

describe('the published-error table', () => {
  it('is the one place a numeric error code is written: no ApiError with a literal non-zero code elsewhere', () => {
    const inline: string[] = [];
    for (const file of sourceFiles()) {
      if (file.endsWith('published-errors.ts')) continue;
      for (const [n, line] of readFileSync(file, 'utf8').split('\n').entries()) {
        if (/new ApiError\(\s*\d+\s*,\s*[1-9]\d*\s*,/.test(line))
          inline.push(`${relative(SRC, file)}:${n + 1}: ${line.trim()}`);
      }
    }
    expect(inline).toEqual([]);
  });

  it('has one entry per (status, code, message): no entry restates another', () => {
    const seen = new Map<string, string>();
    for (const [name, entry] of Object.entries(PUBLISHED_ERRORS)) {
      const key = `${entry.status} ${entry.code} ${entry.message}`;
      expect(seen.get(key), `${name} repeats ${seen.get(key)}`).toBeUndefined();
      seen.set(key, name);
    }
  });

  it('fills the placeholders of a message and keeps status, code and extra headers', () => {
    const error = publishedError('MAX_LOBBY_MEMBERS', { limit: 25 });
    expect([error.status, error.code, error.message]).toEqual([
      400,
      30050,
      'Maximum number of lobby members reached (25)',
    ]);
    expect(publishedError('SLOWMODE', {}, { 'Retry-After': '3' }).headers).toEqual({ 'Retry-After': '3' });
    expect(publishedRefusal('MISSING_PERMISSIONS')).toEqual({ code: 50013, message: 'Missing Permissions' });
    expect(publishedRefusal('INVALID_OIDC_JWT')).toEqual({ code: 530020, message: 'Invalid OIDC JWT: {reason}' });
  });

  it('is what the wire carries: an unknown channel answers the table entry as the JSON error body', async () => {
    const platform = await startTestPlatform();
    try {
      const app = await createApp(platform, { name: 'Error Table Game', bot: true });
      const answer = await request(`${platform.apiBase}/channels/1/messages`, { headers: bot(app.bot_token) });
      const { status, code, message } = PUBLISHED_ERRORS.UNKNOWN_CHANNEL;
      expect(answer.status).toBe(status);
      expect(answer.body).toEqual({ code, message });
    } finally {
      await platform.close();
    }
  });
});
