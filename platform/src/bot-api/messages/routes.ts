/**
 * Channel and message routes for bots and members (PROTOCOL.md §14.4): channel object, messages (JSON or
 * multipart), the typing indicator, edit/delete/bulk delete, pins on the new routes with pagination and the
 * deprecated ones. The files themselves are served on the attachments origin (attachments/server.ts), not here.
 */
import type { PlatformKernel } from '../../kernel.js';
import { fullChannelJson } from '../guilds/bot-serialize.js';
import type { GuildService } from '../guilds/service.js';
import { callerOf, pathParams, type ApiArea } from '../../http/api.js';
import { auditReason } from '../../http/audit-reason.js';
import { channelMessageJson } from '../../lobbies/serialize.js';
import {
  bulkDeleteSchema,
  createMessageSchema,
  editMessageSchema,
  listMessagesQuery,
  listPinsQuery,
  MAX_ATTACHMENT_BYTES,
  MAX_ATTACHMENTS,
} from './schemas.js';
import type { MessageService } from './service.js';
import { Permission, has } from '../guilds/permissions.js';
import { GuildErrors } from '../guilds/errors.js';

const auth = { auth: { kind: 'any', scope: 'messages.read' } } as const;
/** Message bodies take JSON or multipart (files); files may be 10 MiB each. */
const withFiles = { ...auth, bodyKinds: ['json', 'multipart'] } as const;
const FILE_BODY_LIMIT = MAX_ATTACHMENTS * MAX_ATTACHMENT_BYTES + 1024 * 1024;

const channelParams = pathParams('channelId');
const messageParams = pathParams('channelId', 'messageId');

export const messageRoutes =
  (ctx: PlatformKernel, guilds: GuildService, messages: MessageService): ApiArea =>
  (app) => {
    app.get('/channels/:channelId', { config: auth, schema: { params: channelParams } }, async (request) => {
      const { guild, channel } = guilds.channel(request.params.channelId);
      guilds.requireChannelPermissions(guild, channel, callerOf(request).user.id, Permission.VIEW_CHANNEL);
      return fullChannelJson(channel, guilds.settings(channel.id));
    });

    // Guild messages, and the copies of a linked lobby's messages (PROTOCOL.md §10.5): a bot whose lobby is linked to
    // the channel reads them without being a guild member.
    app.get(
      '/channels/:channelId/messages',
      { config: auth, schema: { params: channelParams, querystring: listMessagesQuery } },
      async (request) => {
        const caller = callerOf(request);
        const { guild, channel } = guilds.channel(request.params.channelId);
        const q = request.query;
        const linkedToOwnLobby =
          caller.kind === 'bot' && ctx.store.lobbies.findByLinkedChannel(channel.id)?.applicationId === caller.app.id;
        const member = guilds.member(guild.id, caller.user.id);
        if (!member && !linkedToOwnLobby) throw GuildErrors.missingAccess();
        if (member && !linkedToOwnLobby) {
          const permissions = guilds.channelPermissions(guild, channel, member);
          if (permissions === 0n) throw GuildErrors.missingAccess();
          if (!has(permissions, Permission.READ_MESSAGE_HISTORY)) return [];
        }
        const before = q.before ?? q.around;
        const own = ctx.store.botGuilds
          .listMessages(channel.id, {
            limit: q.limit,
            ...(before !== undefined && { before }),
            ...(q.after !== undefined && before === undefined && { after: q.after }),
          })
          .map((m) => ({ id: m.id, json: messages.view(caller, m) as unknown }));
        const copies = ctx.store.lobbies
          .listChannelMessages(channel.id, q.limit, before)
          .map((m) => ({ id: m.id, json: channelMessageJson(ctx, m) as unknown }));
        return [...own, ...copies]
          .sort((a, b) => (BigInt(b.id) > BigInt(a.id) ? 1 : BigInt(b.id) < BigInt(a.id) ? -1 : 0))
          .slice(0, q.limit)
          .map((entry) => entry.json);
      },
    );

    app.get(
      '/channels/:channelId/messages/:messageId',
      { config: auth, schema: { params: messageParams } },
      async (request) => {
        const caller = callerOf(request);
        const target = messages.channelFor(caller, request.params.channelId, Permission.READ_MESSAGE_HISTORY);
        return messages.view(caller, messages.find(target.channel.id, request.params.messageId));
      },
    );

    app.post(
      '/channels/:channelId/messages',
      { config: withFiles, bodyLimit: FILE_BODY_LIMIT, schema: { params: channelParams, body: createMessageSchema } },
      async (request, reply) => {
        const result = messages.create(callerOf(request), request.params.channelId, request.body, request.files);
        return reply.code(200).send(result.json);
      },
    );

    app.patch(
      '/channels/:channelId/messages/:messageId',
      { config: withFiles, bodyLimit: FILE_BODY_LIMIT, schema: { params: messageParams, body: editMessageSchema } },
      async (request) =>
        messages.edit(
          callerOf(request),
          request.params.channelId,
          request.params.messageId,
          request.body,
          request.files,
        ),
    );

    app.delete(
      '/channels/:channelId/messages/:messageId',
      { config: auth, schema: { params: messageParams } },
      async (request, reply) => {
        messages.delete(callerOf(request), request.params.channelId, request.params.messageId, auditReason(request));
        return reply.code(204).send();
      },
    );

    app.post(
      '/channels/:channelId/typing',
      { config: auth, schema: { params: channelParams } },
      async (request, reply) => {
        messages.typing(callerOf(request), request.params.channelId);
        return reply.code(204).send();
      },
    );

    app.post(
      '/channels/:channelId/messages/bulk-delete',
      { config: auth, schema: { params: channelParams, body: bulkDeleteSchema } },
      async (request, reply) => {
        messages.bulkDelete(callerOf(request), request.params.channelId, request.body.messages, auditReason(request));
        return reply.code(204).send();
      },
    );

    // ── pins: the new routes (paginated by pin time) and the deprecated ones discord.js still calls ──
    app.get(
      '/channels/:channelId/messages/pins',
      { config: auth, schema: { params: channelParams, querystring: listPinsQuery } },
      async (request) =>
        messages.pins(
          callerOf(request),
          request.params.channelId,
          request.query.before === undefined ? null : Date.parse(request.query.before),
          request.query.limit,
        ),
    );

    app.get('/channels/:channelId/pins', { config: auth, schema: { params: channelParams } }, async (request) =>
      messages.pins(callerOf(request), request.params.channelId, null, 50).items.map((item) => item.message),
    );

    for (const url of ['/channels/:channelId/messages/pins/:messageId', '/channels/:channelId/pins/:messageId']) {
      for (const method of ['PUT', 'DELETE'] as const) {
        app.route({
          method,
          url,
          config: auth,
          schema: { params: messageParams },
          handler: async (request, reply) => {
            messages.setPinned(
              callerOf(request),
              request.params.channelId,
              request.params.messageId,
              method === 'PUT',
              auditReason(request),
            );
            return reply.code(204).send();
          },
        });
      }
    }
  };
