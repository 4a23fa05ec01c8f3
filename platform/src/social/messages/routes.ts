import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { PlatformContext } from '../../context.js';
import { requireBearer, requireBot } from '../../http/auth.js';
import { jsonBody } from '../../http/body.js';
import { Errors } from '../../http/errors.js';
import { parseBody, snowflakeSchema, stringMapSchema } from '../../http/validation.js';
import { API, limited, parseQuery, pathUser } from '../http.js';
import type { MessageService } from './service.js';

const SCOPE = 'dm_channels.read';

/** PROTOCOL.md §10.4: send, edit, delete, history, summaries, and the bot's moderation metadata. */
export function registerMessageRoutes(app: FastifyInstance, ctx: PlatformContext, messages: MessageService): void {
  const limits = ctx.options.socialLimits;
  const content = z.string().min(1).max(limits.messageContentMax);
  const sendSchema = z.object({
    content,
    metadata: stringMapSchema(limits.metadataMaxKeys, limits.metadataKeyMax, limits.metadataValueMax).default({}),
  });
  const editSchema = z.object({ content });
  const historySchema = z.object({
    limit: z.coerce.number().int().min(1).max(limits.historyLimitMax).default(limits.historyLimitDefault),
    before: snowflakeSchema.optional(),
  });
  const moderationSchema = stringMapSchema(limits.moderationMetadataMaxKeys, limits.moderationMetadataKeyMax, limits.moderationMetadataValueMax);

  type UserParams = { Params: { userId: string } };
  type MessageParams = { Params: { userId: string; messageId: string } };

  app.post<UserParams>(`${API}/users/:userId/messages`, async (request, reply) => {
    const principal = requireBearer(ctx, request, SCOPE);
    const recipient = pathUser(ctx, request.params.userId);
    const body = parseBody(sendSchema, jsonBody(request));
    messages.checkCanMessage(principal.user, recipient);
    if (limited(ctx, reply, 'dm.send', `user:${principal.user.id}:app:${principal.app.id}`)) return reply;
    return reply.code(201).send(messages.send(principal.app, principal.user, recipient, body.content, body.metadata));
  });

  app.patch<MessageParams>(`${API}/users/:userId/messages/:messageId`, async (request) => {
    const principal = requireBearer(ctx, request, SCOPE);
    const other = pathUser(ctx, request.params.userId);
    const body = parseBody(editSchema, jsonBody(request));
    return messages.edit(principal.app, principal.user, other, request.params.messageId, body.content);
  });

  app.delete<MessageParams>(`${API}/users/:userId/messages/:messageId`, async (request, reply) => {
    const principal = requireBearer(ctx, request, SCOPE);
    const other = pathUser(ctx, request.params.userId);
    messages.delete(principal.app, principal.user, other, request.params.messageId);
    return reply.code(204).send();
  });

  app.get<UserParams>(`${API}/users/@me/dms/:userId/messages`, async (request) => {
    const principal = requireBearer(ctx, request, SCOPE);
    const other = pathUser(ctx, request.params.userId);
    const query = parseQuery(historySchema, request.query);
    return messages.history(principal.app, principal.user, other, query.limit, query.before);
  });

  app.get(`${API}/users/@me/dms`, async (request) => {
    const principal = requireBearer(ctx, request, SCOPE);
    return messages.summaries(principal.app, principal.user);
  });

  app.put<{ Params: { applicationId: string; messageId: string } }>(
    `${API}/applications/:applicationId/messages/:messageId/moderation-metadata`,
    async (request, reply) => {
      const principal = requireBot(ctx, request);
      // A bot moderates its own application's messages only.
      if (principal.app.id !== request.params.applicationId) throw Errors.missingAccess();
      const metadata = parseBody(moderationSchema, jsonBody(request));
      messages.setModerationMetadata(principal.app, request.params.messageId, metadata);
      return reply.code(204).send();
    },
  );
}
