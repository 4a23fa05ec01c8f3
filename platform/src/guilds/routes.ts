import { bearerOf, pathParams, type ApiArea } from '../http/api.js';
import { Errors } from '../http/errors.js';
import { guildChannelJson } from './channels.js';

export const guildRoutes: ApiArea = (app, ctx) => {
  // OURS for Bearer tokens (the public route is for bots): scope guilds, members only. Unknown or malformed guild
  // id → 404 10004; a guild the user is not in → 403 50001. Channels come sorted by position, then id.
  const options = { config: { auth: { kind: 'bearer', scope: 'guilds' }, rateLimit: 'guilds.channels' }, schema: { params: pathParams('guildId') } } as const;
  app.get('/guilds/:guildId/channels', options, async (request) => {
    const principal = bearerOf(request);
    const id = request.params.guildId;
    const guild = /^\d{1,20}$/.test(id) ? ctx.store.guilds.get(id) : undefined;
    if (!guild) throw Errors.unknownGuild();
    if (!ctx.store.guilds.isMember(guild.id, principal.user.id)) throw Errors.missingAccess();
    const links = new Map(ctx.store.lobbies.linksForGuild(guild.id).map((link) => [link.channelId, link]));
    return ctx.store.guilds.listChannels(guild.id).map((channel) => guildChannelJson(guild, channel, principal.user.id, links.get(channel.id)));
  });
};
