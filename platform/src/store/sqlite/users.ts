import type { SqlDatabase } from '../sql-database.js';
import type { UserRecord, UserRepository } from '../types.js';
import { bool, int, numOrNull, str, strOrNull, type Row } from './rows.js';

function fromRow(row: Row): UserRecord {
  return {
    id: str(row.id),
    username: str(row.username),
    globalName: strOrNull(row.global_name),
    avatar: strOrNull(row.avatar),
    banner: strOrNull(row.banner),
    email: strOrNull(row.email),
    verified: bool(row.verified),
    premiumType: Number(row.premium_type),
    locale: str(row.locale),
    bot: bool(row.bot),
    isProvisional: bool(row.is_provisional),
    provisionalApplicationId: strOrNull(row.provisional_application_id),
    restrictedByUserId: strOrNull(row.restricted_by_user_id),
    bannedUntil: numOrNull(row.banned_until),
    primaryGuildId: strOrNull(row.primary_guild_id),
    passwordHash: strOrNull(row.password_hash),
    createdAt: Number(row.created_at),
  };
}

function toParams(user: UserRecord): Row {
  return {
    id: user.id,
    username: user.username,
    global_name: user.globalName,
    avatar: user.avatar,
    banner: user.banner,
    email: user.email,
    verified: int(user.verified),
    premium_type: user.premiumType,
    locale: user.locale,
    bot: int(user.bot),
    is_provisional: int(user.isProvisional),
    provisional_application_id: user.provisionalApplicationId,
    restricted_by_user_id: user.restrictedByUserId,
    banned_until: user.bannedUntil,
    primary_guild_id: user.primaryGuildId,
    password_hash: user.passwordHash,
    created_at: user.createdAt,
  };
}

const COLUMNS = [
  'id',
  'username',
  'global_name',
  'avatar',
  'banner',
  'email',
  'verified',
  'premium_type',
  'locale',
  'bot',
  'is_provisional',
  'provisional_application_id',
  'restricted_by_user_id',
  'banned_until',
  'primary_guild_id',
  'password_hash',
  'created_at',
];

export function sqliteUsers(db: SqlDatabase): UserRepository {
  const insert = db.prepare(
    `INSERT INTO users (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((c) => '@' + c).join(', ')})`,
  );
  const update = db.prepare(
    `UPDATE users SET ${COLUMNS.filter((c) => c !== 'id')
      .map((c) => `${c} = @${c}`)
      .join(', ')} WHERE id = @id`,
  );
  const get = db.prepare('SELECT * FROM users WHERE id = ?');
  const byUsername = db.prepare('SELECT * FROM users WHERE username = ?');
  const remove = db.prepare('DELETE FROM users WHERE id = ?');
  const list = db.prepare('SELECT * FROM users ORDER BY created_at, id');
  const one = (row: unknown) => (row ? fromRow(row as Row) : undefined);
  return {
    insert: (user) => void insert.run(toParams(user)),
    update: (user) => void update.run(toParams(user)),
    get: (id) => one(get.get(id)),
    findByUsername: (username) => one(byUsername.get(username)),
    delete: (id) => void remove.run(id),
    list: () => (list.all() as Row[]).map(fromRow),
  };
}
