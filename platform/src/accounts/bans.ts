import type { PlatformKernel } from '../kernel.js';
import type { AccessEnding } from './access-ending.js';
import type { UserRecord } from '../store/types.js';
import { Errors } from '../http/errors.js';
import { createProvisionalUser } from './users.js';
import { enqueueDeauthorized } from '../webhooks/events.js';

export function isBanned(user: UserRecord, now: number): boolean {
  return user.bannedUntil !== null && user.bannedUntil > now;
}

/** A ban-created provisional account stays merge-restricted while the account it stands in for is banned. */
export function isMergeRestricted(ctx: PlatformKernel, user: UserRecord): boolean {
  if (!user.restrictedByUserId) return false;
  const banned = ctx.store.users.get(user.restrictedByUserId);
  return banned !== undefined && isBanned(banned, ctx.now());
}

/**
 * Bans an account (spec, Authentication rule 6): its tokens are deleted at once; every external identity it
 * carried moves to a new cross-platform-restricted provisional account; each application it had authorized
 * (or was linked to) receives APPLICATION_DEAUTHORIZED; its gateway sessions are closed.
 */
export function banUser(ctx: AccessEnding, userId: string, until: number): UserRecord[] {
  const created = ctx.store.transaction(() => {
    const user = ctx.store.users.get(userId);
    if (!user) throw Errors.unknownUser();
    if (user.bot) throw Errors.invalidUserType();
    ctx.store.users.update({ ...user, bannedUntil: until });
    ctx.store.tokens.deleteForUser(user.id);

    const notified = new Set<string>();
    const standIns: UserRecord[] = [];
    for (const identity of ctx.store.identities.listForUser(user.id)) {
      const standIn = createProvisionalUser(ctx, {
        applicationId: identity.applicationId,
        displayName: user.globalName ?? user.username,
        restrictedByUserId: user.id,
      });
      ctx.store.identities.moveTo(identity, standIn.id);
      standIns.push(standIn);
      notified.add(identity.applicationId);
    }
    for (const grant of ctx.store.grants.listForUser(user.id)) {
      ctx.store.grants.delete(grant.applicationId, user.id);
      notified.add(grant.applicationId);
    }
    for (const applicationId of notified) {
      const app = ctx.store.applications.get(applicationId);
      if (app) enqueueDeauthorized(ctx, app, user);
    }
    return standIns;
  });
  ctx.sessions.disconnectUser(userId, 4004);
  ctx.wakeWebhooks();
  return created;
}

export function liftBan(ctx: PlatformKernel, userId: string): UserRecord {
  const user = ctx.store.users.get(userId);
  if (!user) throw Errors.unknownUser();
  const lifted = { ...user, bannedUntil: null };
  ctx.store.users.update(lifted);
  return lifted;
}
