import type { PlatformKernel } from '../kernel.js';
import { hashPassword } from '../crypto/passwords.js';
import { addFieldError, invalidFormBody, type ErrorTree } from '../http/errors.js';
import type { UserRecord } from '../store/types.js';
import { createUser } from '../accounts/users.js';
import type { UserConfig } from './schema.js';
import { resolveApplication, resolveGuild } from './references.js';

/** Creates or updates (by id, else username) a full user account from config; idempotent. */
export function upsertUserBase(ctx: PlatformKernel, config: UserConfig): UserRecord {
  const existing =
    (config.id ? ctx.store.users.get(config.id) : undefined) ?? ctx.store.users.findByUsername(config.username);
  const fields = {
    username: config.username,
    globalName: config.global_name,
    email: config.email,
    verified: config.verified,
    premiumType: config.premium_type,
    locale: config.locale,
    avatar: config.avatar,
    banner: config.banner,
  };
  if (existing) {
    const updated: UserRecord = {
      ...existing,
      ...fields,
      passwordHash: config.password !== undefined ? hashPassword(config.password) : existing.passwordHash,
    };
    ctx.store.users.update(updated);
    return updated;
  }
  return createUser(ctx, {
    ...fields,
    ...(config.id ? { id: config.id } : {}),
    passwordHash: config.password !== undefined ? hashPassword(config.password) : null,
  });
}

/** The parts of a user config that refer to guilds and applications (applied once those exist). */
export function applyUserReferences(ctx: PlatformKernel, user: UserRecord, config: UserConfig): UserRecord {
  const errors: ErrorTree = {};
  let failed = false;
  let primaryGuildId: string | null = null;
  if (config.primary_guild !== null) {
    const guild = resolveGuild(ctx, config.primary_guild);
    if (!guild) {
      addFieldError(errors, ['primary_guild'], { code: 'UNKNOWN_GUILD', message: 'Unknown guild.' });
      failed = true;
    } else if (!guild.tag) {
      addFieldError(errors, ['primary_guild'], { code: 'GUILD_HAS_NO_TAG', message: 'The guild has no tag.' });
      failed = true;
    } else {
      primaryGuildId = guild.id;
    }
  }
  const publishers = config.connections.map((connection, index) => {
    if (connection.publisher_application === null) return null;
    const app = resolveApplication(ctx, connection.publisher_application);
    if (!app) {
      addFieldError(errors, ['connections', index, 'publisher_application'], {
        code: 'UNKNOWN_APPLICATION',
        message: 'Unknown application.',
      });
      failed = true;
    }
    return app?.id ?? null;
  });
  if (failed) throw invalidFormBody(errors);

  config.connections.forEach((connection, index) => {
    ctx.store.connections.upsert({
      userId: user.id,
      type: connection.type,
      id: connection.id,
      name: connection.name,
      verified: connection.verified,
      visibility: connection.visibility,
      publisherApplicationId: publishers[index] ?? null,
    });
  });
  const updated = { ...user, primaryGuildId };
  ctx.store.users.update(updated);
  return updated;
}
