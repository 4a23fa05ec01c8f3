import { callerOf, pathParams, type ApiArea } from '../http/api.js';
import { fullChannelJson } from './bot-serialize.js';
import { Errors } from '../http/errors.js';
import { guildChannelJson } from './channels.js';

export const guildRoutes: ApiArea = (app, ctx) => {
  // Bearer tokens (OURS: the public route is for bots): scope guilds, members only. Unknown or malformed guild
  // id → 404 10004; a guild the user is not in → 403 50001. Channels come sorted by position, then id.
  // Bots (published route) get the guild channel objects with their overwrites and settings.
  const options = { config: { auth: { kind: 'any', scope: 'guilds' }, rateLimit: 'guilds.channels' }, schema: { params: pathParams('guildId') } } as const;
  app.get('/guilds/:guildId/channels', options, async (request) => {
    const principal = callerOf(request);
    const id = request.params.guildId;
    const guild = /^\d{1,20}$/.test(id) ? ctx.store.guilds.get(id) : undefined;
    if (!guild) throw Errors.unknownGuild();
    if (!ctx.store.guilds.isMember(guild.id, principal.user.id)) throw Errors.missingAccess();
    if (principal.kind === 'bot') {
      return ctx.store.guilds.listChannels(guild.id).map((channel) => fullChannelJson(channel, ctx.store.botGuilds.channelSettings(channel.id)));
    }
    const links = new Map(ctx.store.lobbies.linksForGuild(guild.id).map((link) => [link.channelId, link]));
    return ctx.store.guilds.listChannels(guild.id).map((channel) => guildChannelJson(guild, channel, principal.user.id, links.get(channel.id)));
  });
};
