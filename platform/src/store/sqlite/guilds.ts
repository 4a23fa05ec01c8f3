import type { SqlDatabase } from '../sql-database.js';
import type { ChannelRecord, GuildRecord, GuildRepository } from '../types.js';
import { json, str, strOrNull, type Row } from './rows.js';

function guildFromRow(row: Row): GuildRecord {
  return {
    id: str(row.id),
    name: str(row.name),
    icon: strOrNull(row.icon),
    banner: strOrNull(row.banner),
    ownerId: strOrNull(row.owner_id),
    tag: strOrNull(row.tag),
    features: json(row.features),
  };
}

function channelFromRow(row: Row): ChannelRecord {
  return {
    id: str(row.id),
    guildId: str(row.guild_id),
    name: str(row.name),
    type: Number(row.type),
    position: Number(row.position),
    parentId: strOrNull(row.parent_id),
  };
}

export function sqliteGuilds(db: SqlDatabase): GuildRepository {
  const upsert = db.prepare(
    `INSERT INTO guilds (id, name, icon, banner, owner_id, tag, features)
     VALUES (@id, @name, @icon, @banner, @ownerId, @tag, @features)
     ON CONFLICT (id) DO UPDATE SET name = excluded.name, icon = excluded.icon, banner = excluded.banner,
       owner_id = excluded.owner_id, tag = excluded.tag, features = excluded.features`,
  );
  const get = db.prepare('SELECT * FROM guilds WHERE id = ?');
  const byName = db.prepare('SELECT * FROM guilds WHERE name = ?');
  const list = db.prepare('SELECT * FROM guilds ORDER BY length(id), id');
  const addMember = db.prepare('INSERT INTO guild_members (guild_id, user_id) VALUES (?, ?) ON CONFLICT DO NOTHING');
  const isMember = db.prepare('SELECT 1 FROM guild_members WHERE guild_id = ? AND user_id = ?');
  const countMembers = db.prepare('SELECT COUNT(*) AS n FROM guild_members WHERE guild_id = ?');
  const forUser = db.prepare(
    `SELECT g.* FROM guilds g JOIN guild_members m ON m.guild_id = g.id WHERE m.user_id = ? ORDER BY length(g.id),
     g.id`,
  );
  const copyMemberships = db.prepare(
    `INSERT INTO guild_members (guild_id, user_id) SELECT guild_id, CAST(? AS TEXT) FROM guild_members
     WHERE user_id = ? ON CONFLICT DO NOTHING`,
  );
  const dropMemberships = db.prepare('DELETE FROM guild_members WHERE user_id = ?');
  const upsertChannel = db.prepare(
    `INSERT INTO channels (id, guild_id, name, type, position, parent_id)
     VALUES (@id, @guildId, @name, @type, @position, @parentId)
     ON CONFLICT (id) DO UPDATE SET name = excluded.name, type = excluded.type, position = excluded.position,
       parent_id = excluded.parent_id`,
  );
  const dropChannel = db.prepare('DELETE FROM channels WHERE id = ?');
  const orphanChildren = db.prepare('UPDATE channels SET parent_id = NULL WHERE parent_id = ?');
  const channelByName = db.prepare('SELECT * FROM channels WHERE guild_id = ? AND name = ?');
  const channelById = db.prepare('SELECT * FROM channels WHERE id = ?');
  const channels = db.prepare('SELECT * FROM channels WHERE guild_id = ? ORDER BY position, id');
  return {
    upsert: (guild) => void upsert.run({ ...guild, features: JSON.stringify(guild.features) }),
    get: (id) => {
      const row = get.get(id);
      return row ? guildFromRow(row as Row) : undefined;
    },
    findByName: (name) => {
      const row = byName.get(name);
      return row ? guildFromRow(row as Row) : undefined;
    },
    addMember: (guildId, userId) => void addMember.run(guildId, userId),
    isMember: (guildId, userId) => isMember.get(guildId, userId) !== undefined,
    countMembers: (guildId) => Number((countMembers.get(guildId) as Row).n),
    listForUser: (userId) => (forUser.all(userId) as Row[]).map(guildFromRow),
    moveMemberships: (fromUserId, toUserId) => {
      copyMemberships.run(toUserId, fromUserId);
      dropMemberships.run(fromUserId);
    },
    upsertChannel: (channel) => void upsertChannel.run(channel),
    deleteChannel: (id) =>
      db.transaction(() => {
        orphanChildren.run(id);
        dropChannel.run(id);
      }),
    findChannelByName: (guildId, name) => {
      const row = channelByName.get(guildId, name);
      return row ? channelFromRow(row as Row) : undefined;
    },
    getChannel: (id) => {
      const row = channelById.get(id);
      return row ? channelFromRow(row as Row) : undefined;
    },
    listChannels: (guildId) => (channels.all(guildId) as Row[]).map(channelFromRow),
    list: () => (list.all() as Row[]).map(guildFromRow),
  };
}
