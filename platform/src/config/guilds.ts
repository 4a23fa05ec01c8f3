import type { PlatformKernel } from '../kernel.js';
import { addFieldError, invalidFormBody, type ErrorTree } from '../http/errors.js';
import type { GuildRecord } from '../store/types.js';
import type { GuildConfig } from './schema.js';
import { resolveApplication, resolveUser } from './references.js';
import { everyoneRole } from '../bot-api/guilds/permissions.js';

/**
 * Creates or updates (by id, else name) a guild with its members (users and applications' bots) and channels;
 * idempotent.
 */
export function upsertGuild(ctx: PlatformKernel, config: GuildConfig): GuildRecord {
  const errors: ErrorTree = {};
  let failed = false;
  const owner = config.owner === null ? undefined : resolveUser(ctx, config.owner);
  if (config.owner !== null && !owner) {
    addFieldError(errors, ['owner'], { code: 'UNKNOWN_USER', message: 'Unknown user.' });
    failed = true;
  }
  const members = config.members.map((ref, index) => {
    const user = resolveUser(ctx, ref);
    if (!user) {
      addFieldError(errors, ['members', index], { code: 'UNKNOWN_USER', message: 'Unknown user.' });
      failed = true;
    }
    return user;
  });
  const bots = config.bots.map((ref, index) => {
    const app = resolveApplication(ctx, ref);
    if (!app) {
      addFieldError(errors, ['bots', index], { code: 'UNKNOWN_APPLICATION', message: 'Unknown application.' });
      failed = true;
    }
    return app?.botUserId;
  });
  const categoryNames = new Set(config.channels.filter((c) => c.type === 4).map((c) => c.name));
  config.channels.forEach((channel, index) => {
    if (channel.parent !== null && !categoryNames.has(channel.parent)) {
      addFieldError(errors, ['channels', index, 'parent'], {
        code: 'UNKNOWN_CHANNEL',
        message: 'Parent must be a category channel of this guild.',
      });
      failed = true;
    }
  });
  const roleHolders = config.roles.map((role, roleIndex) =>
    role.members.map((ref, index) => {
      const id = resolveUser(ctx, ref)?.id ?? resolveApplication(ctx, ref)?.botUserId;
      if (!id) {
        addFieldError(errors, ['roles', roleIndex, 'members', index], {
          code: 'UNKNOWN_USER',
          message: 'Unknown user.',
        });
        failed = true;
      }
      return id;
    }),
  );
  if (failed) throw invalidFormBody(errors);

  const existing =
    (config.id ? ctx.store.guilds.get(config.id) : undefined) ?? ctx.store.guilds.findByName(config.name);
  const guild: GuildRecord = {
    id: existing?.id ?? config.id ?? ctx.ids.next(),
    name: config.name,
    icon: config.icon,
    banner: config.banner,
    ownerId: owner?.id ?? existing?.ownerId ?? null,
    tag: config.tag,
    features: config.features,
  };
  ctx.store.guilds.upsert(guild);
  if (owner) ctx.store.guilds.addMember(guild.id, owner.id);
  for (const member of members) if (member) ctx.store.guilds.addMember(guild.id, member.id);
  for (const botUserId of bots) if (botUserId) ctx.store.guilds.addMember(guild.id, botUserId);

  applyRoles(ctx, guild, config, roleHolders);

  // Categories first so children can point at them.
  const ordered = [...config.channels].sort((a, b) => (a.type === 4 ? 0 : 1) - (b.type === 4 ? 0 : 1));
  for (const channel of ordered) {
    const parent = channel.parent === null ? undefined : ctx.store.guilds.findChannelByName(guild.id, channel.parent);
    const current = channel.id ? undefined : ctx.store.guilds.findChannelByName(guild.id, channel.name);
    ctx.store.guilds.upsertChannel({
      id: channel.id ?? current?.id ?? ctx.ids.next(),
      guildId: guild.id,
      name: channel.name,
      type: channel.type,
      position: channel.position ?? config.channels.indexOf(channel),
      parentId: parent?.id ?? null,
    });
  }
  return guild;
}

/** Roles (by id, else name) and their holders; every member gets a profile row with its join time. */
function applyRoles(
  ctx: PlatformKernel,
  guild: GuildRecord,
  config: GuildConfig,
  holders: Array<Array<string | undefined>>,
): void {
  const store = ctx.store.botGuilds;
  if (config.everyone_permissions !== undefined) {
    store.upsertRole({
      ...everyoneRole(guild, store.getRole(guild.id, guild.id)),
      permissions: config.everyone_permissions,
    });
  }
  const existing = store.listRoles(guild.id);
  const roleIds = config.roles.map((role, index) => {
    const current = existing.find((r) =>
      role.id !== undefined ? r.id === role.id : r.name === role.name && r.id !== guild.id,
    );
    const id = current?.id ?? role.id ?? ctx.ids.next();
    store.upsertRole({
      id,
      guildId: guild.id,
      name: role.name,
      permissions: role.permissions,
      position: index + 1,
      colors: { primary_color: role.color, secondary_color: null, tertiary_color: null },
      hoist: role.hoist,
      mentionable: role.mentionable,
      icon: null,
      unicodeEmoji: null,
      flags: 0,
    });
    return id;
  });
  const now = ctx.now();
  for (const member of store.listMembers(guild.id, null, Number.MAX_SAFE_INTEGER)) {
    const roles = new Set(member.roles);
    roleIds.forEach((roleId, index) => {
      if (holders[index]!.includes(member.userId)) roles.add(roleId);
    });
    store.upsertMember({ ...member, roles: [...roles], joinedAt: member.joinedAt || now });
  }
}
