import type { PlatformKernel } from '../../kernel.js';
import { z } from 'zod';
import { bearerOf, botOf, type ApiArea, pathParams } from '../../http/api.js';
import { Errors } from '../../http/errors.js';
import { snowflakeSchema, stringMapSchema } from '../../http/validation.js';
import { pathUser } from '../http.js';
import type { SocialLimits } from '../limits.js';
import type { MessageService } from './service.js';

const bearer = { auth: { kind: 'bearer', scope: 'dm_channels.read' } } as const;

/** PROTOCOL.md §10.4: send, edit, delete, history, summaries, and the bot's moderation metadata. */
export const messageRoutes =
  (ctx: PlatformKernel, limits: SocialLimits, messages: MessageService): ApiArea =>
  (app) => {
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
    const moderationSchema = stringMapSchema(
      limits.moderationMetadataMaxKeys,
      limits.moderationMetadataKeyMax,
      limits.moderationMetadataValueMax,
    );

    const sendConfig = { ...bearer, rateLimit: { bucket: 'dm.send', per: 'user-application' } } as const;
    app.post(
      '/users/:userId/messages',
      { config: sendConfig, schema: { params: pathParams('userId'), body: sendSchema } },
      async (request, reply) => {
        const principal = bearerOf(request);
        const recipient = pathUser(ctx, request.params.userId);
        const body = request.body;
        messages.checkCanMessage(principal.user, recipient);
        return reply
          .code(201)
          .send(messages.send(principal.app, principal.user, recipient, body.content, body.metadata));
      },
    );

    app.patch(
      '/users/:userId/messages/:messageId',
      { config: bearer, schema: { params: pathParams('userId', 'messageId'), body: editSchema } },
      async (request) => {
        const principal = bearerOf(request);
        const other = pathUser(ctx, request.params.userId);
        return messages.edit(principal.app, principal.user, other, request.params.messageId, request.body.content);
      },
    );

    app.delete(
      '/users/:userId/messages/:messageId',
      { config: bearer, schema: { params: pathParams('userId', 'messageId') } },
      async (request, reply) => {
        const principal = bearerOf(request);
        const other = pathUser(ctx, request.params.userId);
        messages.delete(principal.app, principal.user, other, request.params.messageId);
        return reply.code(204).send();
      },
    );

    app.get(
      '/users/@me/dms/:userId/messages',
      { config: bearer, schema: { params: pathParams('userId'), querystring: historySchema } },
      async (request) => {
        const principal = bearerOf(request);
        const other = pathUser(ctx, request.params.userId);
        const query = request.query;
        return messages.history(principal.app, principal.user, other, query.limit, query.before);
      },
    );

    app.get('/users/@me/dms', { config: bearer }, async (request) => {
      const principal = bearerOf(request);
      return messages.summaries(principal.app, principal.user);
    });

    app.put(
      '/applications/:applicationId/messages/:messageId/moderation-metadata',
      {
        config: { auth: { kind: 'bot' } },
        schema: { params: pathParams('applicationId', 'messageId'), body: moderationSchema },
      },
      async (request, reply) => {
        const principal = botOf(request);
        // A bot moderates its own application's messages only.
        if (principal.app.id !== request.params.applicationId) throw Errors.missingAccess();
        messages.setModerationMetadata(principal.app, request.params.messageId, request.body);
        return reply.code(204).send();
      },
    );

    // The published path of the same operation (OpenAPI update_user_message_external_moderation_metadata).
    app.put(
      '/partner-sdk/dms/:firstUserId/:secondUserId/messages/:messageId/moderation-metadata',
      {
        config: { auth: { kind: 'bot' } },
        schema: { params: pathParams('firstUserId', 'secondUserId', 'messageId'), body: moderationSchema },
      },
      async (request, reply) => {
        const { firstUserId, secondUserId, messageId } = request.params;
        messages.setModerationMetadata(botOf(request).app, messageId, request.body, [firstUserId, secondUserId]);
        return reply.code(204).send();
      },
    );
  };
