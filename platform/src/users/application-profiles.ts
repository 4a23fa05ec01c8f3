import type { PlatformKernel } from '../kernel.js';
import type { UserRecord } from '../store/types.js';

/**
 * `application_profiles` of the signed-in user in a user session's READY (OURS): one entry per external identity
 * the user holds for the session's application. `provider_type` is the identity's external_auth_type,
 * `provider_id` its issuer (null for bot-issued identities), `provider_issued_user_id` the external id. The
 * platform keeps no provider-side profile, so `username` is the account's global name (the display name a
 * provisional account was created with), else its username, and `avatar_hash` and `metadata` are null.
 */
export function applicationProfilesJson(
  ctx: PlatformKernel,
  user: UserRecord,
  applicationId: string,
): Record<string, unknown>[] {
  return ctx.store.identities
    .listForUser(user.id)
    .filter((identity) => identity.applicationId === applicationId)
    .map((identity) => ({
      provider_type: identity.authType,
      provider_id: identity.issuer || null,
      provider_issued_user_id: identity.externalId,
      username: user.globalName ?? user.username,
      avatar_hash: null,
      metadata: null,
    }));
}
