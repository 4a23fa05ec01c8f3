/**
 * Development routes of the bot API (devMode only, PROTOCOL.md §9 and §14.8): act as a user so a test can drive a
 * bot — join a guild (GUILD_MEMBER_ADD), post a message as the user.
 */
import type { PlatformKernel } from '../../kernel.js';
import { z } from 'zod';
import { pathParams, type ApiArea } from '../../http/api.js';
import type { MessageService } from '../messages/service.js';
import { createMessageSchema } from '../messages/schemas.js';
import { Errors } from '../../http/errors.js';
import { memberJson } from './bot-serialize.js';
import { joinGuild } from './join.js';
import type { GuildService } from './service.js';
import type { Principal } from '../../http/auth.js';
import { SNOWFLAKE_PATTERN } from '../../ids/snowflake.js';

export const botDevRoutes =
  (ctx: PlatformKernel, guilds: GuildService, messages: MessageService): ApiArea =>
  (app) => {
    app.put(
      '/dev/guilds/:guildId/members/:userId',
      { schema: { params: pathParams('guildId', 'userId'), body: z.object({}) } },
      async (request, reply) => {
        const guild = guilds.guild(request.params.guildId);
        const user = ctx.store.users.get(request.params.userId);
        if (!user) throw Errors.unknownUser();
        const { member, created } = joinGuild(ctx, guilds, guild.id, user);
        return reply.code(created ? 201 : 200).send(memberJson(ctx, member));
      },
    );

    app.post(
      '/dev/channels/:channelId/messages',
      {
        schema: {
          params: pathParams('channelId'),
          body: createMessageSchema.extend({ author_id: z.string().regex(SNOWFLAKE_PATTERN) }),
        },
      },
      async (request) => {
        const user = ctx.store.users.get(request.body.author_id);
        if (!user) throw Errors.unknownUser();
        // The user acts through the development application, like a client of it would.
        const app = ctx.store.applications.get(ctx.store.meta.get('dev_application_id') ?? '');
        if (!app) throw Errors.unknownApplication();
        const caller: Principal = { kind: 'bot', app: { ...app, flags: app.flags | (1 << 18) }, user };
        return messages.create(caller, request.params.channelId, request.body, []).json;
      },
    );
  };
