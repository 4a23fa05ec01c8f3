import type { SqlDatabase } from '../sql-database.js';
import type {
  ChannelMessageRecord,
  LobbyInviteRecord,
  LobbyMemberRecord,
  LobbyMessageRecord,
  LobbyRecord,
  LobbyRepository,
} from '../lobby-types.js';
import { bool, int, json, numOrNull, str, strOrNull, type Row } from './rows.js';

function lobbyFromRow(row: Row): LobbyRecord {
  return {
    id: str(row.id),
    applicationId: str(row.application_id),
    secret: strOrNull(row.secret),
    secretExpiresAt: numOrNull(row.secret_expires_at),
    metadata: json(row.metadata),
    flags: Number(row.flags),
    idleTimeoutSeconds: Number(row.idle_timeout_seconds),
    overrideWebhookUrl: strOrNull(row.override_webhook_url),
    linkedChannelId: strOrNull(row.linked_channel_id),
    idleSince: numOrNull(row.idle_since),
    createdAt: Number(row.created_at),
  };
}

function lobbyParams(lobby: LobbyRecord): Record<string, unknown> {
  return { ...lobby, metadata: JSON.stringify(lobby.metadata) };
}

function memberFromRow(row: Row): LobbyMemberRecord {
  return {
    lobbyId: str(row.lobby_id),
    userId: str(row.user_id),
    metadata: json(row.metadata),
    flags: Number(row.flags),
    additionalName: strOrNull(row.additional_name),
    joinedBySecret: bool(row.joined_by_secret),
    joinedAt: Number(row.joined_at),
  };
}

function messageFromRow(row: Row): LobbyMessageRecord {
  return {
    id: str(row.id),
    lobbyId: str(row.lobby_id),
    applicationId: str(row.application_id),
    authorId: str(row.author_id),
    content: str(row.content),
    metadata: json(row.metadata),
    moderationMetadata: json(row.moderation_metadata),
    flags: Number(row.flags),
    additionalName: strOrNull(row.additional_name),
    authorWasMember: bool(row.author_was_member),
    createdAt: Number(row.created_at),
  };
}

function messageParams(message: LobbyMessageRecord): Record<string, unknown> {
  return {
    ...message,
    metadata: JSON.stringify(message.metadata),
    moderationMetadata: JSON.stringify(message.moderationMetadata),
    authorWasMember: int(message.authorWasMember),
  };
}

function channelMessageFromRow(row: Row): ChannelMessageRecord {
  return {
    id: str(row.id),
    channelId: str(row.channel_id),
    guildId: str(row.guild_id),
    authorId: str(row.author_id),
    applicationId: str(row.application_id),
    lobbyId: str(row.lobby_id),
    content: str(row.content),
    createdAt: Number(row.created_at),
  };
}

function inviteFromRow(row: Row): LobbyInviteRecord {
  return {
    code: str(row.code),
    lobbyId: str(row.lobby_id),
    applicationId: str(row.application_id),
    guildId: str(row.guild_id),
    channelId: str(row.channel_id),
    userId: str(row.user_id),
    expiresAt: Number(row.expires_at),
    usedAt: numOrNull(row.used_at),
  };
}

