import type { FastifyInstance } from 'fastify';
import type { PlatformContext } from '../context.js';
import { jsonBody } from '../http/body.js';
import { parseBody } from '../http/validation.js';
import type { LobbyMessageRecord, LobbyRecord } from '../store/lobby-types.js';
import { findLobby, limitedByApp, lobbyCaller, parseQuery, requireMember } from './access.js';
import { LobbyErrors } from './errors.js';
import type { LobbySchemas } from './schemas.js';
import { lobbyMessageJson } from './serialize.js';
import type { Lobbies, PendingEvents } from './service.js';

const API = '/api/v10';

function findMessage(ctx: PlatformContext, lobby: LobbyRecord, id: string): LobbyMessageRecord {
  const message = /^\d{1,20}$/.test(id) ? ctx.store.lobbies.message(lobby.id, id) : undefined;
  if (!message) throw LobbyErrors.unknownMessage();
  return message;
}

/** Copies the message into the linked guild channel (without metadata); the copy outlives the lobby. */
function copyToLinkedChannel(ctx: PlatformContext, lobby: LobbyRecord, message: LobbyMessageRecord): void {
  const channel = lobby.linkedChannelId === null ? undefined : ctx.store.guilds.getChannel(lobby.linkedChannelId);
  if (!channel) return;
  ctx.store.lobbies.insertChannelMessage({
    id: message.id,
    channelId: channel.id,
    guildId: channel.guildId,
    authorId: message.authorId,
    applicationId: message.applicationId,
    lobbyId: lobby.id,
    content: message.content,
    createdAt: message.createdAt,
  });
}

/**
 * Lobby chat: send and read (members, or the application's bot), delete (the author or the bot; OURS) and the bot's
 * moderation metadata. Messages reach every member's sessions of the application and the lobby's webhook.
 */
export function registerMessageRoutes(app: FastifyInstance, ctx: PlatformContext, lobbies: Lobbies, schemas: LobbySchemas): void {
  app.post<{ Params: { lobbyId: string } }>(`${API}/lobbies/:lobbyId/messages`, async (request, reply) => {
    const caller = lobbyCaller(ctx, request, 'both');
    if (limitedByApp(ctx, reply, 'lobbies.message', caller.app.id)) return reply;
    const lobby = findLobby(ctx, caller, request.params.lobbyId);
    const member = caller.kind === 'bearer' ? requireMember(ctx, lobby, caller.user.id) : ctx.store.lobbies.member(lobby.id, caller.user.id);
    const body = parseBody(schemas.message, jsonBody(request));
    const message: LobbyMessageRecord = {
      id: ctx.ids.next(),
      lobbyId: lobby.id,
      applicationId: lobby.applicationId,
      authorId: caller.user.id,
      content: body.content,
      metadata: body.metadata ?? {},
      moderationMetadata: {},
      flags: body.flags ?? 0,
      additionalName: member?.additionalName ?? null,
      authorWasMember: member !== undefined,
      createdAt: ctx.now(),
    };
    const json = lobbyMessageJson(ctx, message);
    lobbies.run((pending) => {
      ctx.store.lobbies.insertMessage(message);
      copyToLinkedChannel(ctx, lobby, message);
      pending.send(lobby, lobbies.memberIds(lobby), 'LOBBY_MESSAGE_CREATE', json);
      lobbies.webhook(lobby, 'LOBBY_MESSAGE_CREATE', json, pending);
    });
    return reply.code(201).send(json);
  });

  // Newest first, within the history window.
  app.get<{ Params: { lobbyId: string } }>(`${API}/lobbies/:lobbyId/messages`, async (request) => {
    const caller = lobbyCaller(ctx, request, 'both');
    const lobby = findLobby(ctx, caller, request.params.lobbyId);
    if (caller.kind === 'bearer') requireMember(ctx, lobby, caller.user.id);
    const { limit } = parseQuery(schemas.history, request.query);
    const since = ctx.now() - ctx.options.lobbyLimits.historySeconds * 1000;
    return ctx.store.lobbies.listMessages(lobby.id, since, limit).map((message) => lobbyMessageJson(ctx, message));
  });

  app.delete<{ Params: { lobbyId: string; messageId: string } }>(`${API}/lobbies/:lobbyId/messages/:messageId`, async (request, reply) => {
    const caller = lobbyCaller(ctx, request, 'both');
    if (limitedByApp(ctx, reply, 'lobbies.message', caller.app.id)) return reply;
    const lobby = findLobby(ctx, caller, request.params.lobbyId);
    if (caller.kind === 'bearer') requireMember(ctx, lobby, caller.user.id);
    const message = findMessage(ctx, lobby, request.params.messageId);
    if (caller.kind === 'bearer' && message.authorId !== caller.user.id) throw LobbyErrors.notAuthor();
    lobbies.run((pending: PendingEvents) => {
      ctx.store.lobbies.deleteMessage(message.id);
      ctx.store.lobbies.deleteChannelMessage(message.id);
      const data = { id: message.id, lobby_id: lobby.id };
      pending.send(lobby, lobbies.memberIds(lobby), 'LOBBY_MESSAGE_DELETE', data);
      lobbies.webhook(lobby, 'LOBBY_MESSAGE_DELETE', data, pending);
    });
    return reply.code(204).send();
  });

  // Replaces the message's moderation metadata; members see LOBBY_MESSAGE_UPDATE, webhooks get nothing.
  app.put<{ Params: { lobbyId: string; messageId: string } }>(`${API}/lobbies/:lobbyId/messages/:messageId/moderation-metadata`, async (request, reply) => {
    const caller = lobbyCaller(ctx, request, 'bot');
    if (limitedByApp(ctx, reply, 'lobbies.message', caller.app.id)) return reply;
    const lobby = findLobby(ctx, caller, request.params.lobbyId);
    const message = findMessage(ctx, lobby, request.params.messageId);
    const moderation = parseBody(schemas.moderation, jsonBody(request));
    lobbies.run((pending) => {
      const updated = { ...message, moderationMetadata: moderation };
      ctx.store.lobbies.updateMessage(updated);
      pending.send(lobby, lobbies.memberIds(lobby), 'LOBBY_MESSAGE_UPDATE', lobbyMessageJson(ctx, updated));
    });
    return reply.code(204).send();
  });
}
