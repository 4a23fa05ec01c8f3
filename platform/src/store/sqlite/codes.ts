import type { SqlDatabase } from '../sql-database.js';
import type {
  AuthorizationCodeRecord,
  AuthorizationCodeRepository,
  DeviceCodeRecord,
  DeviceCodeRepository,
  DeviceCodeStatus,
} from '../types.js';
import { json, numOrNull, str, strOrNull, type Row } from './rows.js';

function authorizationCodeFromRow(row: Row): AuthorizationCodeRecord {
  return {
    hash: str(row.hash),
    applicationId: str(row.application_id),
    userId: str(row.user_id),
    scopes: json(row.scopes),
    redirectUri: strOrNull(row.redirect_uri),
    codeChallenge: strOrNull(row.code_challenge),
    nonce: strOrNull(row.nonce),
    authTime: Number(row.auth_time),
    expiresAt: Number(row.expires_at),
    usedAt: numOrNull(row.used_at),
    issuedPairId: strOrNull(row.issued_pair_id),
  };
}

export function sqliteAuthorizationCodes(db: SqlDatabase): AuthorizationCodeRepository {
  const insert = db.prepare(
    `INSERT INTO authorization_codes
       (hash, application_id, user_id, scopes, redirect_uri, code_challenge, nonce, auth_time, expires_at, used_at,
         issued_pair_id)
     VALUES (@hash, @applicationId, @userId, @scopes, @redirectUri, @codeChallenge, @nonce, @authTime, @expiresAt,
       @usedAt, @issuedPairId)`,
  );
  const byHash = db.prepare('SELECT * FROM authorization_codes WHERE hash = ?');
  const markUsed = db.prepare('UPDATE authorization_codes SET used_at = ?, issued_pair_id = ? WHERE hash = ?');
  return {
    insert: (code) => void insert.run({ ...code, scopes: JSON.stringify(code.scopes) }),
    findByHash: (hash) => {
      const row = byHash.get(hash);
      return row ? authorizationCodeFromRow(row as Row) : undefined;
    },
    markUsed: (hash, usedAt, issuedPairId) => void markUsed.run(usedAt, issuedPairId, hash),
  };
}

function deviceCodeFromRow(row: Row): DeviceCodeRecord {
  return {
    hash: str(row.hash),
    userCode: str(row.user_code),
    applicationId: str(row.application_id),
    scopes: json(row.scopes),
    status: str(row.status) as DeviceCodeStatus,
    userId: strOrNull(row.user_id),
    intervalSeconds: Number(row.interval_seconds),
    lastPollAt: numOrNull(row.last_poll_at),
    expiresAt: Number(row.expires_at),
    createdAt: Number(row.created_at),
  };
}

export function sqliteDeviceCodes(db: SqlDatabase): DeviceCodeRepository {
  const insert = db.prepare(
    `INSERT INTO device_codes
       (hash, user_code, application_id, scopes, status, user_id, interval_seconds, last_poll_at, expires_at,
         created_at)
     VALUES (@hash, @userCode, @applicationId, @scopes, @status, @userId, @intervalSeconds, @lastPollAt, @expiresAt,
       @createdAt)`,
  );
  const byHash = db.prepare('SELECT * FROM device_codes WHERE hash = ?');
  const byUserCode = db.prepare('SELECT * FROM device_codes WHERE user_code = ?');
  const update = db.prepare(
    `UPDATE device_codes SET status = @status, user_id = @userId, interval_seconds = @intervalSeconds,
       last_poll_at = @lastPollAt WHERE hash = @hash`,
  );
  const one = (row: unknown) => (row ? deviceCodeFromRow(row as Row) : undefined);
  return {
    insert: (code) => void insert.run({ ...code, scopes: JSON.stringify(code.scopes) }),
    findByHash: (hash) => one(byHash.get(hash)),
    findByUserCode: (userCode) => one(byUserCode.get(userCode)),
    update: (code) =>
      void update.run({
        hash: code.hash,
        status: code.status,
        userId: code.userId,
        intervalSeconds: code.intervalSeconds,
        lastPollAt: code.lastPollAt,
      }),
  };
}
