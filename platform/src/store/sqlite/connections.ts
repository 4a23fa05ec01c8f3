import type { SqlDatabase } from '../sql-database.js';
import type { ConnectionRecord, ConnectionRepository } from '../types.js';
import { bool, int, str, strOrNull, type Row } from './rows.js';

function fromRow(row: Row): ConnectionRecord {
  return {
    userId: str(row.user_id),
    type: str(row.type),
    id: str(row.id),
    name: str(row.name),
    verified: bool(row.verified),
    visibility: Number(row.visibility),
    publisherApplicationId: strOrNull(row.publisher_application_id),
  };
}

export function sqliteConnections(db: SqlDatabase): ConnectionRepository {
  const upsert = db.prepare(
    `INSERT INTO connections (user_id, type, id, name, verified, visibility, publisher_application_id)
     VALUES (@userId, @type, @id, @name, @verified, @visibility, @publisherApplicationId)
     ON CONFLICT (user_id, type, id) DO UPDATE SET name = excluded.name, verified = excluded.verified,
       visibility = excluded.visibility, publisher_application_id = excluded.publisher_application_id`,
  );
  const forUser = db.prepare('SELECT * FROM connections WHERE user_id = ? ORDER BY type, id');
  const copy = db.prepare(
    `INSERT INTO connections (user_id, type, id, name, verified, visibility, publisher_application_id)
     SELECT CAST(? AS TEXT), type, id, name, verified, visibility, publisher_application_id FROM connections
       WHERE user_id = ?
     ON CONFLICT DO NOTHING`,
  );
  const drop = db.prepare('DELETE FROM connections WHERE user_id = ?');
  return {
    upsert: (connection) => void upsert.run({ ...connection, verified: int(connection.verified) }),
    listForUser: (userId) => (forUser.all(userId) as Row[]).map(fromRow),
    moveAll: (fromUserId, toUserId) => {
      copy.run(toUserId, fromUserId);
      drop.run(fromUserId);
    },
  };
}
