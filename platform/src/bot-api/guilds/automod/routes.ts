/**
 * AutoMod rule routes (PROTOCOL.md §14.11): `/guilds/{id}/auto-moderation/rules[/{rule}]`, all needing MANAGE_GUILD.
 */
import { callerOf, pathParams, type ApiArea } from '../../../http/api.js';
import { auditReason } from '../../../http/audit-reason.js';
import { Permission } from '../permissions.js';
import type { GuildService } from '../service.js';
import { createRuleSchema, modifyRuleSchema } from './rules.js';
import type { AutoModService } from './service.js';

export const autoModRoutes =
  (guilds: GuildService, automod: AutoModService): ApiArea =>
  (app) => {
    const bot = { auth: { kind: 'bot' as const } };
    /** The guild, once the caller is shown to hold MANAGE_GUILD in it. */
    const managed = (guildId: string, userId: string) => {
      const guild = guilds.guild(guildId);
      guilds.requireGuildPermissions(guild, userId, Permission.MANAGE_GUILD);
      return guild;
    };

    app.get(
      '/guilds/:guildId/auto-moderation/rules',
      { config: bot, schema: { params: pathParams('guildId') } },
      async (request) => automod.list(managed(request.params.guildId, callerOf(request).user.id)),
    );

    app.get(
      '/guilds/:guildId/auto-moderation/rules/:ruleId',
      { config: bot, schema: { params: pathParams('guildId', 'ruleId') } },
      async (request) => automod.get(managed(request.params.guildId, callerOf(request).user.id), request.params.ruleId),
    );

    app.post(
      '/guilds/:guildId/auto-moderation/rules',
      { config: bot, schema: { params: pathParams('guildId'), body: createRuleSchema } },
      async (request) => {
        const caller = callerOf(request);
        return automod.create(
          managed(request.params.guildId, caller.user.id),
          caller.user.id,
          request.body,
          auditReason(request),
        );
      },
    );

    app.patch(
      '/guilds/:guildId/auto-moderation/rules/:ruleId',
      { config: bot, schema: { params: pathParams('guildId', 'ruleId'), body: modifyRuleSchema } },
      async (request) => {
        const caller = callerOf(request);
        return automod.modify(
          managed(request.params.guildId, caller.user.id),
          caller.user.id,
          request.params.ruleId,
          request.body,
          auditReason(request),
        );
      },
    );

    app.delete(
      '/guilds/:guildId/auto-moderation/rules/:ruleId',
      { config: bot, schema: { params: pathParams('guildId', 'ruleId') } },
      async (request, reply) => {
        const caller = callerOf(request);
        automod.delete(
          managed(request.params.guildId, caller.user.id),
          caller.user.id,
          request.params.ruleId,
          auditReason(request),
        );
        return reply.code(204).send();
      },
    );
  };
