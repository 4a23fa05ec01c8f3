import type { SqlDatabase } from '../sql-database.js';
import type { DmMessageRecord, DmRepository } from '../social-types.js';
import { bool, int, json, numOrNull, str, strOrNull, type Row } from './rows.js';

function fromRow(row: Row): DmMessageRecord {
  return {
    id: str(row.id),
    applicationId: str(row.application_id),
    authorId: str(row.author_id),
    recipientId: str(row.recipient_id),
    content: str(row.content),
    metadata: json(row.metadata),
    moderationMetadata: json(row.moderation_metadata),
    channelType: Number(row.channel_type) as 1 | 18,
    channelId: strOrNull(row.channel_id),
    createdAt: Number(row.created_at),
    editedAt: numOrNull(row.edited_at),
    invite:
      row.invite_type === null
        ? null
        : {
            type: Number(row.invite_type),
            partyOwnerId: str(row.invite_party_owner_id),
            partyId: str(row.invite_party_id),
            coverImage: strOrNull(row.invite_cover_image),
            expiresAt: Number(row.invite_expires_at),
            valid: bool(row.invite_valid),
          },
  };
}

function toParams(message: DmMessageRecord): Row {
  const invite = message.invite;
  return {
    id: message.id,
    application_id: message.applicationId,
    author_id: message.authorId,
    recipient_id: message.recipientId,
    content: message.content,
    metadata: JSON.stringify(message.metadata),
    moderation_metadata: JSON.stringify(message.moderationMetadata),
    channel_type: message.channelType,
    channel_id: message.channelId,
    created_at: message.createdAt,
    edited_at: message.editedAt,
    invite_type: invite?.type ?? null,
    invite_party_owner_id: invite?.partyOwnerId ?? null,
    invite_party_id: invite?.partyId ?? null,
    invite_cover_image: invite?.coverImage ?? null,
    invite_expires_at: invite?.expiresAt ?? null,
    invite_valid: invite ? int(invite.valid) : null,
  };
}

const COLUMNS = [
  'id',
  'application_id',
  'author_id',
  'recipient_id',
  'content',
  'metadata',
  'moderation_metadata',
  'channel_type',
  'channel_id',
  'created_at',
  'edited_at',
  'invite_type',
  'invite_party_owner_id',
  'invite_party_id',
  'invite_cover_image',
  'invite_expires_at',
  'invite_valid',
];

/** `?, ?, …` for an IN list (application ids of one family: a handful at most). */
const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(', ');

/** Ids are snowflakes of equal-or-growing length; ordering by (length, id) is numeric order without BigInt. */
const NEWEST_FIRST = 'ORDER BY length(id) DESC, id DESC';

