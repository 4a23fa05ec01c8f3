import type { PlatformKernel } from '../kernel.js';
import { verifyPassword } from '../crypto/passwords.js';
import type { UserRecord } from '../store/types.js';
import { resolveUser } from '../config/references.js';
import { isBanned } from './bans.js';

export type LoginResult = { ok: true; user: UserRecord } | { ok: false; reason: 'unknown' | 'banned' };

/**
 * Signs a person in on the consent and device pages: a full (non-provisional, non-bot) account by id or
 * username, with its password when it has one. `skipPassword` is the development auto-approve shortcut.
 */
export function login(
  ctx: PlatformKernel,
  ref: string,
  password: string | undefined,
  skipPassword = false,
): LoginResult {
  const user = resolveUser(ctx, ref);
  if (!user || user.bot || user.isProvisional) return { ok: false, reason: 'unknown' };
  if (!skipPassword && user.passwordHash && !(password !== undefined && verifyPassword(password, user.passwordHash))) {
    return { ok: false, reason: 'unknown' };
  }
  if (isBanned(user, ctx.now())) return { ok: false, reason: 'banned' };
  return { ok: true, user };
}
