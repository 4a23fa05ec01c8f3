import { z } from 'zod';
import type { PlatformKernel } from '../../kernel.js';
import type { Presence } from '../../gateway/schemas.js';
import type { GatewayIdentity } from '../../gateway/types.js';
import { bearerOf, type ApiArea } from '../../http/api.js';
import { activitySchema, normaliseActivity } from './activity.js';
import type { PresenceService, Status } from './service.js';

const presenceBodySchema = z.object({
  status: z.enum(['online', 'idle', 'dnd', 'invisible']).optional(),
  activity: activitySchema.nullable().optional(),
});

/** `POST /users/@me/presence` (PROTOCOL.md §10.2), rate limited per user by `presence.update`. */
export function presenceRoutes(ctx: PlatformKernel, presence: PresenceService): ApiArea {
  return (api) => {
    api.post(
      '/users/@me/presence',
      {
        config: {
          auth: { kind: 'bearer', scope: 'activities.write' },
          rateLimit: { bucket: 'presence.update', per: 'user' },
        },
        schema: { body: presenceBodySchema },
      },
      async (request, reply) => {
        const principal = bearerOf(request);
        const body = request.body;
        const activity =
          body.activity === undefined
            ? undefined
            : body.activity === null
              ? null
              : normaliseActivity(body.activity, principal.app, ctx.now());
        presence.update(principal.user.id, principal.app.id, { ...(body.status && { status: body.status }), activity });
        return reply.code(204).send();
      },
    );
  };
}

/**
 * Gateway op 3 (and Identify's `presence`) of a user session: the same operation with `activities[0]` (none
 * clears the application's activity; `offline` means invisible). An activity that passes the gateway's shape
 * check but not these rules makes the gateway close with 4001.
 */
export function gatewayPresenceHandler(ctx: PlatformKernel, presence: PresenceService) {
  return (identity: GatewayIdentity, update: Presence): boolean | 'invalid' => {
    const app = ctx.store.applications.get(identity.applicationId);
    if (!app) return false;
    const first = update.activities[0];
    let activity = null;
    if (first !== undefined) {
      const parsed = activitySchema.safeParse(first);
      if (!parsed.success) return 'invalid';
      activity = normaliseActivity(parsed.data, app, ctx.now());
    }
    const status: Status = update.status === 'offline' ? 'invisible' : update.status;
    presence.update(identity.userId, identity.applicationId, { status, activity });
    return true;
  };
}