export function sqliteDirectMessages(db: SqlDatabase): DmRepository {
  const insert = db.prepare(
    `INSERT INTO dm_messages (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((c) => '@' + c).join(', ')})`,
  );
  const update = db.prepare(
    `UPDATE dm_messages SET ${COLUMNS.filter((c) => c !== 'id')
      .map((c) => `${c} = @${c}`)
      .join(', ')} WHERE id = @id`,
  );
  const get = db.prepare('SELECT * FROM dm_messages WHERE id = ?');
  const remove = db.prepare('DELETE FROM dm_messages WHERE id = ?');
  const getChannel = db.prepare('SELECT id FROM dm_channels WHERE user_low = ? AND user_high = ?');
  const insertChannel = db.prepare('INSERT INTO dm_channels (user_low, user_high, id) VALUES (?, ?, ?)');
  const validOfOwner = db.prepare(
    `SELECT * FROM dm_messages WHERE invite_valid = 1 AND invite_party_owner_id = ?
     AND application_id = ? ${NEWEST_FIRST}`,
  );
  const expired = db.prepare(
    `SELECT * FROM dm_messages WHERE invite_valid = 1 AND invite_expires_at <= ? ORDER BY invite_expires_at`,
  );
  const nextExpiry = db.prepare('SELECT MIN(invite_expires_at) AS at FROM dm_messages WHERE invite_valid = 1');
  const dropBetween = db.prepare(
    `DELETE FROM dm_messages WHERE (author_id = @from AND recipient_id = @to)
     OR (author_id = @to AND recipient_id = @from)`,
  );
  const moveAuthor = db.prepare('UPDATE dm_messages SET author_id = @to WHERE author_id = @from');
  const moveRecipient = db.prepare('UPDATE dm_messages SET recipient_id = @to WHERE recipient_id = @from');
  const moveOwner = db.prepare(
    'UPDATE dm_messages SET invite_party_owner_id = @to WHERE invite_party_owner_id = @from',
  );
  const channelsOf = db.prepare('SELECT * FROM dm_channels WHERE user_low = @from OR user_high = @from');
  const dropChannel = db.prepare('DELETE FROM dm_channels WHERE id = ?');

  function channelId(a: string, b: string, newId: string): string {
    const [low, high] = a < b ? [a, b] : [b, a];
    const row = getChannel.get(low, high) as Row | undefined;
    if (row) return str(row.id);
    insertChannel.run(low, high, newId);
    return newId;
  }

  return {
    insert: (message) => void insert.run(toParams(message)),
    get: (id) => {
      const row = get.get(id);
      return row ? fromRow(row as Row) : undefined;
    },
    update: (message) => void update.run(toParams(message)),
    delete: (id) => void remove.run(id),
    history: (q) => {
      const before =
        q.before === undefined ? '' : 'AND (length(id) < length(?) OR (length(id) = length(?) AND id < ?))';
      const sql = `SELECT * FROM dm_messages
        WHERE invite_type IS NULL AND created_at >= ? AND application_id IN (${placeholders(q.applicationIds.length)})
          AND ((author_id = ? AND recipient_id = ?) OR (author_id = ? AND recipient_id = ?)) ${before}
        ${NEWEST_FIRST} LIMIT ?`;
      const params: unknown[] = [q.since, ...q.applicationIds, q.userId, q.otherId, q.otherId, q.userId];
      if (q.before !== undefined) params.push(q.before, q.before, q.before);
      params.push(q.limit);
      return (db.prepare(sql).all(...params) as Row[]).map(fromRow);
    },
    summaries: (userId, applicationIds, since) => {
      const sql = `SELECT CASE WHEN author_id = ? THEN recipient_id ELSE author_id END AS other_id, id
        FROM dm_messages
        WHERE invite_type IS NULL AND created_at >= ? AND application_id IN (${placeholders(applicationIds.length)})
          AND (author_id = ? OR recipient_id = ?)
        ${NEWEST_FIRST}`;
      const rows = db.prepare(sql).all(userId, since, ...applicationIds, userId, userId) as Row[];
      const seen = new Set<string>();
      const out: { otherId: string; lastMessageId: string }[] = [];
      for (const row of rows) {
        const other = str(row.other_id);
        if (seen.has(other)) continue;
        seen.add(other);
        out.push({ otherId: other, lastMessageId: str(row.id) });
      }
      return out;
    },
    channelId,
    validInvitesOfPartyOwner: (ownerId, applicationId) =>
      (validOfOwner.all(ownerId, applicationId) as Row[]).map(fromRow),
    expiredValidInvites: (now) => (expired.all(now) as Row[]).map(fromRow),
    nextInviteExpiry: () => numOrNull((nextExpiry.get() as Row).at) ?? undefined,
    moveAll: (from, to) => {
      dropBetween.run({ from, to });
      moveAuthor.run({ from, to });
      moveRecipient.run({ from, to });
      moveOwner.run({ from, to });
      // A persistent channel follows the account unless the target already has one with that partner.
      for (const row of channelsOf.all({ from }) as Row[]) {
        const partner = str(row.user_low) === from ? str(row.user_high) : str(row.user_low);
        dropChannel.run(str(row.id));
        if (partner === to) continue;
        const kept = channelId(to, partner, str(row.id));
        if (kept !== str(row.id))
          db.prepare('UPDATE dm_messages SET channel_id = ? WHERE channel_id = ?').run(kept, str(row.id));
      }
    },
  };
}
