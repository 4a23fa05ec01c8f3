import type { AccountMover } from '../areas/area.js';
import type { AccessEnding } from './access-ending.js';
import { Errors } from '../http/errors.js';
import type { ApplicationRecord, ExternalIdentityRecord, UserRecord } from '../store/types.js';
import { afterDeauthorize, deauthorizeInTransaction } from './deauthorize.js';
import { createProvisionalUser } from './users.js';

/**
 * Unlinks an external identity from the full account it was merged into (platform/PROTOCOL.md §5, "Unmerge"): the
 * account loses every token of the application, a new provisional account (new user id) takes over the identity with
 * the account's display name, `movers` move their areas' data, and APPLICATION_DEAUTHORIZED is sent. A provisional
 * owner cannot be unmerged (50229).
 */
export function unmergeIdentity(
  ctx: AccessEnding,
  movers: readonly AccountMover[],
  app: ApplicationRecord,
  identity: ExternalIdentityRecord,
): UserRecord {
  const { full, standIn } = ctx.store.transaction(() => {
    const full = ctx.store.users.get(identity.userId);
    if (!full) throw Errors.unknownUser();
    if (full.isProvisional) throw Errors.invalidUserType();
    const standIn = createProvisionalUser(ctx, {
      applicationId: app.id,
      displayName: full.globalName ?? full.username,
    });
    ctx.store.identities.moveTo(identity, standIn.id);
    for (const mover of movers) {
      mover.unmerge?.(ctx.store, { fullUserId: full.id, provisionalUserId: standIn.id, applicationId: app.id });
    }
    deauthorizeInTransaction(ctx, app, full);
    return { full, standIn };
  });
  afterDeauthorize(ctx, [full.id]);
  return standIn;
}

/** Every identity of `user` for `app` is unlinked (token revocation by an SDK app acts as an unmerge). */
export function unmergeAllForApp(
  ctx: AccessEnding,
  movers: readonly AccountMover[],
  app: ApplicationRecord,
  user: UserRecord,
): UserRecord[] {
  return ctx.store.identities
    .listForUser(user.id)
    .filter((identity) => identity.applicationId === app.id)
    .map((identity) => unmergeIdentity(ctx, movers, app, identity));
}
