/**
 * Command permission routes (PROTOCOL.md §17.9):
 * `GET /applications/{app}/guilds/{guild}/commands/permissions`, `GET/PUT …/commands/{cmd}/permissions`. Reads take
 * the application's bot token (the bot must be in the guild) or a user token of the application (the user must be
 * a member); the PUT takes only a user's Bearer token with `applications.commands.permissions.update` (a bot token →
 * 403 20001, as published).
 */
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { GuildService } from '../bot-api/guilds/service.js';
import { bearerOf, callerOf, pathParams, type ApiArea } from '../http/api.js';
import { Errors } from '../http/errors.js';
import { snowflakeSchema } from '../http/validation.js';
import type { GuildRecord } from '../store/types.js';
import { permissionsJson, type CommandPermissionService } from './permissions-service.js';

export const UPDATE_PERMISSIONS_SCOPE = 'applications.commands.permissions.update';

/** Published: at most 100 overwrites per command. */
const editPermissionsSchema = z.object({
  permissions: z.array(z.object({ id: snowflakeSchema, type: z.literal([1, 2, 3]), permission: z.boolean() })).max(100),
});

const read = { auth: { kind: 'any', scope: UPDATE_PERMISSIONS_SCOPE } } as const;
const write = {
  auth: { kind: 'bearer', scope: UPDATE_PERMISSIONS_SCOPE },
  rateLimit: { bucket: 'commands.write', per: 'application' },
} as const;

export const commandPermissionRoutes =
  (guilds: GuildService, permissions: CommandPermissionService): ApiArea =>
  (app) => {
    /**
     * The guild of the path, once the caller is known to act for the application in the path and to be in the guild.
     */
    const guildOf = (request: FastifyRequest): { applicationId: string; guild: GuildRecord } => {
      const params = request.params as { applicationId: string; guildId: string };
      const caller = callerOf(request);
      if (params.applicationId !== caller.app.id) throw Errors.missingAccess();
      const guild = guilds.guild(params.guildId);
      guilds.requireMember(guild, caller.user.id);
      return { applicationId: caller.app.id, guild };
    };

    app.get(
      '/applications/:applicationId/guilds/:guildId/commands/permissions',
      { config: read, schema: { params: pathParams('applicationId', 'guildId') } },
      async (request) => {
        const { applicationId, guild } = guildOf(request);
        return permissions.list(applicationId, guild).map(permissionsJson);
      },
    );

    const itemParams = pathParams('applicationId', 'guildId', 'commandId');
    app.get(
      '/applications/:applicationId/guilds/:guildId/commands/:commandId/permissions',
      { config: read, schema: { params: itemParams } },
      async (request) => {
        const { applicationId, guild } = guildOf(request);
        return permissionsJson(permissions.get(applicationId, guild, request.params.commandId));
      },
    );

    app.put(
      '/applications/:applicationId/guilds/:guildId/commands/:commandId/permissions',
      { config: write, schema: { params: itemParams, body: editPermissionsSchema } },
      async (request) => {
        const { applicationId, guild } = guildOf(request);
        return permissionsJson(
          permissions.set(
            applicationId,
            guild,
            bearerOf(request).user.id,
            request.params.commandId,
            request.body.permissions,
          ),
        );
      },
    );
  };
