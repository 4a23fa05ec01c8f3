import type { PlatformKernel } from '../kernel.js';
import type { ApplicationRecord, GuildRecord, UserRecord } from '../store/types.js';
import { isSnowflake } from '../ids/snowflake.js';

/** Config references accept an id or a name; ids win when both could match. */
export function resolveApplication(ctx: PlatformKernel, ref: string): ApplicationRecord | undefined {
  return (isSnowflake(ref) ? ctx.store.applications.get(ref) : undefined) ?? ctx.store.applications.findByName(ref);
}

export function resolveUser(ctx: PlatformKernel, ref: string): UserRecord | undefined {
  return (isSnowflake(ref) ? ctx.store.users.get(ref) : undefined) ?? ctx.store.users.findByUsername(ref);
}

export function resolveGuild(ctx: PlatformKernel, ref: string): GuildRecord | undefined {
  return (isSnowflake(ref) ? ctx.store.guilds.get(ref) : undefined) ?? ctx.store.guilds.findByName(ref);
}
