import type { SqlDatabase } from '../sql-database.js';
import type { MetaRepository, SigningKeyRepository } from '../types.js';
import { str, type Row } from './rows.js';

export function sqliteSigningKeys(db: SqlDatabase): SigningKeyRepository {
  const insert = db.prepare(
    `INSERT INTO signing_keys (kid, alg, private_jwk, public_jwk, created_at)
     VALUES (@kid, @alg, @privateJwk, @publicJwk, @createdAt)`,
  );
  const list = db.prepare('SELECT * FROM signing_keys ORDER BY created_at DESC');
  return {
    insert: (key) => void insert.run(key),
    list: () =>
      (list.all() as Row[]).map((row) => ({
        kid: str(row.kid),
        alg: str(row.alg),
        privateJwk: str(row.private_jwk),
        publicJwk: str(row.public_jwk),
        createdAt: Number(row.created_at),
      })),
  };
}

export function sqliteMeta(db: SqlDatabase): MetaRepository {
  const get = db.prepare('SELECT value FROM meta WHERE key = ?');
  const set = db.prepare(
    'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  );
  return {
    get: (key) => {
      const row = get.get(key) as Row | undefined;
      return row ? str(row.value) : undefined;
    },
    set: (key, value) => void set.run(key, value),
  };
}
