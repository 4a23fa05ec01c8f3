import type { SqlDatabase } from '../sql-database.js';
import {
  RelationshipType,
  type RelationshipAxis,
  type RelationshipRecord,
  type RelationshipRepository,
} from '../social-types.js';
import { bool, int, str, type Row } from './rows.js';

function fromRow(row: Row): RelationshipRecord {
  return {
    userId: str(row.user_id),
    otherId: str(row.other_id),
    axis: str(row.axis) as RelationshipAxis,
    applicationId: str(row.application_id),
    type: Number(row.type),
    isSpamRequest: bool(row.is_spam_request),
    since: Number(row.since),
  };
}

function toParams(record: RelationshipRecord): Row {
  return {
    user_id: record.userId,
    other_id: record.otherId,
    axis: record.axis,
    application_id: record.applicationId,
    type: record.type,
    is_spam_request: int(record.isSpamRequest),
    since: record.since,
  };
}

export function sqliteRelationships(db: SqlDatabase): RelationshipRepository {
  const get = db.prepare(
    'SELECT * FROM relationships WHERE user_id = ? AND other_id = ? AND axis = ? AND application_id = ?',
  );
  const put = db.prepare(
    `INSERT INTO relationships (user_id, other_id, axis, application_id, type, is_spam_request, since)
     VALUES (@user_id, @other_id, @axis, @application_id, @type, @is_spam_request, @since)
     ON CONFLICT (user_id, other_id, axis, application_id)
     DO UPDATE SET type = excluded.type, is_spam_request = excluded.is_spam_request, since = excluded.since`,
  );
  const remove = db.prepare(
    'DELETE FROM relationships WHERE user_id = ? AND other_id = ? AND axis = ? AND application_id = ?',
  );
  const between = db.prepare(
    'SELECT * FROM relationships WHERE user_id = ? AND other_id = ? ORDER BY axis DESC, application_id',
  );
  const listForUser = db.prepare(
    `SELECT * FROM relationships WHERE user_id = ? AND (axis = 'platform' OR application_id = ?) ORDER BY since,
     other_id`,
  );
  const listOfType = db.prepare(
    'SELECT * FROM relationships WHERE user_id = ? AND type = ? ORDER BY other_id, axis DESC, application_id',
  );
  const countFriends = db.prepare(
    `SELECT COUNT(*) AS n FROM relationships WHERE user_id = ? AND axis = 'platform'
     AND type = ${RelationshipType.Friend}`,
  );
  const isSpammer = db.prepare('SELECT 1 FROM spam_flags WHERE user_id = ?');
  const flag = db.prepare('INSERT INTO spam_flags (user_id) VALUES (?) ON CONFLICT DO NOTHING');
  const unflag = db.prepare('DELETE FROM spam_flags WHERE user_id = ?');
  const logRequest = db.prepare('INSERT INTO friend_request_log (user_id, created_at) VALUES (?, ?)');
  const pruneLog = db.prepare('DELETE FROM friend_request_log WHERE user_id = ? AND created_at < ?');
  const countLog = db.prepare('SELECT COUNT(*) AS n FROM friend_request_log WHERE user_id = ? AND created_at >= ?');
  // Merge, per partner and axis: when the target already has a relationship with that partner on that axis (either
  // side's row), the target's wins and the source's pair of rows goes; otherwise both rows move. Rows between the
  // two accounts would become a relationship with oneself and go too.
  const partnerClash = (partner: string) => `EXISTS (SELECT 1 FROM relationships t
      WHERE ((t.user_id = @to AND t.other_id = ${partner}) OR (t.other_id = @to AND t.user_id = ${partner}))
        AND t.axis = relationships.axis AND t.application_id = relationships.application_id)`;
  const dropClashes = db.prepare(
    `DELETE FROM relationships WHERE (user_id = @from AND (other_id = @to OR ${partnerClash('relationships.other_id')}))
       OR (other_id = @from AND (user_id = @to OR ${partnerClash('relationships.user_id')}))`,
  );
  const moveOwn = db.prepare('UPDATE relationships SET user_id = @to WHERE user_id = @from');
  const moveOther = db.prepare('UPDATE relationships SET other_id = @to WHERE other_id = @from');
  const dropFlags = db.prepare('DELETE FROM spam_flags WHERE user_id = ?');
  const dropLog = db.prepare('DELETE FROM friend_request_log WHERE user_id = ?');
  const all = (rows: unknown[]) => (rows as Row[]).map(fromRow);
  return {
    get: (userId, otherId, axis, applicationId) => {
      const row = get.get(userId, otherId, axis, applicationId);
      return row ? fromRow(row as Row) : undefined;
    },
    put: (record) => void put.run(toParams(record)),
    delete: (userId, otherId, axis, applicationId) => void remove.run(userId, otherId, axis, applicationId),
    between: (userId, otherId) => all(between.all(userId, otherId)),
    listForUser: (userId, applicationId) => all(listForUser.all(userId, applicationId)),
    listOfType: (userId, type) => all(listOfType.all(userId, type)),
    countPlatformFriends: (userId) => Number((countFriends.get(userId) as Row).n),
    isSpammer: (userId) => isSpammer.get(userId) !== undefined,
    setSpammer: (userId, spammer) => void (spammer ? flag : unflag).run(userId),
    logRequest: (userId, at, pruneBefore) => {
      pruneLog.run(userId, pruneBefore);
      logRequest.run(userId, at);
    },
    countRequestsSince: (userId, since) => Number((countLog.get(userId, since) as Row).n),
    moveAll: (from, to) => {
      dropClashes.run({ from, to });
      moveOwn.run({ from, to });
      moveOther.run({ from, to });
      dropFlags.run(from);
      dropLog.run(from);
    },
  };
}
