/**
 * The reaction routes (PROTOCOL.md §14.4 "Reactions"), as published: `{emoji}` is URL-encoded (a unicode emoji or
 * `name:id`). Writes share the `reactions` bucket (published: one reaction per quarter second); answers are 204.
 */
import { callerOf, pathParams, type ApiArea } from '../../http/api.js';
import type { ReactionService } from './reactions.js';
import { listReactionsQuery } from './schemas.js';

const read = { auth: { kind: 'any', scope: 'messages.read' } } as const;
const write = { ...read, rateLimit: 'reactions' } as const;
const BASE = '/channels/:channelId/messages/:messageId/reactions';
const messageParams = pathParams('channelId', 'messageId');
const emojiParams = pathParams('channelId', 'messageId', 'emoji');

export const reactionRoutes =
  (reactions: ReactionService): ApiArea =>
  (app) => {
    app.put(`${BASE}/:emoji/@me`, { config: write, schema: { params: emojiParams } }, async (request, reply) => {
      const { channelId, messageId, emoji } = request.params;
      reactions.add(callerOf(request), channelId, messageId, emoji);
      return reply.code(204).send();
    });

    app.delete(`${BASE}/:emoji/@me`, { config: write, schema: { params: emojiParams } }, async (request, reply) => {
      const { channelId, messageId, emoji } = request.params;
      reactions.remove(callerOf(request), channelId, messageId, emoji, '@me');
      return reply.code(204).send();
    });

    app.delete(
      `${BASE}/:emoji/:userId`,
      { config: write, schema: { params: pathParams('channelId', 'messageId', 'emoji', 'userId') } },
      async (request, reply) => {
        const { channelId, messageId, emoji, userId } = request.params;
        reactions.remove(callerOf(request), channelId, messageId, emoji, userId);
        return reply.code(204).send();
      },
    );

    app.get(
      `${BASE}/:emoji`,
      { config: read, schema: { params: emojiParams, querystring: listReactionsQuery } },
      async (request) => {
        const { channelId, messageId, emoji } = request.params;
        return reactions.users(callerOf(request), channelId, messageId, emoji, request.query);
      },
    );

    app.delete(`${BASE}/:emoji`, { config: write, schema: { params: emojiParams } }, async (request, reply) => {
      const { channelId, messageId, emoji } = request.params;
      reactions.removeEmoji(callerOf(request), channelId, messageId, emoji);
      return reply.code(204).send();
    });

    app.delete(BASE, { config: write, schema: { params: messageParams } }, async (request, reply) => {
      reactions.removeAll(callerOf(request), request.params.channelId, request.params.messageId);
      return reply.code(204).send();
    });
  };
