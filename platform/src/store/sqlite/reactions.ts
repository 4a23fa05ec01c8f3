import type { SqlDatabase } from '../sql-database.js';
import { emojiKey, type ReactionRepository, type ReactionType } from '../reaction-types.js';
import { str, strOrNull, type Row } from './rows.js';

/** Message reactions (table of the bot-api area, `bot-schema.ts`); rows of a deleted message go with it there. */
export function sqliteReactions(db: SqlDatabase): ReactionRepository {
  const insert = db.prepare(
    `INSERT INTO message_reactions (channel_id, message_id, emoji_key, emoji_id, emoji_name, animated, user_id, type,
     created_at)
     VALUES (@channelId, @messageId, @emojiKey, @emojiId, @emojiName, @animated, @userId, @type, @createdAt)`,
  );
  // The shared statement surface reports no affected-row count, so writes that answer "did anything change" count
  // first.
  const exists = db.prepare(
    'SELECT 1 AS one FROM message_reactions WHERE message_id = ? AND emoji_key = ? AND user_id = ? AND type = ?',
  );
  const countEmoji = db.prepare('SELECT COUNT(*) AS n FROM message_reactions WHERE message_id = ? AND emoji_key = ?');
  const countAll = db.prepare('SELECT COUNT(*) AS n FROM message_reactions WHERE message_id = ?');
  const remove = db.prepare(
    'DELETE FROM message_reactions WHERE message_id = ? AND emoji_key = ? AND user_id = ? AND type = ?',
  );
  const removeEmoji = db.prepare('DELETE FROM message_reactions WHERE message_id = ? AND emoji_key = ?');
  const removeAll = db.prepare('DELETE FROM message_reactions WHERE message_id = ?');
  const summaries = db.prepare(
    `SELECT emoji_key, emoji_id, emoji_name, MAX(animated) AS animated,
       SUM(CASE WHEN type = 0 THEN 1 ELSE 0 END) AS normal, SUM(CASE WHEN type = 1 THEN 1 ELSE 0 END) AS burst,
       MIN(created_at) AS first_at
     FROM message_reactions WHERE message_id = ? GROUP BY emoji_key, emoji_id, emoji_name ORDER BY first_at, emoji_key`,
  );
  const mine = db.prepare('SELECT emoji_key, type FROM message_reactions WHERE message_id = ? AND user_id = ?');
  const users = db.prepare(
    `SELECT user_id FROM message_reactions WHERE message_id = @messageId AND emoji_key = @emojiKey AND type = @type
       AND (CAST(@after AS TEXT) IS NULL OR length(user_id) > length(@after) OR (length(user_id) = length(@after)
         AND user_id > @after))
     ORDER BY length(user_id), user_id LIMIT @limit`,
  );
  return {
    add: (r) =>
      db.transaction(() => {
        const key = emojiKey(r.emoji);
        if (exists.get(r.messageId, key, r.userId, r.type)) return false;
        insert.run({
          channelId: r.channelId,
          messageId: r.messageId,
          emojiKey: key,
          emojiId: r.emoji.id,
          emojiName: r.emoji.name,
          animated: r.emoji.animated ? 1 : 0,
          userId: r.userId,
          type: r.type,
          createdAt: r.createdAt,
        });
        return true;
      }),
    remove: (messageId, key, userId, type) =>
      db.transaction(() => {
        if (!exists.get(messageId, key, userId, type)) return false;
        remove.run(messageId, key, userId, type);
        return true;
      }),
    removeEmoji: (messageId, key) =>
      db.transaction(() => {
        const n = Number((countEmoji.get(messageId, key) as Row).n);
        if (n > 0) removeEmoji.run(messageId, key);
        return n;
      }),
    removeAll: (messageId) =>
      db.transaction(() => {
        const n = Number((countAll.get(messageId) as Row).n);
        if (n > 0) removeAll.run(messageId);
        return n;
      }),
    summaries: (messageId) =>
      (summaries.all(messageId) as Row[]).map((row) => ({
        emoji: { id: strOrNull(row.emoji_id), name: str(row.emoji_name), animated: Number(row.animated) === 1 },
        normal: Number(row.normal),
        burst: Number(row.burst),
      })),
    mine: (messageId, userId) =>
      (mine.all(messageId, userId) as Row[]).map((row) => ({
        emojiKey: str(row.emoji_key),
        type: Number(row.type) as ReactionType,
      })),
    users: (messageId, key, type, after, limit) =>
      (users.all({ messageId, emojiKey: key, type, after, limit }) as Row[]).map((row) => str(row.user_id)),
  };
}
