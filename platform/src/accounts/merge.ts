import type { AccountMover } from '../areas/area.js';
import type { PlatformKernel } from '../kernel.js';
import type { ApplicationRecord, UserRecord } from '../store/types.js';
import type { ExternalSubject } from '../partner-sdk/external-token.js';
import { ProvisionalErrors } from '../partner-sdk/errors.js';
import { isMergeRestricted } from './bans.js';

/**
 * Merges the provisional account behind `subject` into the full account `target` (platform/PROTOCOL.md §5, "Merge"),
 * inside the caller's transaction so a failed merge leaves the authorization code unredeemed. The provisional account's
 * identities and data move to the target (each of `movers` moves its area's data), its tokens are deleted and the
 * account is removed. Returns the ids of removed accounts (their gateway sessions are closed after commit).
 *
 * An identity with no account yet is simply linked to the target.
 */
export function mergeInTransaction(
  ctx: PlatformKernel,
  movers: readonly AccountMover[],
  app: ApplicationRecord,
  target: UserRecord,
  subject: ExternalSubject,
): string[] {
  if (target.isProvisional) throw ProvisionalErrors.mergeDestinationProvisional();

  let source: UserRecord | undefined;
  if (subject.kind === 'account') {
    source = subject.user;
  } else {
    const identity = ctx.store.identities.find(app.id, subject.authType, subject.issuer, subject.externalId);
    if (identity) source = ctx.store.users.get(identity.userId);
    if (!source) {
      assertNoOtherIdentity(ctx, app, target, subject.authType, subject.issuer);
      ctx.store.identities.insert({
        applicationId: app.id,
        authType: subject.authType,
        issuer: subject.issuer,
        externalId: subject.externalId,
        userId: target.id,
        createdAt: ctx.now(),
      });
      return [];
    }
  }

  if (source.id === target.id) return []; // Already merged: nothing to do, tokens are issued as usual.
  if (!source.isProvisional) throw ProvisionalErrors.mergeSourceNotProvisional();
  if (isMergeRestricted(ctx, source)) throw ProvisionalErrors.mergeSourceBanned();

  const sourceIdentities = ctx.store.identities.listForUser(source.id);
  for (const identity of sourceIdentities)
    assertNoOtherIdentity(
      ctx,
      ctx.store.applications.get(identity.applicationId) ?? app,
      target,
      identity.authType,
      identity.issuer,
    );
  for (const identity of sourceIdentities) ctx.store.identities.moveTo(identity, target.id);
  for (const mover of movers) mover.merge?.(ctx.store, source.id, target.id);
  ctx.store.tokens.deleteForUser(source.id);
  for (const grant of ctx.store.grants.listForUser(source.id)) ctx.store.grants.delete(grant.applicationId, source.id);
  ctx.store.users.delete(source.id);
  return [source.id];
}

/** One external identity of a given provider per account and application (530023). */
function assertNoOtherIdentity(
  ctx: PlatformKernel,
  app: ApplicationRecord,
  target: UserRecord,
  authType: string,
  issuer: string,
): void {
  const clash = ctx.store.identities
    .listForUser(target.id)
    .some(
      (identity) => identity.applicationId === app.id && identity.authType === authType && identity.issuer === issuer,
    );
  if (clash) throw ProvisionalErrors.alreadyHasIdentity();
}
