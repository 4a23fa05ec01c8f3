/**
 * `GET /guilds/{id}/messages/search` (PROTOCOL.md §14.4 "Search"): filters, sort and paging over the guild's
 * messages in the channels the caller may read (VIEW_CHANNEL + READ_MESSAGE_HISTORY); bots need the application's
 * MESSAGE_CONTENT grant. A guild's index is built on its first search (OURS model): that request is answered
 * `202 {code: 110000, …}` and later ones get results.
 */
import type { PlatformKernel } from '../../kernel.js';
import { z } from 'zod';
import { GuildErrors } from '../guilds/errors.js';
import { has, Permission } from '../guilds/permissions.js';
import type { GuildService } from '../guilds/service.js';
import { callerOf, pathParams, type ApiArea } from '../../http/api.js';
import { queryBoolean, snowflakeSchema } from '../../http/validation.js';
import { MESSAGE_CONTENT_FLAGS } from './serialize.js';
import type { MessageService } from './service.js';

const ids = (max: number) => z.union([snowflakeSchema, z.array(snowflakeSchema).max(max)]).transform((v) => [v].flat());
const searchQuery = z.object({
  content: z.string().max(1024).optional(),
  author_id: ids(100).optional(),
  channel_id: ids(500).optional(),
  pinned: queryBoolean.optional(),
  min_id: snowflakeSchema.optional(),
  max_id: snowflakeSchema.optional(),
  limit: z.coerce.number().int().min(1).max(25).default(25),
  offset: z.coerce.number().int().min(0).max(9975).default(0),
  sort_by: z.enum(['timestamp', 'relevance']).default('timestamp'),
  sort_order: z.enum(['asc', 'desc']).default('desc'),
});

/** Seconds a client is told to wait while the index is being built. */
const INDEX_RETRY_AFTER = 1;

export const searchRoutes =
  (ctx: PlatformKernel, guilds: GuildService, messages: MessageService): ApiArea =>
  (app) => {
    const indexed = new Set<string>();

    app.get(
      '/guilds/:guildId/messages/search',
      {
        config: { auth: { kind: 'any', scope: 'messages.read' } },
        schema: { params: pathParams('guildId'), querystring: searchQuery },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const guild = guilds.guild(request.params.guildId);
        const member = guilds.requireMember(guild, caller.user.id);
        if (caller.kind === 'bot' && (caller.app.flags & MESSAGE_CONTENT_FLAGS) === 0)
          throw GuildErrors.missingAccess();
        if (!indexed.has(guild.id)) {
          indexed.add(guild.id);
          return reply.code(202).send({
            message: 'Index not yet available. Try again later',
            code: 110000,
            documents_indexed: 0,
            retry_after: INDEX_RETRY_AFTER,
          });
        }
        const q = request.query;
        const readable = ctx.store.guilds
          .listChannels(guild.id)
          .filter((channel) =>
            has(
              guilds.channelPermissions(guild, channel, member),
              Permission.VIEW_CHANNEL,
              Permission.READ_MESSAGE_HISTORY,
            ),
          )
          .map((channel) => channel.id)
          .filter((id) => q.channel_id === undefined || q.channel_id.includes(id));
        // Relevance has no ranking model here: it orders like timestamp (OURS).
        const found = ctx.store.botGuilds.searchMessages(guild.id, {
          channelIds: readable,
          ascending: q.sort_order === 'asc',
          limit: q.limit,
          offset: q.offset,
          ...(q.author_id !== undefined && { authorIds: q.author_id }),
          ...(q.content !== undefined && { content: q.content }),
          ...(q.pinned !== undefined && { pinned: q.pinned }),
          ...(q.min_id !== undefined && { minId: q.min_id }),
          ...(q.max_id !== undefined && { maxId: q.max_id }),
        });
        return {
          messages: found.messages.map((m) => [{ ...messages.view(caller, m), hit: true }]),
          total_results: found.total,
          doing_deep_historical_index: false,
        };
      },
    );
  };
