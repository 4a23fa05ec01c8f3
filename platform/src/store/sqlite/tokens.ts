import type { SqlDatabase } from '../sql-database.js';
import type { TokenKind, TokenOrigin, TokenRecord, TokenRepository } from '../types.js';
import { json, str, strOrNull, type Row } from './rows.js';

function fromRow(row: Row): TokenRecord {
  return {
    hash: str(row.hash),
    kind: str(row.kind) as TokenKind,
    pairId: str(row.pair_id),
    applicationId: str(row.application_id),
    userId: str(row.user_id),
    scopes: json(row.scopes),
    origin: str(row.origin) as TokenOrigin,
    parentPairId: strOrNull(row.parent_pair_id),
    expiresAt: Number(row.expires_at),
    createdAt: Number(row.created_at),
  };
}

export function sqliteTokens(db: SqlDatabase): TokenRepository {
  const insert = db.prepare(
    `INSERT INTO tokens (hash, kind, pair_id, application_id, user_id, scopes, origin, parent_pair_id, expires_at,
     created_at)
     VALUES (@hash, @kind, @pairId, @applicationId, @userId, @scopes, @origin, @parentPairId, @expiresAt, @createdAt)`,
  );
  const byHash = db.prepare('SELECT * FROM tokens WHERE hash = ?');
  const deleteChildrenOfPair = db.prepare('DELETE FROM tokens WHERE parent_pair_id = ?');
  const deletePair = db.prepare('DELETE FROM tokens WHERE pair_id = ?');
  const pairsForUserApp = db.prepare('SELECT DISTINCT pair_id FROM tokens WHERE user_id = ? AND application_id = ?');
  const pairsForUser = db.prepare('SELECT DISTINCT pair_id FROM tokens WHERE user_id = ?');
  const countForUser = db.prepare('SELECT COUNT(*) AS n FROM tokens WHERE user_id = ?');

  const removePair = (pairId: string) => {
    deleteChildrenOfPair.run(pairId);
    deletePair.run(pairId);
  };
  const removePairs = (rows: unknown[]) => {
    for (const row of rows as Row[]) removePair(str(row.pair_id));
    return rows.length;
  };

  return {
    insert: (token) => void insert.run({ ...token, scopes: JSON.stringify(token.scopes) }),
    findByHash: (hash) => {
      const row = byHash.get(hash);
      return row ? fromRow(row as Row) : undefined;
    },
    deletePair: removePair,
    deleteForUserAndApp: (userId, applicationId) => removePairs(pairsForUserApp.all(userId, applicationId)),
    deleteForUser: (userId) => removePairs(pairsForUser.all(userId)),
    countForUser: (userId) => Number((countForUser.get(userId) as Row).n),
  };
}
