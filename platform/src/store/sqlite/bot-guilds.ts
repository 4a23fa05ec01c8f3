import type { SqlDatabase } from '../sql-database.js';
import type {
  ApplicationEmojiRecord,
  AutoModRuleRecord,
  MessageSearchQuery,
  AuditEntryRecord,
  BotGuildRepository,
  ChannelSettingsRecord,
  InviteRecord,
  MemberRecord,
  MessageRecord,
  RoleRecord,
} from '../bot-types.js';
import { bool, int, json, numOrNull, str, strOrNull, type Row } from './rows.js';

function roleFromRow(row: Row): RoleRecord {
  return {
    id: str(row.id),
    guildId: str(row.guild_id),
    name: str(row.name),
    permissions: str(row.permissions),
    position: Number(row.position),
    colors: json(row.colors),
    hoist: bool(row.hoist),
    mentionable: bool(row.mentionable),
    icon: strOrNull(row.icon),
    unicodeEmoji: strOrNull(row.unicode_emoji),
    flags: Number(row.flags),
  };
}

/** A membership row joined with its (optional) profile. */
function memberFromRow(row: Row): MemberRecord {
  return {
    guildId: str(row.guild_id),
    userId: str(row.user_id),
    nick: strOrNull(row.nick),
    avatar: strOrNull(row.avatar),
    banner: strOrNull(row.banner),
    bio: strOrNull(row.bio),
    roles: row.roles === null || row.roles === undefined ? [] : json(row.roles),
    joinedAt: Number(row.joined_at ?? 0),
    flags: Number(row.flags ?? 0),
    communicationDisabledUntil: numOrNull(row.communication_disabled_until),
  };
}

function messageFromRow(row: Row): MessageRecord {
  return {
    id: str(row.id),
    channelId: str(row.channel_id),
    guildId: str(row.guild_id),
    authorId: str(row.author_id),
    type: Number(row.type),
    content: str(row.content),
    flags: Number(row.flags),
    nonce: strOrNull(row.nonce),
    body: json(row.body),
    pinnedAt: numOrNull(row.pinned_at),
    createdAt: Number(row.created_at),
    editedAt: numOrNull(row.edited_at),
  };
}

function inviteFromRow(row: Row): InviteRecord {
  return {
    code: str(row.code),
    guildId: str(row.guild_id),
    channelId: str(row.channel_id),
    inviterId: str(row.inviter_id),
    maxAge: Number(row.max_age),
    maxUses: Number(row.max_uses),
    uses: Number(row.uses),
    temporary: bool(row.temporary),
    roleIds: json(row.role_ids),
    createdAt: Number(row.created_at),
    job: row.job === null ? null : json(row.job),
  };
}

function auditFromRow(row: Row): AuditEntryRecord {
  return {
    id: str(row.id),
    guildId: str(row.guild_id),
    userId: str(row.user_id),
    targetId: strOrNull(row.target_id),
    actionType: Number(row.action_type),
    changes: row.changes === null ? null : json(row.changes),
    options: row.options === null ? null : json(row.options),
    reason: strOrNull(row.reason),
  };
}

const SNOWFLAKE_ORDER = 'length(id), id';

