/**
 * Commands and interactions (PROTOCOL.md §17): the command routes, the interaction token routes, and the
 * development routes that let a test act as a user.
 */
import type { FastifyInstance } from 'fastify';
import { applicationModifyRoute } from '../bot-api/applications/modify-route.js';
import { commandRoutes } from '../commands/routes.js';
import { CommandPermissionService } from '../commands/permissions-service.js';
import { commandPermissionRoutes } from '../commands/permissions-routes.js';
import { CommandService } from '../commands/service.js';
import type { GuildService } from '../bot-api/guilds/service.js';
import { registerArea } from '../http/api.js';
import type { BotApiServices } from '../bot-api/services.js';
import type { MessageService } from '../bot-api/messages/service.js';
import { InteractionDelivery } from './delivery.js';
import { interactionDevRoutes } from './dev-routes.js';
import { interactionRoutes } from './routes.js';
import { InteractionService } from './service.js';

/** The interactions' services and routes: a part of the bot API area (they use its guild and message services). */
export function interactionsPart(
  ctx: BotApiServices,
  guilds: GuildService,
  messages: MessageService,
): { service: InteractionService; routes(app: FastifyInstance): void } {
  const commands = new CommandService(ctx);
  const permissions = new CommandPermissionService(ctx, guilds);
  const delivery = new InteractionDelivery(ctx, ctx.outbound);
  const interactions = new InteractionService(ctx, guilds, messages, permissions, delivery);
  return {
    service: interactions,
    routes(app) {
      registerArea(app, commandRoutes(guilds, commands));
      registerArea(app, commandPermissionRoutes(guilds, permissions));
      registerArea(app, interactionRoutes(interactions));
      registerArea(app, applicationModifyRoute(ctx, ctx.outbound.guard, delivery));
      if (ctx.devMode) registerArea(app, interactionDevRoutes(ctx, interactions, commands, delivery));
    },
  };
}