export function sqliteLobbies(db: SqlDatabase): LobbyRepository {
  const insert = db.prepare(
    `INSERT INTO lobbies (id, application_id, secret, secret_expires_at, metadata, flags, idle_timeout_seconds,
       override_webhook_url, linked_channel_id, idle_since, created_at)
     VALUES (@id, @applicationId, @secret, @secretExpiresAt, @metadata, @flags, @idleTimeoutSeconds,
       @overrideWebhookUrl, @linkedChannelId, @idleSince, @createdAt)`,
  );
  const update = db.prepare(
    `UPDATE lobbies SET secret = @secret, secret_expires_at = @secretExpiresAt, metadata = @metadata, flags = @flags,
       idle_timeout_seconds = @idleTimeoutSeconds, override_webhook_url = @overrideWebhookUrl,
       linked_channel_id = @linkedChannelId, idle_since = @idleSince WHERE id = @id`,
  );
  const get = db.prepare('SELECT * FROM lobbies WHERE id = ?');
  const bySecret = db.prepare('SELECT * FROM lobbies WHERE application_id = ? AND secret = ?');
  const deleteLobby = db.prepare('DELETE FROM lobbies WHERE id = ?');
  const deleteMembers = db.prepare('DELETE FROM lobby_members WHERE lobby_id = ?');
  const deleteMessages = db.prepare('DELETE FROM lobby_messages WHERE lobby_id = ?');
  const deleteInvites = db.prepare('DELETE FROM lobby_invites WHERE lobby_id = ?');
  const forUser = db.prepare(
    `SELECT l.* FROM lobbies l JOIN lobby_members m ON m.lobby_id = l.id
     WHERE m.user_id = ? AND l.application_id = ? ORDER BY l.created_at, l.id`,
  );
  const forApplication = db.prepare(
    'SELECT * FROM lobbies WHERE application_id = ? ORDER BY created_at DESC, id DESC LIMIT ?',
  );
  const countForUser = db.prepare(
    `SELECT COUNT(*) AS n FROM lobbies l JOIN lobby_members m ON m.lobby_id = l.id WHERE m.user_id = ?
     AND l.application_id = ?`,
  );
  const idleExpired = db.prepare(
    `SELECT * FROM lobbies WHERE idle_since IS NOT NULL AND linked_channel_id IS NULL
       AND idle_since + idle_timeout_seconds * 1000 <= ? ORDER BY idle_since, id`,
  );
  const markAllIdle = db.prepare('UPDATE lobbies SET idle_since = ? WHERE idle_since IS NULL');
  const byChannel = db.prepare('SELECT * FROM lobbies WHERE linked_channel_id = ?');
  const linksForGuild = db.prepare(
    `SELECT l.id AS lobby_id, l.application_id, l.linked_channel_id FROM lobbies l
     JOIN channels c ON c.id = l.linked_channel_id WHERE c.guild_id = ?`,
  );

  const members = db.prepare('SELECT * FROM lobby_members WHERE lobby_id = ? ORDER BY joined_at, user_id');
  const member = db.prepare('SELECT * FROM lobby_members WHERE lobby_id = ? AND user_id = ?');
  const upsertMember = db.prepare(
    `INSERT INTO lobby_members (lobby_id, user_id, metadata, flags, additional_name, joined_by_secret, joined_at)
     VALUES (@lobbyId, @userId, @metadata, @flags, @additionalName, @joinedBySecret, @joinedAt)
     ON CONFLICT (lobby_id, user_id) DO UPDATE SET metadata = excluded.metadata, flags = excluded.flags,
       additional_name = excluded.additional_name, joined_by_secret = excluded.joined_by_secret`,
  );
  const deleteMember = db.prepare('DELETE FROM lobby_members WHERE lobby_id = ? AND user_id = ?');
  const countMembers = db.prepare('SELECT COUNT(*) AS n FROM lobby_members WHERE lobby_id = ?');
  const membershipsOf = db.prepare('SELECT * FROM lobby_members WHERE user_id = ? ORDER BY joined_at, lobby_id');

  const insertMessage = db.prepare(
    `INSERT INTO lobby_messages (id, lobby_id, application_id, author_id, content, metadata, moderation_metadata, flags,
       additional_name, author_was_member, created_at)
     VALUES (@id, @lobbyId, @applicationId, @authorId, @content, @metadata, @moderationMetadata, @flags,
       @additionalName, @authorWasMember, @createdAt)`,
  );
  const message = db.prepare('SELECT * FROM lobby_messages WHERE lobby_id = ? AND id = ?');
  const updateMessage = db.prepare(
    `UPDATE lobby_messages SET content = @content, metadata = @metadata, moderation_metadata = @moderationMetadata,
     flags = @flags WHERE id = @id`,
  );
  const deleteMessage = db.prepare('DELETE FROM lobby_messages WHERE id = ?');
  const listMessages = db.prepare(
    `SELECT * FROM lobby_messages WHERE lobby_id = ? AND created_at >= ? ORDER BY created_at DESC, length(id) DESC,
     id DESC LIMIT ?`,
  );
  // Ids are snowflakes in decimal text: a longer id is a larger one.
  const listMessagesAfter = db.prepare(
    `SELECT * FROM (SELECT * FROM lobby_messages WHERE lobby_id = @lobbyId AND created_at >= @since
       AND (length(id) > length(@after) OR (length(id) = length(@after) AND id > @after))
     ORDER BY length(id), id LIMIT @limit) AS page ORDER BY length(id) DESC, id DESC`,
  );
  const moveAuthor = db.prepare('UPDATE lobby_messages SET author_id = ? WHERE author_id = ?');
  const moveAuthorIn = db.prepare('UPDATE lobby_messages SET author_id = ? WHERE author_id = ? AND lobby_id = ?');
  const moveChannelAuthor = db.prepare('UPDATE channel_messages SET author_id = ? WHERE author_id = ?');
  const moveChannelAuthorIn = db.prepare(
    'UPDATE channel_messages SET author_id = ? WHERE author_id = ? AND lobby_id = ?',
  );
  const pruneMessages = db.prepare('DELETE FROM lobby_messages WHERE created_at < ?');

  const insertChannelMessage = db.prepare(
    `INSERT INTO channel_messages (id, channel_id, guild_id, author_id, application_id, lobby_id, content, created_at)
     VALUES (@id, @channelId, @guildId, @authorId, @applicationId, @lobbyId, @content, @createdAt)`,
  );
  const deleteChannelMessage = db.prepare('DELETE FROM channel_messages WHERE id = ?');
  const channelMessages = db.prepare(
    'SELECT * FROM channel_messages WHERE channel_id = ? ORDER BY created_at DESC, length(id) DESC, id DESC LIMIT ?',
  );
  const channelMessagesBefore = db.prepare(
    `SELECT * FROM channel_messages WHERE channel_id = @channelId
       AND (length(id) < length(@before) OR (length(id) = length(@before) AND id < @before))
     ORDER BY created_at DESC, length(id) DESC, id DESC LIMIT @limit`,
  );

  const insertInvite = db.prepare(
    `INSERT INTO lobby_invites (code, lobby_id, application_id, guild_id, channel_id, user_id, expires_at, used_at)
     VALUES (@code, @lobbyId, @applicationId, @guildId, @channelId, @userId, @expiresAt, @usedAt)`,
  );
  const invite = db.prepare('SELECT * FROM lobby_invites WHERE code = ?');
  const markInviteUsed = db.prepare('UPDATE lobby_invites SET used_at = ? WHERE code = ?');
  const pruneInvites = db.prepare('DELETE FROM lobby_invites WHERE expires_at <= ?');

  const one = <T>(row: unknown, map: (row: Row) => T): T | undefined => (row ? map(row as Row) : undefined);
  return {
    insert: (lobby) => void insert.run(lobbyParams(lobby)),
    update: (lobby) => void update.run(lobbyParams(lobby)),
    get: (id) => one(get.get(id), lobbyFromRow),
    findBySecret: (applicationId, secret) => one(bySecret.get(applicationId, secret), lobbyFromRow),
    delete: (id) => {
      deleteMembers.run(id);
      deleteMessages.run(id);
      deleteInvites.run(id);
      deleteLobby.run(id);
    },
    listForUser: (userId, applicationId) => (forUser.all(userId, applicationId) as Row[]).map(lobbyFromRow),
    listForApplication: (applicationId, limit) => (forApplication.all(applicationId, limit) as Row[]).map(lobbyFromRow),
    countForUser: (userId, applicationId) => Number((countForUser.get(userId, applicationId) as Row).n),
    listIdleExpired: (now) => (idleExpired.all(now) as Row[]).map(lobbyFromRow),
    markAllIdle: (now) => void markAllIdle.run(now),
    findByLinkedChannel: (channelId) => one(byChannel.get(channelId), lobbyFromRow),
    linksForGuild: (guildId) =>
      (linksForGuild.all(guildId) as Row[]).map((row) => ({
        channelId: str(row.linked_channel_id),
        applicationId: str(row.application_id),
        lobbyId: str(row.lobby_id),
      })),

    members: (lobbyId) => (members.all(lobbyId) as Row[]).map(memberFromRow),
    member: (lobbyId, userId) => one(member.get(lobbyId, userId), memberFromRow),
    upsertMember: (m) =>
      void upsertMember.run({ ...m, metadata: JSON.stringify(m.metadata), joinedBySecret: int(m.joinedBySecret) }),
    deleteMember: (lobbyId, userId) => void deleteMember.run(lobbyId, userId),
    countMembers: (lobbyId) => Number((countMembers.get(lobbyId) as Row).n),
    membershipsOf: (userId) => (membershipsOf.all(userId) as Row[]).map(memberFromRow),

    insertMessage: (m) => void insertMessage.run(messageParams(m)),
    message: (lobbyId, id) => one(message.get(lobbyId, id), messageFromRow),
    updateMessage: (m) => void updateMessage.run(messageParams(m)),
    deleteMessage: (id) => void deleteMessage.run(id),
    listMessages: (lobbyId, since, limit, after) =>
      (
        (after === undefined
          ? listMessages.all(lobbyId, since, limit)
          : listMessagesAfter.all({ lobbyId, since, limit, after })) as Row[]
      ).map(messageFromRow),
    moveMessageAuthor: (fromUserId, toUserId, lobbyIds) => {
      if (!lobbyIds) {
        moveAuthor.run(toUserId, fromUserId);
        moveChannelAuthor.run(toUserId, fromUserId);
        return;
      }
      for (const lobbyId of lobbyIds) {
        moveAuthorIn.run(toUserId, fromUserId, lobbyId);
        moveChannelAuthorIn.run(toUserId, fromUserId, lobbyId);
      }
    },
    pruneMessages: (before) => void pruneMessages.run(before),

    insertChannelMessage: (m) => void insertChannelMessage.run(m),
    deleteChannelMessage: (id) => void deleteChannelMessage.run(id),
    listChannelMessages: (channelId, limit, before) =>
      (before === undefined
        ? channelMessages.all(channelId, limit)
        : channelMessagesBefore.all({ channelId, before, limit })
      ).map((row) => channelMessageFromRow(row as Row)),

    insertInvite: (i) => void insertInvite.run(i),
    invite: (code) => one(invite.get(code), inviteFromRow),
    markInviteUsed: (code, at) => void markInviteUsed.run(at, code),
    pruneInvites: (now) => void pruneInvites.run(now),
  };
}
