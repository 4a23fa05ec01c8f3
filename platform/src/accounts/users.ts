import { randomBytes } from 'node:crypto';
import type { PlatformKernel } from '../kernel.js';

import type { UserRecord } from '../store/types.js';
import { publishedError } from '../http/published-errors.js';

export const USERNAME_PATTERN = /^[a-z0-9_.]{2,32}$/;

type NewUserFields = Partial<Omit<UserRecord, 'id' | 'createdAt'>> & { username: string };

function baseUser(ctx: PlatformKernel, fields: NewUserFields): UserRecord {
  return {
    id: ctx.ids.next(),
    globalName: null,
    avatar: null,
    banner: null,
    email: null,
    verified: false,
    premiumType: 0,
    locale: 'en-US',
    bot: false,
    isProvisional: false,
    provisionalApplicationId: null,
    restrictedByUserId: null,
    bannedUntil: null,
    primaryGuildId: null,
    passwordHash: null,
    createdAt: ctx.now(),
    ...fields,
  };
}

export function createUser(ctx: PlatformKernel, fields: NewUserFields & { id?: string }): UserRecord {
  const user = { ...baseUser(ctx, fields), ...(fields.id ? { id: fields.id } : {}) };
  ctx.store.users.insert(user);
  return user;
}

/** The bot user of an application; its username derives from the application name. */
export function createBotUser(ctx: PlatformKernel, applicationName: string): UserRecord {
  return createUser(ctx, {
    username: uniqueUsername(ctx, applicationName, 'bot'),
    globalName: applicationName,
    bot: true,
    verified: true,
  });
}

export interface ProvisionalUserFields {
  applicationId: string;
  displayName?: string | undefined;
  restrictedByUserId?: string | null;
}

/**
 * A provisional account: no credentials of its own, owned by the application that created it. Its username is
 * generated from the display name (platform/PROTOCOL.md §5, "Identities"); global_name carries the display name itself.
 */
export function createProvisionalUser(ctx: PlatformKernel, fields: ProvisionalUserFields): UserRecord {
  return createUser(ctx, {
    username: uniqueUsername(ctx, fields.displayName ?? 'player', 'player'),
    globalName: fields.displayName ?? null,
    isProvisional: true,
    provisionalApplicationId: fields.applicationId,
    restrictedByUserId: fields.restrictedByUserId ?? null,
  });
}

/** A free username built from `seed` plus a random suffix; 530006 if none is found (published: retry). */
export function uniqueUsername(ctx: PlatformKernel, seed: string, fallback: string): string {
  let base = seed
    .toLowerCase()
    .replace(/[^a-z0-9_.]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 24);
  if (base.length < 2) base = fallback;
  for (let attempt = 0; attempt < 5; attempt++) {
    const candidate = `${base}_${randomBytes(4).toString('hex').slice(0, 6)}`;
    if (!ctx.store.users.findByUsername(candidate)) return candidate;
  }
  throw publishedError('USERNAME_GENERATION_FAILED');
}
