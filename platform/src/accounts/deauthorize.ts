import type { PlatformKernel } from '../kernel.js';
import type { AccessEnding } from './access-ending.js';
import type { ApplicationRecord, UserRecord } from '../store/types.js';
import { enqueueDeauthorized } from '../webhooks/events.js';

/**
 * Ends a user's authorization of an application (inside the caller's transaction): every token the app holds
 * for the user is deleted, the grant is removed and APPLICATION_DEAUTHORIZED is queued. The caller closes
 * gateway sessions and wakes the webhook deliverer after commit.
 */
export function deauthorizeInTransaction(ctx: PlatformKernel, app: ApplicationRecord, user: UserRecord): void {
  ctx.store.tokens.deleteForUserAndApp(user.id, app.id);
  ctx.store.grants.delete(app.id, user.id);
  enqueueDeauthorized(ctx, app, user);
}

/** After-commit side effects of a deauthorization. */
export function afterDeauthorize(ctx: AccessEnding, userIds: string[]): void {
  for (const userId of userIds) ctx.sessions.disconnectUser(userId, 4004);
  ctx.wakeWebhooks();
}
