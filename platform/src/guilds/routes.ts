import type { FastifyInstance } from 'fastify';
import type { PlatformContext } from '../context.js';
import { requireBearer } from '../http/auth.js';
import { Errors } from '../http/errors.js';
import { guildChannelJson } from './channels.js';

const API = '/api/v10';

export function registerGuildRoutes(app: FastifyInstance, ctx: PlatformContext): void {
  // OURS for Bearer tokens (the public route is for bots): scope guilds, members only. Unknown or malformed guild
  // id → 404 10004; a guild the user is not in → 403 50001. Channels come sorted by position, then id.
  app.get<{ Params: { guildId: string } }>(`${API}/guilds/:guildId/channels`, { config: { rateLimit: 'guilds.channels' } }, async (request) => {
    const principal = requireBearer(ctx, request, 'guilds');
    const id = request.params.guildId;
    const guild = /^\d{1,20}$/.test(id) ? ctx.store.guilds.get(id) : undefined;
    if (!guild) throw Errors.unknownGuild();
    if (!ctx.store.guilds.isMember(guild.id, principal.user.id)) throw Errors.missingAccess();
    const links = new Map(ctx.store.lobbies.linksForGuild(guild.id).map((link) => [link.channelId, link]));
    return ctx.store.guilds.listChannels(guild.id).map((channel) => guildChannelJson(guild, channel, principal.user.id, links.get(channel.id)));
  });
}