export function sqliteBotGuilds(db: SqlDatabase): BotGuildRepository {
  const roles = db.prepare('SELECT * FROM roles WHERE guild_id = ? ORDER BY position, length(id), id');
  const role = db.prepare('SELECT * FROM roles WHERE guild_id = ? AND id = ?');
  const upsertRole = db.prepare(
    `INSERT INTO roles (id, guild_id, name, permissions, position, colors, hoist, mentionable, icon, unicode_emoji,
     flags)
     VALUES (@id, @guildId, @name, @permissions, @position, @colors, @hoist, @mentionable, @icon, @unicodeEmoji, @flags)
     ON CONFLICT (guild_id, id) DO UPDATE SET name = excluded.name, permissions = excluded.permissions,
       position = excluded.position, colors = excluded.colors, hoist = excluded.hoist,
         mentionable = excluded.mentionable,
       icon = excluded.icon, unicode_emoji = excluded.unicode_emoji, flags = excluded.flags`,
  );
  const deleteRole = db.prepare('DELETE FROM roles WHERE guild_id = ? AND id = ?');

  const memberSelect = `SELECT m.guild_id, m.user_id, p.nick, p.avatar, p.banner, p.bio, p.roles, p.joined_at, p.flags,
      p.communication_disabled_until
    FROM guild_members m LEFT JOIN member_profiles p ON p.guild_id = m.guild_id AND p.user_id = m.user_id`;
  const members = db.prepare(
    `${memberSelect} WHERE m.guild_id = @guildId AND (CAST(@after AS TEXT) IS NULL OR length(m.user_id) > length(@after)
       OR (length(m.user_id) = length(@after) AND m.user_id > @after)) ORDER BY length(m.user_id), m.user_id
         LIMIT @limit`,
  );
  const member = db.prepare(`${memberSelect} WHERE m.guild_id = ? AND m.user_id = ?`);
  const botMembers = db.prepare(
    'SELECT m.user_id FROM guild_members m JOIN users u ON u.id = m.user_id WHERE m.guild_id = ? AND u.bot = 1',
  );
  const search = db.prepare(
    `${memberSelect} JOIN users u ON u.id = m.user_id WHERE m.guild_id = @guildId
       AND (lower(u.username) LIKE @pattern ESCAPE '\\' OR lower(coalesce(u.global_name, '')) LIKE @pattern ESCAPE '\\'
         OR lower(coalesce(p.nick, '')) LIKE @pattern ESCAPE '\\')
     ORDER BY length(m.user_id), m.user_id LIMIT @limit`,
  );
  const addMembership = db.prepare(
    'INSERT INTO guild_members (guild_id, user_id) VALUES (?, ?) ON CONFLICT DO NOTHING',
  );
  const upsertProfile = db.prepare(
    `INSERT INTO member_profiles (guild_id, user_id, nick, avatar, banner, bio, roles, joined_at, flags,
     communication_disabled_until)
     VALUES (@guildId, @userId, @nick, @avatar, @banner, @bio, @roles, @joinedAt, @flags, @communicationDisabledUntil)
     ON CONFLICT (guild_id, user_id) DO UPDATE SET nick = excluded.nick, avatar = excluded.avatar,
       banner = excluded.banner,
       bio = excluded.bio, roles = excluded.roles, joined_at = excluded.joined_at, flags = excluded.flags,
       communication_disabled_until = excluded.communication_disabled_until`,
  );
  const removeMembership = db.prepare('DELETE FROM guild_members WHERE guild_id = ? AND user_id = ?');
  const removeProfile = db.prepare('DELETE FROM member_profiles WHERE guild_id = ? AND user_id = ?');

  const settings = db.prepare('SELECT * FROM channel_settings WHERE channel_id = ?');
  const upsertSettings = db.prepare(
    `INSERT INTO channel_settings (channel_id, topic, nsfw, rate_limit_per_user, bitrate, user_limit, overwrites)
       VALUES (@channelId, @topic, @nsfw, @rate, @bitrate, @userLimit, @overwrites)
     ON CONFLICT (channel_id) DO UPDATE SET topic = excluded.topic, nsfw = excluded.nsfw,
       rate_limit_per_user = excluded.rate_limit_per_user,
       bitrate = excluded.bitrate, user_limit = excluded.user_limit, overwrites = excluded.overwrites`,
  );
  const forgetChannel = [
    'DELETE FROM invite_target_users WHERE code IN (SELECT code FROM guild_invites WHERE channel_id = ?)',
    'DELETE FROM guild_invites WHERE channel_id = ?',
    'DELETE FROM message_attachments WHERE channel_id = ?',
    'DELETE FROM message_reactions WHERE channel_id = ?',
    'DELETE FROM guild_messages WHERE channel_id = ?',
    'DELETE FROM channel_settings WHERE channel_id = ?',
  ].map((sql) => db.prepare(sql));

  const messageColumns =
    'id, channel_id, guild_id, author_id, type, content, flags, nonce, body, pinned_at, created_at, edited_at';
  const insertMessage = db.prepare(
    `INSERT INTO guild_messages (${messageColumns}) VALUES (@id, @channelId, @guildId, @authorId, @type, @content,
     @flags, @nonce, @body, @pinnedAt, @createdAt, @editedAt)`,
  );
  const updateMessage = db.prepare(
    `UPDATE guild_messages SET content = @content, flags = @flags, body = @body, pinned_at = @pinnedAt,
     edited_at = @editedAt WHERE id = @id`,
  );
  const message = db.prepare('SELECT * FROM guild_messages WHERE channel_id = ? AND id = ?');
  const deleteMessage = db.prepare('DELETE FROM guild_messages WHERE channel_id = ? AND id = ?');
  const deleteReactions = db.prepare('DELETE FROM message_reactions WHERE channel_id = ? AND message_id = ?');
  const byNonce = db.prepare(
    `SELECT * FROM guild_messages WHERE channel_id = ? AND author_id = ? AND nonce = ? AND created_at >= ?
     ORDER BY created_at DESC LIMIT 1`,
  );
  const before = db.prepare(
    `SELECT * FROM guild_messages WHERE channel_id = @channelId AND (length(id) < length(@before)
     OR (length(id) = length(@before) AND id < @before))
     ORDER BY length(id) DESC, id DESC LIMIT @limit`,
  );
  const after = db.prepare(
    `SELECT * FROM (SELECT * FROM guild_messages WHERE channel_id = @channelId AND (length(id) > length(@after)
     OR (length(id) = length(@after) AND id > @after))
     ORDER BY ${SNOWFLAKE_ORDER} LIMIT @limit) AS page ORDER BY length(id) DESC, id DESC`,
  );
  const latest = db.prepare(
    'SELECT * FROM guild_messages WHERE channel_id = @channelId ORDER BY length(id) DESC, id DESC LIMIT @limit',
  );
  const pins = db.prepare(
    `SELECT * FROM guild_messages WHERE channel_id = ? AND pinned_at IS NOT NULL AND pinned_at < ?
     ORDER BY pinned_at DESC, length(id) DESC, id DESC LIMIT ?`,
  );
  const countPins = db.prepare(
    'SELECT COUNT(*) AS n FROM guild_messages WHERE channel_id = ? AND pinned_at IS NOT NULL',
  );

  const emojiFromRow = (row: Row): ApplicationEmojiRecord => ({
    id: str(row.id),
    applicationId: str(row.application_id),
    name: str(row.name),
    image: str(row.image),
    userId: str(row.user_id),
    animated: bool(row.animated),
  });
  const autoModRules = db.prepare('SELECT * FROM auto_moderation_rules WHERE guild_id = ? ORDER BY length(id), id');
  const upsertAutoModRule = db.prepare(
    `INSERT INTO auto_moderation_rules (id, guild_id, rule) VALUES (@id, @guildId, @rule) ON CONFLICT (guild_id, id)
     DO UPDATE SET rule = excluded.rule`,
  );
  const deleteAutoModRule = db.prepare('DELETE FROM auto_moderation_rules WHERE guild_id = ? AND id = ?');
  const emojis = db.prepare('SELECT * FROM application_emojis WHERE application_id = ? ORDER BY length(id), id');
  const countEmojis = db.prepare('SELECT COUNT(*) AS n FROM application_emojis WHERE application_id = ?');
  const emoji = db.prepare('SELECT * FROM application_emojis WHERE application_id = ? AND id = ?');
  const emojiByName = db.prepare('SELECT * FROM application_emojis WHERE application_id = ? AND name = ?');
  const upsertEmoji = db.prepare(
    `INSERT INTO application_emojis (id, application_id, name, image, user_id, animated)
     VALUES (@id, @applicationId, @name, @image, @userId, @animated)
     ON CONFLICT (id) DO UPDATE SET name = excluded.name`,
  );
  const deleteEmoji = db.prepare('DELETE FROM application_emojis WHERE application_id = ? AND id = ?');
  const insertAttachment = db.prepare(
    `INSERT INTO message_attachments (id, channel_id, filename, content_type, data)
     VALUES (@id, @channelId, @filename, @contentType, @data)`,
  );
  const attachment = db.prepare('SELECT * FROM message_attachments WHERE channel_id = ? AND id = ?');
  const inviteParams = (invite: InviteRecord) => ({
    ...invite,
    temporary: int(invite.temporary),
    roleIds: JSON.stringify(invite.roleIds),
    job: invite.job === null ? null : JSON.stringify(invite.job),
  });
  const insertInvite = db.prepare(
    `INSERT INTO guild_invites (code, guild_id, channel_id, inviter_id, max_age, max_uses, uses, temporary, role_ids,
     job, created_at)
     VALUES (@code, @guildId, @channelId, @inviterId, @maxAge, @maxUses, @uses, @temporary, @roleIds, @job,
       @createdAt)`,
  );
  const updateInvite = db.prepare(
    'UPDATE guild_invites SET uses = @uses, role_ids = @roleIds, job = @job WHERE code = @code',
  );
  const invite = db.prepare('SELECT * FROM guild_invites WHERE code = ?');
  const channelInvites = db.prepare('SELECT * FROM guild_invites WHERE channel_id = ? ORDER BY created_at, code');
  const clearTargets = db.prepare('DELETE FROM invite_target_users WHERE code = ?');
  const removeInvite = db.prepare('DELETE FROM guild_invites WHERE code = ?');
  const addTarget = db.prepare('INSERT INTO invite_target_users (code, user_id) VALUES (?, ?) ON CONFLICT DO NOTHING');
  const targets = db.prepare(
    'SELECT user_id FROM invite_target_users WHERE code = ? ORDER BY length(user_id), user_id',
  );

  const insertAudit = db.prepare(
    `INSERT INTO audit_log (id, guild_id, user_id, target_id, action_type, changes, options, reason)
     VALUES (@id, @guildId, @userId, @targetId, @actionType, @changes, @options, @reason)`,
  );
  const listAudit = db.prepare(
    `SELECT * FROM audit_log WHERE guild_id = @guildId AND (CAST(@userId AS TEXT) IS NULL OR user_id = @userId)
       AND (CAST(@actionType AS INTEGER) IS NULL OR action_type = @actionType)
       AND (CAST(@before AS TEXT) IS NULL OR length(id) < length(@before) OR (length(id) = length(@before)
         AND id < @before))
       AND (CAST(@after AS TEXT) IS NULL OR length(id) > length(@after) OR (length(id) = length(@after)
         AND id > @after))
     ORDER BY length(id) DESC, id DESC LIMIT @limit`,
  );

  return {
    listRoles: (guildId) => (roles.all(guildId) as Row[]).map(roleFromRow),
    getRole: (guildId, roleId) => {
      const row = role.get(guildId, roleId);
      return row ? roleFromRow(row as Row) : undefined;
    },
    upsertRole: (record) =>
      void upsertRole.run({
        ...record,
        colors: JSON.stringify(record.colors),
        hoist: int(record.hoist),
        mentionable: int(record.mentionable),
      }),
    deleteRole: (guildId, roleId) => void deleteRole.run(guildId, roleId),

    listMembers: (guildId, afterId, limit) =>
      (members.all({ guildId, after: afterId, limit }) as Row[]).map(memberFromRow),
    getMember: (guildId, userId) => {
      const row = member.get(guildId, userId);
      return row ? memberFromRow(row as Row) : undefined;
    },
    botMemberIds: (guildId) => (botMembers.all(guildId) as Row[]).map((row) => str(row.user_id)),
    searchMembers: (guildId, prefix, limit) =>
      (
        search.all({ guildId, pattern: `${prefix.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`, limit }) as Row[]
      ).map(memberFromRow),
    upsertMember: (record) => {
      addMembership.run(record.guildId, record.userId);
      upsertProfile.run({ ...record, roles: JSON.stringify(record.roles) });
    },
    removeMember: (guildId, userId) => {
      removeMembership.run(guildId, userId);
      removeProfile.run(guildId, userId);
    },

    channelSettings: (channelId): ChannelSettingsRecord => {
      const row = settings.get(channelId) as Row | undefined;
      if (!row)
        return {
          channelId,
          topic: null,
          nsfw: false,
          rateLimitPerUser: 0,
          bitrate: 64_000,
          userLimit: 0,
          overwrites: [],
        };
      return {
        channelId,
        topic: strOrNull(row.topic),
        nsfw: bool(row.nsfw),
        rateLimitPerUser: Number(row.rate_limit_per_user),
        bitrate: Number(row.bitrate),
        userLimit: Number(row.user_limit),
        overwrites: json(row.overwrites),
      };
    },
    setChannelSettings: (record) =>
      void upsertSettings.run({
        channelId: record.channelId,
        topic: record.topic,
        nsfw: int(record.nsfw),
        rate: record.rateLimitPerUser,
        bitrate: record.bitrate,
        userLimit: record.userLimit,
        overwrites: JSON.stringify(record.overwrites),
      }),
    listAutoModRules: (guildId) =>
      (autoModRules.all(guildId) as Row[]).map((row): AutoModRuleRecord => ({
        id: str(row.id),
        guildId: str(row.guild_id),
        rule: json(row.rule),
      })),
    upsertAutoModRule: (record) =>
      void upsertAutoModRule.run({ id: record.id, guildId: record.guildId, rule: JSON.stringify(record.rule) }),
    deleteAutoModRule: (guildId, id) => void deleteAutoModRule.run(guildId, id),
    forgetChannel: (channelId) => db.transaction(() => forgetChannel.forEach((statement) => statement.run(channelId))),

    insertMessage: (record) => void insertMessage.run({ ...record, body: JSON.stringify(record.body) }),
    updateMessage: (record) => void updateMessage.run({ ...record, body: JSON.stringify(record.body) }),
    getMessage: (channelId, messageId) => {
      const row = message.get(channelId, messageId);
      return row ? messageFromRow(row as Row) : undefined;
    },
    // A deleted message's reactions go with it.
    deleteMessage: (channelId, messageId) =>
      db.transaction(() => {
        deleteReactions.run(channelId, messageId);
        deleteMessage.run(channelId, messageId);
      }),
    listMessages: (channelId, query) => {
      const rows =
        query.before !== undefined
          ? before.all({ channelId, before: query.before, limit: query.limit })
          : query.after !== undefined
            ? after.all({ channelId, after: query.after, limit: query.limit })
            : latest.all({ channelId, limit: query.limit });
      return (rows as Row[]).map(messageFromRow);
    },
    findByNonce: (channelId, authorId, nonce, since) => {
      const row = byNonce.get(channelId, authorId, nonce, since);
      return row ? messageFromRow(row as Row) : undefined;
    },
    listPins: (channelId, beforeMs, limit) =>
      (pins.all(channelId, beforeMs ?? Number.MAX_SAFE_INTEGER, limit) as Row[]).map(messageFromRow),
    countPins: (channelId) => Number((countPins.get(channelId) as Row).n),

    searchMessages: (guildId, query) => searchMessages(db, guildId, query),
    listEmojis: (applicationId) => (emojis.all(applicationId) as Row[]).map(emojiFromRow),
    countEmojis: (applicationId) => Number((countEmojis.get(applicationId) as Row).n),
    getEmoji: (applicationId, id) => {
      const row = emoji.get(applicationId, id) as Row | undefined;
      return row ? emojiFromRow(row) : undefined;
    },
    findEmojiByName: (applicationId, name) => {
      const row = emojiByName.get(applicationId, name) as Row | undefined;
      return row ? emojiFromRow(row) : undefined;
    },
    upsertEmoji: (record) => void upsertEmoji.run({ ...record, animated: int(record.animated) }),
    deleteEmoji: (applicationId, id) => void deleteEmoji.run(applicationId, id),
    insertAttachment: (file) => void insertAttachment.run(file),
    attachment: (channelId, id) => {
      const row = attachment.get(channelId, id) as Row | undefined;
      return row
        ? {
            id: str(row.id),
            channelId: str(row.channel_id),
            filename: str(row.filename),
            contentType: str(row.content_type),
            data: row.data as Buffer,
          }
        : undefined;
    },
    insertInvite: (record) => void insertInvite.run(inviteParams(record)),
    updateInvite: (record) => void updateInvite.run(inviteParams(record)),
    getInvite: (code) => {
      const row = invite.get(code);
      return row ? inviteFromRow(row as Row) : undefined;
    },
    listChannelInvites: (channelId) => (channelInvites.all(channelId) as Row[]).map(inviteFromRow),
    deleteInvite: (code) => {
      clearTargets.run(code);
      removeInvite.run(code);
    },
    setTargetUsers: (code, userIds) => {
      clearTargets.run(code);
      for (const id of userIds) addTarget.run(code, id);
    },
    targetUsers: (code) => (targets.all(code) as Row[]).map((row) => str(row.user_id)),

    insertAudit: (entry) =>
      void insertAudit.run({
        ...entry,
        changes: entry.changes === null ? null : JSON.stringify(entry.changes),
        options: entry.options === null ? null : JSON.stringify(entry.options),
      }),
    listAudit: (guildId, query) =>
      (
        listAudit.all({
          guildId,
          userId: query.userId ?? null,
          actionType: query.actionType ?? null,
          before: query.before ?? null,
          after: query.after ?? null,
          limit: query.limit,
        }) as Row[]
      ).map(auditFromRow),
  };
}

