/**
 * Log redaction end to end: every token, code, verifier and state that passes through the SDK during a full
 * sign-in (OAuth2 + PKCE, refresh, provisional token, connect) is kept out of the log callback and the log file.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, LoggingSeverity } from '../../lib/index.js';
import { BACKENDS } from '../backends.js';
import {
  approveAuthorizeUrl,
  createFullUser,
  provisionalToken,
  startE2EPlatform,
  type E2EPlatform,
} from './harness.js';
import { e2eClient } from './support.js';

describe.each(BACKENDS)('log redaction over %s', (backend) => {
  let e2e: E2EPlatform;
  let dir: string;
  beforeAll(async () => {
    e2e = await startE2EPlatform();
    dir = mkdtempSync(join(tmpdir(), 'svcpp-logs-'));
  });
  afterAll(async () => {
    await e2e.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('never writes a secret to the log callback or the log file', async () => {
    const lines: string[] = [];
    const secrets: string[] = [];
    {
      await using client = e2eClient(e2e, backend, { logMinSeverity: LoggingSeverity.Verbose });
      client.on('log', (line) => lines.push(line));
      expect(client.setLogDir(dir, LoggingSeverity.Verbose)).toBe(true);

      const username = `redact_${backend}`;
      await createFullUser(e2e, { username });
      const { verifier, challenge } = client.createAuthorizationCodeVerifier();
      let state = '';
      const { code, redirectUri } = await client.authorize(
        { scopes: Client.defaultCommunicationScopes, codeChallenge: challenge },
        {
          openUrl: (url) => {
            state = new URL(url).searchParams.get('state')!;
            void approveAuthorizeUrl(e2e, url, username);
          },
        },
      );
      const tokens = await client.getToken({ code, codeVerifier: verifier, redirectUri });
      const refreshed = await client.refreshToken({ refreshToken: tokens.refreshToken! });
      const provisional = await provisionalToken(e2e, `redact-${backend}`);
      await client.fetchCurrentUser(provisional);
      await client.updateToken(refreshed.accessToken);
      await client.connect();
      await client.disconnect();
      secrets.push(
        verifier,
        state,
        code,
        tokens.accessToken,
        tokens.refreshToken!,
        refreshed.accessToken,
        refreshed.refreshToken!,
        provisional,
      );
    }
    const file = readFileSync(join(dir, 'svcpp.log'), 'utf8');
    expect(lines.length).toBeGreaterThan(5);
    expect(file).toMatch(/\[Info\] status Ready/);
    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThanOrEqual(20);
      expect(lines.filter((line) => line.includes(secret))).toEqual([]);
      expect(file.includes(secret)).toBe(false);
    }
  });

  it('reports a log directory it cannot open and keeps the previous file', async () => {
    await using client = new Client({ backend });
    expect(client.setLogDir(join(dir, 'does', 'not', 'exist'), LoggingSeverity.Info)).toBe(false);
    expect(client.setLogDir(dir, LoggingSeverity.None)).toBe(true);
  });
});
