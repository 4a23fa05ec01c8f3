import type { SqlDatabase } from '../sql-database.js';
import type { ExternalAuthType, ExternalIdentityRecord, ExternalIdentityRepository } from '../types.js';
import { str, type Row } from './rows.js';

function fromRow(row: Row): ExternalIdentityRecord {
  return {
    applicationId: str(row.application_id),
    authType: str(row.auth_type) as ExternalAuthType,
    issuer: str(row.issuer),
    externalId: str(row.external_id),
    userId: str(row.user_id),
    createdAt: Number(row.created_at),
  };
}

export function sqliteIdentities(db: SqlDatabase): ExternalIdentityRepository {
  const insert = db.prepare(
    `INSERT INTO external_identities (application_id, auth_type, issuer, external_id, user_id, created_at)
     VALUES (@applicationId, @authType, @issuer, @externalId, @userId, @createdAt)`,
  );
  const find = db.prepare(
    'SELECT * FROM external_identities WHERE application_id = ? AND auth_type = ? AND issuer = ? AND external_id = ?',
  );
  const forUser = db.prepare('SELECT * FROM external_identities WHERE user_id = ? ORDER BY created_at');
  const move = db.prepare(
    `UPDATE external_identities SET user_id = ? WHERE application_id = ? AND auth_type = ? AND issuer = ?
     AND external_id = ?`,
  );
  return {
    insert: (identity) => void insert.run(identity),
    find: (applicationId, authType, issuer, externalId) => {
      const row = find.get(applicationId, authType, issuer, externalId);
      return row ? fromRow(row as Row) : undefined;
    },
    listForUser: (userId) => (forUser.all(userId) as Row[]).map(fromRow),
    moveTo: (identity, userId) =>
      void move.run(userId, identity.applicationId, identity.authType, identity.issuer, identity.externalId),
  };
}