/** Built per call: the filters present decide the statement (ids compared as snowflakes: length, then text). */
function searchMessages(
  db: SqlDatabase,
  guildId: string,
  query: MessageSearchQuery,
): { messages: MessageRecord[]; total: number } {
  if (query.channelIds.length === 0) return { messages: [], total: 0 };
  const where = ['guild_id = @guildId', `channel_id IN (${query.channelIds.map((_, i) => `@c${i}`).join(', ')})`];
  const params: Record<string, unknown> = { guildId };
  query.channelIds.forEach((id, i) => (params[`c${i}`] = id));
  if (query.authorIds && query.authorIds.length > 0) {
    where.push(`author_id IN (${query.authorIds.map((_, i) => `@a${i}`).join(', ')})`);
    query.authorIds.forEach((id, i) => (params[`a${i}`] = id));
  }
  if (query.content !== undefined && query.content !== '') {
    where.push('instr(lower(content), lower(@content)) > 0');
    params.content = query.content;
  }
  if (query.pinned !== undefined) where.push(query.pinned ? 'pinned_at IS NOT NULL' : 'pinned_at IS NULL');
  if (query.minId !== undefined) {
    where.push('(length(id) > length(@minId) OR (length(id) = length(@minId) AND id > @minId))');
    params.minId = query.minId;
  }
  if (query.maxId !== undefined) {
    where.push('(length(id) < length(@maxId) OR (length(id) = length(@maxId) AND id < @maxId))');
    params.maxId = query.maxId;
  }
  const clause = where.join(' AND ');
  const order = query.ascending ? 'length(id), id' : 'length(id) DESC, id DESC';
  const total = Number((db.prepare(`SELECT COUNT(*) AS n FROM guild_messages WHERE ${clause}`).get(params) as Row).n);
  const rows = db
    .prepare(`SELECT * FROM guild_messages WHERE ${clause} ORDER BY ${order} LIMIT @limit OFFSET @offset`)
    .all({ ...params, limit: query.limit, offset: query.offset });
  return { messages: (rows as Row[]).map(messageFromRow), total };
}
