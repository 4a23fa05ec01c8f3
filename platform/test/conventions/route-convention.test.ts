/** The route convention (PROTOCOL.md §2 "Route convention") and the one schema-migration system. */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { CORE_SCHEMA_MIGRATIONS } from '../../src/store/sqlite/core-schema.js';
import { bearer, bot, request } from '../support/http.js';
import { startTestPlatform, tempDir } from '../support/platform.js';

describe('one API prefix', () => {
  it('serves every /api route under /api/v10, except the unversioned aliases of the OAuth2 endpoints', async () => {
    const platform = await startTestPlatform();
    try {
      const apiRoutes = platform.routes.filter((route) => route.url.startsWith('/api/'));
      expect(apiRoutes.length).toBeGreaterThan(40);
      const outside = apiRoutes.filter(
        (route) => !route.url.startsWith('/api/v10/') && !route.url.startsWith('/api/oauth2/'),
      );
      expect(outside).toEqual([]);
    } finally {
      await platform.close();
    }
  });
});

describe('route options', () => {
  it('authenticates before it validates: a bad body without credentials is 401, with them 50035 with field errors', async () => {
    const platform = await startTestPlatform();
    try {
      const url = `${platform.apiBase}/lobbies`;
      const anonymous = await request(url, { method: 'POST', json: { idle_timeout_seconds: 'x' } });
      expect(anonymous.status).toBe(401);
      const authed = await request(url, {
        method: 'POST',
        headers: bot(platform.devApp.botToken),
        json: { idle_timeout_seconds: 'x' },
      });
      expect(authed.status).toBe(400);
      expect(authed.body).toMatchObject({
        code: 50035,
        errors: { idle_timeout_seconds: { _errors: [{ code: 'NUMBER_TYPE_COERCE' }] } },
      });
    } finally {
      await platform.close();
    }
  });

  it('refuses a body encoding the route does not take with CONTENT_TYPE_INVALID, after authentication', async () => {
    const platform = await startTestPlatform();
    try {
      const response = await request(`${platform.apiBase}/lobbies`, {
        method: 'POST',
        headers: { ...bot(platform.devApp.botToken), 'content-type': 'application/x-www-form-urlencoded' },
        raw: 'secret=a',
      });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 50035, errors: { _errors: [{ code: 'CONTENT_TYPE_INVALID' }] } });
    } finally {
      await platform.close();
    }
  });

  it('validates query strings with the same field errors as bodies', async () => {
    const platform = await startTestPlatform();
    try {
      const response = await request(`${platform.apiBase}/users/@me/guilds?limit=0`, {
        method: 'GET',
        headers: bot(platform.devApp.botToken),
      });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({
        code: 50035,
        errors: { limit: { _errors: [{ code: 'NUMBER_TYPE_MIN' }] } },
      });
    } finally {
      await platform.close();
    }
  });

  it('an unknown user token on a bot-only route is 50025 before the body is looked at', async () => {
    const platform = await startTestPlatform();
    try {
      const response = await request(`${platform.apiBase}/lobbies`, {
        method: 'POST',
        headers: bearer('not-a-token'),
        json: { flags: 'x' },
      });
      expect(response.status).toBe(401);
      expect(response.body).toMatchObject({ code: 50025 });
    } finally {
      await platform.close();
    }
  });
});

describe('one migration system', () => {
  it('records every area in meta, the core area included', () => {
    const path = join(tempDir(), 'areas.db');
    openSqliteStore(path).close();
    const db = new Database(path);
    try {
      const rows = db.prepare("SELECT key, value FROM meta WHERE key LIKE 'schema:%'").all() as Array<{
        key: string;
        value: string;
      }>;
      expect(Object.fromEntries(rows.map((row) => [row.key, Number(row.value)]))).toMatchObject({
        'schema:core': CORE_SCHEMA_MIGRATIONS.length,
      });
    } finally {
      db.close();
    }
  });

  it('carries a database whose core version was kept in PRAGMA user_version over without re-running migrations', () => {
    const path = join(tempDir(), 'legacy.db');
    openSqliteStore(path).close();
    // What a database written before the change looks like: core version in user_version, no schema:core row.
    const legacy = new Database(path);
    legacy.prepare("DELETE FROM meta WHERE key = 'schema:core'").run();
    legacy.pragma(`user_version = ${CORE_SCHEMA_MIGRATIONS.length}`);
    legacy.close();

    const store = openSqliteStore(path);
    store.close();
    const db = new Database(path);
    try {
      const row = db.prepare("SELECT value FROM meta WHERE key = 'schema:core'").get() as { value: string } | undefined;
      // Nothing left to apply, so nothing re-ran (a re-run CREATE TABLE would have thrown) and no row was needed.
      expect(row).toBeUndefined();
      expect(db.pragma('user_version', { simple: true })).toBe(CORE_SCHEMA_MIGRATIONS.length);
    } finally {
      db.close();
    }
  });
});
