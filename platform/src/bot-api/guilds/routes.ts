import type { PlatformKernel } from '../../kernel.js';
import { callerOf, pathParams, type ApiArea } from '../../http/api.js';
import { fullChannelJson } from './bot-serialize.js';
import { Errors } from '../../http/errors.js';
import { channelJson } from './channels.js';
import { memberPermissions } from './permissions.js';
import { GuildService } from './service.js';
import { requireById } from '../../ids/snowflake.js';

export const guildRoutes =
  (ctx: PlatformKernel): ApiArea =>
  (app) => {
    const guilds = new GuildService(ctx);
    // Bearer tokens (OURS: the public route is for bots): scope guilds, members only. Unknown or malformed guild
    // id → 404 10004; a guild the user is not in → 403 50001. Channels come sorted by position, then id.
    // Bots (published route) get the guild channel objects with their overwrites and settings.
    const options = {
      config: { auth: { kind: 'any', scope: 'guilds' }, rateLimit: 'guilds.channels' },
      schema: { params: pathParams('guildId') },
    } as const;
    app.get('/guilds/:guildId/channels', options, async (request) => {
      const principal = callerOf(request);
      const id = request.params.guildId;
      const guild = requireById(id, (id) => ctx.store.guilds.get(id), Errors.unknownGuild);
      if (!ctx.store.guilds.isMember(guild.id, principal.user.id)) throw Errors.missingAccess();
      const channels = ctx.store.guilds.listChannels(guild.id);
      if (principal.kind === 'bot')
        return channels.map((channel) => fullChannelJson(channel, guilds.settings(channel.id)));
      const links = new Map(ctx.store.lobbies.linksForGuild(guild.id).map((link) => [link.channelId, link]));
      const member = guilds.member(guild.id, principal.user.id);
      return channels.map((channel) => {
        const settings = guilds.settings(channel.id);
        const link = links.get(channel.id);
        return {
          ...channelJson(channel),
          nsfw: settings.nsfw,
          permission_overwrites: fullChannelJson(channel, settings).permission_overwrites,
          // The viewer's permission set in the channel, from the one permission engine (roles and overwrites), like
          // the channel objects of resolved interaction data: the SDK derives IsLinkable from it (PROTOCOL.md §4).
          permissions: member
            ? guilds.channelPermissions(guild, channel, member).toString()
            : memberPermissions(guild, principal.user.id),
          linked_lobby: link ? { application_id: link.applicationId, lobby_id: link.lobbyId } : null,
        };
      });
    });
  };
