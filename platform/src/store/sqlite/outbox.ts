import type { SqlDatabase } from '../sql-database.js';
import type { OutboxRecord, OutboxRepository, OutboxStatus } from '../types.js';
import { numOrNull, str, strOrNull, type Row } from './rows.js';

/** Snowflake order: shorter ids are older. */
const compareIds = (a: string, b: string): number => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);

function fromRow(row: Row): OutboxRecord {
  return {
    id: str(row.id),
    applicationId: str(row.application_id),
    body: str(row.body),
    attempts: Number(row.attempts),
    nextAttemptAt: Number(row.next_attempt_at),
    status: str(row.status) as OutboxStatus,
    lastError: strOrNull(row.last_error),
    createdAt: Number(row.created_at),
    deliveredAt: numOrNull(row.delivered_at),
    targetUrl: strOrNull(row.target_url),
  };
}

export function sqliteOutbox(db: SqlDatabase): OutboxRepository {
  const insert = db.prepare(
    `INSERT INTO webhook_outbox (id, application_id, body, attempts, next_attempt_at, status, last_error, created_at,
     delivered_at, target_url)
     VALUES (@id, @applicationId, @body, @attempts, @nextAttemptAt, @status, @lastError, @createdAt, @deliveredAt,
       @targetUrl)`,
  );
  // PostgreSQL: nodes claiming at once lock disjoint rows (SKIP LOCKED) instead of both taking the same ones; a row
  // another node has just claimed is re-checked against the WHERE clause and no longer due. SQLite runs one writer at
  // a time, so the statement is atomic there as it stands.
  const skipLocked = db.dialect === 'postgres' ? ' FOR UPDATE SKIP LOCKED' : '';
  const claim = db.prepare(
    `UPDATE webhook_outbox SET next_attempt_at = @leaseUntil WHERE id IN (
       SELECT id FROM webhook_outbox WHERE status = 'pending' AND next_attempt_at <= @now ORDER BY next_attempt_at, id
         LIMIT @limit${skipLocked})
     RETURNING *`,
  );
  const nextDue = db.prepare(`SELECT MIN(next_attempt_at) AS at FROM webhook_outbox WHERE status = 'pending'`);
  const update = db.prepare(
    `UPDATE webhook_outbox SET attempts = @attempts, next_attempt_at = @nextAttemptAt, status = @status,
       last_error = @lastError, delivered_at = @deliveredAt WHERE id = @id`,
  );
  const get = db.prepare('SELECT * FROM webhook_outbox WHERE id = ?');
  const list = db.prepare('SELECT * FROM webhook_outbox ORDER BY created_at, id');
  return {
    insert: (entry) => void insert.run({ ...entry, targetUrl: entry.targetUrl ?? null }),
    claimDue: (now, limit, leaseUntil) =>
      (claim.all({ now, limit, leaseUntil }) as Row[])
        .map(fromRow)
        .sort((a, b) => a.createdAt - b.createdAt || compareIds(a.id, b.id)),
    nextDueAt: () => numOrNull((nextDue.get() as Row).at) ?? undefined,
    update: (entry) =>
      void update.run({
        id: entry.id,
        attempts: entry.attempts,
        nextAttemptAt: entry.nextAttemptAt,
        status: entry.status,
        lastError: entry.lastError,
        deliveredAt: entry.deliveredAt,
      }),
    get: (id) => {
      const row = get.get(id);
      return row ? fromRow(row as Row) : undefined;
    },
    list: () => (list.all() as Row[]).map(fromRow),
  };
}
