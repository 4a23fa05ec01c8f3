import type { GatewayHandlers, PlatformArea } from '../areas/area.js';
import { registerInviteRoutes } from './invites.js';
import { registerLinkingRoutes } from './linking.js';
import { registerLobbyRoutes } from './lobby-routes.js';
import { registerMemberRoutes } from './member-routes.js';
import { registerMessageRoutes } from './message-routes.js';
import { LobbyMessages } from './lobby-messages.js';
import { registerArea } from '../http/api.js';
import { lobbyMover } from './migrations.js';
import { lobbySchemas } from './schemas.js';
import { Lobbies } from './service.js';
import type { LobbyServices } from './services.js';

/**
 * Lobbies (PROTOCOL.md §10.5): routes, READY `lobbies`, members' `connected` from the gateway's session changes,
 * account movers and the idle sweeper (stopped when the server closes).
 */
export function lobbiesArea(ctx: LobbyServices): PlatformArea {
  const limits = ctx.limits;
  const lobbies = new Lobbies(ctx, {
    limits,
    hasSession: (userId, applicationId) => ctx.sessions.hasSession(userId, applicationId),
    wakeWebhooks: () => ctx.wakeWebhooks(),
  });
  const schemas = lobbySchemas(limits);

  // Nobody holds a session right after start-up: lobbies that were active when the platform stopped start idling.
  ctx.store.lobbies.markAllIdle(ctx.now());

  const messages = new LobbyMessages(ctx, lobbies);
  const sweeper = setInterval(() => {
    try {
      lobbies.sweep();
    } catch (error) {
      ctx.logger.error({ err: error }, 'lobby sweep failed');
    }
  }, limits.sweepIntervalMs);
  sweeper.unref();

  return {
    name: 'lobbies',
    routes(app) {
      registerArea(app, (api) => {
        registerLobbyRoutes(api, ctx, lobbies, schemas);
        registerMemberRoutes(api, ctx, lobbies, schemas);
        registerMessageRoutes(api, ctx, messages, schemas);
        registerLinkingRoutes(api, ctx, lobbies, schemas);
        registerInviteRoutes(api, ctx);
      });
    },
    gateway: {
      readyExtras: (identity) =>
        identity.kind === 'user'
          ? {
              lobbies: ctx.store.lobbies
                .listForUser(identity.userId, identity.applicationId)
                .map((lobby) => lobbies.json(lobby)),
            }
          : {},
      ...sessionHandlers(lobbies),
    },
    accountMovers: [lobbyMover(lobbies)],
    close: () => clearInterval(sweeper),
  };
}

/**
 * Members' `connected` follows their sessions: every node tells its own sessions, at the change's place in the log's
 * order (not while replaying history); the node where the change happened moves the lobbies' idle clocks, once.
 */
export function sessionHandlers(lobbies: Lobbies): Pick<GatewayHandlers, 'sessionsObserved' | 'sessionsChanged'> {
  return {
    sessionsObserved: (change) => {
      if (change.kind === 'user' && !change.fromHistory)
        lobbies.announceConnection(change.userId, change.applicationId);
    },
    sessionsChanged: (change) => {
      if (change.kind === 'user') lobbies.refreshIdleOf(change.userId, change.applicationId);
    },
  };
}
