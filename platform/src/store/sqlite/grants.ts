import type { SqlDatabase } from '../sql-database.js';
import type { GrantRecord, GrantRepository } from '../types.js';
import { json, str, type Row } from './rows.js';

function fromRow(row: Row): GrantRecord {
  return {
    applicationId: str(row.application_id),
    userId: str(row.user_id),
    scopes: json(row.scopes),
    createdAt: Number(row.created_at),
  };
}

export function sqliteGrants(db: SqlDatabase): GrantRepository {
  const upsert = db.prepare(
    `INSERT INTO grants (application_id, user_id, scopes, created_at) VALUES (@applicationId, @userId, @scopes,
     @createdAt)
     ON CONFLICT (application_id, user_id) DO UPDATE SET scopes = excluded.scopes`,
  );
  const get = db.prepare('SELECT * FROM grants WHERE application_id = ? AND user_id = ?');
  const remove = db.prepare('DELETE FROM grants WHERE application_id = ? AND user_id = ?');
  const forUser = db.prepare('SELECT * FROM grants WHERE user_id = ? ORDER BY created_at');
  const countForApp = db.prepare('SELECT COUNT(*) AS n FROM grants WHERE application_id = ?');
  return {
    countForApplication: (applicationId) => Number((countForApp.get(applicationId) as { n: number }).n),
    upsert: (grant) => void upsert.run({ ...grant, scopes: JSON.stringify(grant.scopes) }),
    get: (applicationId, userId) => {
      const row = get.get(applicationId, userId);
      return row ? fromRow(row as Row) : undefined;
    },
    delete: (applicationId, userId) => void remove.run(applicationId, userId),
    listForUser: (userId) => (forUser.all(userId) as Row[]).map(fromRow),
  };
}
