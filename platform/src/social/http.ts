/** Request helpers shared by the social routes. */
import type { PlatformKernel } from '../kernel.js';
import { Errors } from '../http/errors.js';
import type { UserRecord } from '../store/types.js';
import { isSnowflake } from '../ids/snowflake.js';

/** The user named by a path id; malformed, unknown and bot ids are all `404 10013` (bots have no social graph). */
export function pathUser(ctx: PlatformKernel, id: string): UserRecord {
  const user = isSnowflake(id) ? ctx.store.users.get(id) : undefined;
  if (!user || user.bot) throw Errors.unknownUser();
  return user;
}
