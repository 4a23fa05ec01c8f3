import type { PlatformKernel } from '../kernel.js';
import type { ApplicationRecord, UserRecord } from '../store/types.js';
import { userJson } from '../users/serialize.js';

/** Webhook envelope `type` values (published: 0 PING, 1 Event; platform/PROTOCOL.md §6). */
export const WEBHOOK_PING = 0;
export const WEBHOOK_EVENT = 1;

/**
 * Whether the application's own webhook URL takes events of `type`: a URL is set, webhook events are not disabled
 * (`event_webhooks_status`), and the type is among `event_webhooks_types` when the application chose them.
 */
function applicationTakes(app: ApplicationRecord, type: string): boolean {
  if (!app.webhookUrl || app.profile.eventWebhooksStatus === 1) return false;
  return app.profile.eventWebhooksTypes === null || app.profile.eventWebhooksTypes.includes(type);
}

/**
 * Queues an event for the application's webhook URL in the outbox (same transaction as the change that caused
 * it, so a committed change always has its event). Apps without a URL, with webhook events disabled or not
 * subscribed to the type get nothing, as on the public platform. `targetUrl` (a lobby's
 * override_event_webhooks_url) replaces the application's URL for this event, and the lobby's events go there
 * whatever the application's own settings.
 */
export function enqueueWebhookEvent(
  ctx: PlatformKernel,
  app: ApplicationRecord,
  type: string,
  data: unknown,
  targetUrl?: string | null,
): void {
  if (!targetUrl && !applicationTakes(app, type)) return;
  const now = ctx.now();
  // The outbox row id is the event id: delivery is at least once, and a re-delivery sends the stored body again,
  // so receivers drop duplicates by `event.id`.
  const id = ctx.ids.next();
  const body = JSON.stringify({
    version: 1,
    application_id: app.id,
    type: WEBHOOK_EVENT,
    event: { id, type, timestamp: new Date(now).toISOString(), data },
  });
  ctx.store.outbox.insert({
    id,
    applicationId: app.id,
    body,
    attempts: 0,
    nextAttemptAt: now,
    status: 'pending',
    lastError: null,
    createdAt: now,
    deliveredAt: null,
    targetUrl: targetUrl ?? null,
  });
}

/** APPLICATION_AUTHORIZED `{integration_type, user, scopes}`; this platform only has user installs (type 1). */
export function enqueueAuthorized(
  ctx: PlatformKernel,
  app: ApplicationRecord,
  user: UserRecord,
  scopes: string[],
): void {
  enqueueWebhookEvent(ctx, app, 'APPLICATION_AUTHORIZED', {
    integration_type: 1,
    user: userJson(ctx, user, { app }),
    scopes,
  });
}

/** APPLICATION_DEAUTHORIZED `{user}`: sent on revoke, unlink (unmerge) and ban. */
export function enqueueDeauthorized(ctx: PlatformKernel, app: ApplicationRecord, user: UserRecord): void {
  enqueueWebhookEvent(ctx, app, 'APPLICATION_DEAUTHORIZED', { user: userJson(ctx, user, { app }) });
}
