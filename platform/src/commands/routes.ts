/**
 * Command routes (PROTOCOL.md §17.1), for the application's bot: global commands under
 * `/applications/{app}/commands`, guild commands under `/applications/{app}/guilds/{guild}/commands`. A bot acts
 * only on its own application (50001 otherwise) and only in guilds it is a member of.
 */
import type { FastifyRequest } from 'fastify';
import type { GuildService } from '../bot-api/guilds/service.js';
import { botOf, pathParams, type ApiArea } from '../http/api.js';
import { Errors } from '../http/errors.js';
import type { ApplicationRecord } from '../store/types.js';
import { bulkCommandsSchema, commandSchema, editCommandSchema } from './schemas.js';
import { commandJson, type CommandService } from './service.js';

const read = { auth: { kind: 'bot' } } as const;
const write = { auth: { kind: 'bot' }, rateLimit: { bucket: 'commands.write', per: 'application' } } as const;

export const commandRoutes =
  (guilds: GuildService, commands: CommandService): ApiArea =>
  (app) => {
    /** The caller's application when it is the one in the path, and the guild scope when there is one. */
    const scopeOf = (request: FastifyRequest): { application: ApplicationRecord; guildId: string | null } => {
      const params = request.params as { applicationId: string; guildId?: string };
      const { app: application, user } = botOf(request);
      if (params.applicationId !== application.id) throw Errors.missingAccess();
      if (params.guildId === undefined) return { application, guildId: null };
      const guild = guilds.guild(params.guildId);
      guilds.requireMember(guild, user.id);
      return { application, guildId: guild.id };
    };

    for (const base of [
      '/applications/:applicationId/commands',
      '/applications/:applicationId/guilds/:guildId/commands',
    ]) {
      const params = base.includes(':guildId') ? pathParams('applicationId', 'guildId') : pathParams('applicationId');
      const itemParams = base.includes(':guildId')
        ? pathParams('applicationId', 'guildId', 'commandId')
        : pathParams('applicationId', 'commandId');

      app.get(base, { config: read, schema: { params } }, async (request) => {
        const { application, guildId } = scopeOf(request);
        return commands.list(application, guildId).map(commandJson);
      });

      app.post(base, { config: write, schema: { params, body: commandSchema } }, async (request, reply) => {
        const { application, guildId } = scopeOf(request);
        const { command, created } = commands.create(application, guildId, request.body);
        return reply.code(created ? 201 : 200).send(commandJson(command));
      });

      app.put(base, { config: write, schema: { params, body: bulkCommandsSchema } }, async (request) => {
        const { application, guildId } = scopeOf(request);
        return commands.overwrite(application, guildId, request.body).map(commandJson);
      });

      app.get(`${base}/:commandId`, { config: read, schema: { params: itemParams } }, async (request) => {
        const { application, guildId } = scopeOf(request);
        return commandJson(commands.get(application, guildId, (request.params as { commandId: string }).commandId));
      });

      app.patch(
        `${base}/:commandId`,
        { config: write, schema: { params: itemParams, body: editCommandSchema } },
        async (request) => {
          const { application, guildId } = scopeOf(request);
          return commandJson(
            commands.edit(application, guildId, (request.params as { commandId: string }).commandId, request.body),
          );
        },
      );

      app.delete(`${base}/:commandId`, { config: write, schema: { params: itemParams } }, async (request, reply) => {
        const { application, guildId } = scopeOf(request);
        commands.delete(application, guildId, (request.params as { commandId: string }).commandId);
        return reply.code(204).send();
      });
    }
  };
