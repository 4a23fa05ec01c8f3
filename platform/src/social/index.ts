/**
 * The social layer (PROTOCOL.md §10.1–10.4): relationships, presence, game invites and direct messages. Wires
 * the services together and returns the area: its routes, its gateway handlers (READY lists, op 3, session
 * changes) and its account mover.
 */
import type { PlatformArea } from '../areas/area.js';
import type { WakesWebhooks } from '../webhooks/waking.js';
import type { SocialLimits } from './limits.js';
import { hasScope } from '../oauth/scopes.js';
import { registerArea } from '../http/api.js';
import { socialDevRoutes } from './dev-routes.js';
import { InviteService } from './invites/service.js';
import { inviteRoutes } from './invites/routes.js';
import { MessageService } from './direct-messages/service.js';
import { messageRoutes } from './direct-messages/routes.js';
import { gatewayPresenceHandler, presenceRoutes } from './presence/routes.js';
import { PresenceService } from './presence/service.js';
import { relationshipsJson } from './relationships/serialize.js';
import { RelationshipService } from './relationships/service.js';
import { relationshipRoutes } from './relationships/routes.js';

/** The social services, for other front ends of the same operations (the local client, src/rpc). */
export interface SocialServices {
  relationships: RelationshipService;
  presence: PresenceService;
  invites: InviteService;
}

/** Direct messages queue webhook events (woken with `wakeWebhooks`); `devMode` adds the development routes. */
export function socialArea(
  ctx: WakesWebhooks,
  { limits, devMode }: { limits: SocialLimits; devMode: boolean },
): PlatformArea & { services: SocialServices } {
  const relationships = new RelationshipService(ctx, limits);
  const presence = new PresenceService(ctx, relationships);
  const messages = new MessageService(ctx, limits, () => ctx.wakeWebhooks(), relationships);
  const invites = new InviteService(ctx, limits, presence, messages);
  relationships.onFriendship((a, b, _axis, applicationId, since) => presence.friendsMade(a, b, applicationId, since));
  invites.start();

  return {
    name: 'social',
    services: { relationships, presence, invites },
    routes(app) {
      registerArea(app, relationshipRoutes(ctx, relationships));
      registerArea(app, presenceRoutes(ctx, presence));
      registerArea(app, inviteRoutes(ctx, limits, invites));
      registerArea(app, messageRoutes(ctx, limits, messages));
      if (devMode) registerArea(app, socialDevRoutes(ctx));
    },
    gateway: {
      readyExtras: (identity) => {
        if (identity.kind !== 'user') return {};
        const extras: Record<string, unknown> = {};
        const application = ctx.store.applications.get(identity.applicationId);
        if (application && hasScope(identity.scopes, 'relationships.read'))
          extras.relationships = relationshipsJson(ctx, identity.userId, application);
        if (hasScope(identity.scopes, 'presences.read'))
          extras.presences = presence.friendPresences(identity.userId, identity.applicationId);
        return extras;
      },
      userPresence: gatewayPresenceHandler(ctx, presence),
      sessionsChanged: (change) => {
        if (change.kind === 'user') presence.sessionsChanged(change.userId, change.applicationId, change.present);
      },
    },
    // A merged provisional account's game relationships, blocks and DMs follow it into the full account (rows the
    // full account already has win). Unmerge keeps everything with the full account: the new provisional stand-in
    // starts with an empty social graph.
    accountMovers: [
      {
        name: 'social',
        merge: (store, from, to) => {
          store.relationships.moveAll(from, to);
          store.directMessages.moveAll(from, to);
        },
      },
    ],
    close: () => invites.close(),
  };
}
