import { callerOf, type ApiScope, pathParams } from '../http/api.js';
import { z } from 'zod';
import type { PlatformContext } from '../context.js';
import { Errors } from '../http/errors.js';
import { snowflakeSchema } from '../http/validation.js';
import { LobbyErrors } from './errors.js';
import { channelMessageJson } from './serialize.js';

const querySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  before: snowflakeSchema.optional(),
});

/**
 * `GET /channels/{channel.id}/messages` for guild channels, whose only messages on this platform are the copies of
 * linked lobbies' messages. Guild members (Bearer with messages.read) and bots that are guild members or whose
 * application's lobby is linked to the channel. Newest first; `limit` 1–100 (default 50), `before` a message id.
 */
export function registerChannelMessageRoutes(app: ApiScope, ctx: PlatformContext): void {
  app.get('/channels/:channelId/messages', { config: { auth: { kind: 'any', scope: 'messages.read' } }, schema: { params: pathParams('channelId'), querystring: querySchema } }, async (request) => {
    const caller = callerOf(request);
    const id = request.params.channelId;
    const channel = /^\d{1,20}$/.test(id) ? ctx.store.guilds.getChannel(id) : undefined;
    if (!channel) throw LobbyErrors.unknownChannel();
    const isMember = ctx.store.guilds.isMember(channel.guildId, caller.user.id);
    const linkedToOwnLobby = caller.kind === 'bot' && ctx.store.lobbies.findByLinkedChannel(channel.id)?.applicationId === caller.app.id;
    if (!isMember && !linkedToOwnLobby) throw Errors.missingAccess();
    const query = request.query;
    return ctx.store.lobbies.listChannelMessages(channel.id, query.limit, query.before).map((message) => channelMessageJson(ctx, message));
  });
}
