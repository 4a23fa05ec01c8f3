/**
 * The interaction token routes (PROTOCOL.md §17.3). Published without an Authorization header: the interaction
 * id and token in the path are the credential (discord.js sends them with `auth: false`).
 */
import { z } from 'zod';
import { pathParams, type ApiArea } from '../http/api.js';
import { queryBoolean } from '../http/validation.js';
import { MAX_ATTACHMENT_BYTES, MAX_ATTACHMENTS } from '../bot-api/messages/schemas.js';
import { callbackSchema, parseCallback, webhookEditSchema, webhookMessageSchema } from './schemas.js';
import type { InteractionService } from './service.js';

const withFiles = { bodyKinds: ['json', 'multipart'] } as const;
const FILE_BODY_LIMIT = MAX_ATTACHMENTS * MAX_ATTACHMENT_BYTES + 1024 * 1024;
const webhookParams = pathParams('applicationId', 'token');
const messageParams = pathParams('applicationId', 'token', 'messageId');

export const interactionRoutes =
  (interactions: InteractionService): ApiArea =>
  (app) => {
    app.post(
      '/interactions/:interactionId/:token/callback',
      {
        config: withFiles,
        bodyLimit: FILE_BODY_LIMIT,
        schema: {
          params: pathParams('interactionId', 'token'),
          querystring: z.object({ with_response: queryBoolean.optional() }),
          body: callbackSchema,
        },
      },
      async (request, reply) => {
        const result = interactions.callback(
          request.params.interactionId,
          request.params.token,
          parseCallback(request.body),
          request.files,
        );
        return request.query.with_response ? reply.code(200).send(result) : reply.code(204).send();
      },
    );

    // Follow-ups: `wait` is always true for interaction tokens (published), so the message always comes back.
    app.post(
      '/webhooks/:applicationId/:token',
      {
        config: withFiles,
        bodyLimit: FILE_BODY_LIMIT,
        schema: {
          params: webhookParams,
          querystring: z.object({ wait: queryBoolean.optional(), with_components: queryBoolean.optional() }),
          body: webhookMessageSchema,
        },
      },
      async (request) => {
        const interaction = interactions.byToken(request.params.applicationId, request.params.token);
        return interactions.json(interactions.followup(interaction, request.body, request.files));
      },
    );

    // `@original` is its own published path; both forms share the handlers.
    for (const message of ['@original', ':messageId']) {
      const url = `/webhooks/:applicationId/:token/messages/${message}`;
      const params = message === '@original' ? webhookParams : messageParams;
      const idOf = (p: Record<string, string>) => p.messageId ?? '@original';

      app.get(url, { schema: { params } }, async (request) => {
        const interaction = interactions.byToken(request.params.applicationId, request.params.token);
        return interactions.json(interactions.message(interaction, idOf(request.params)));
      });

      app.patch(
        url,
        {
          config: withFiles,
          bodyLimit: FILE_BODY_LIMIT,
          schema: {
            params,
            querystring: z.object({ with_components: queryBoolean.optional() }),
            body: webhookEditSchema,
          },
        },
        async (request) => {
          const interaction = interactions.byToken(request.params.applicationId, request.params.token);
          return interactions.json(
            interactions.editMessage(interaction, idOf(request.params), request.body, request.files),
          );
        },
      );

      app.delete(url, { schema: { params } }, async (request, reply) => {
        const interaction = interactions.byToken(request.params.applicationId, request.params.token);
        interactions.deleteMessage(interaction, idOf(request.params));
        return reply.code(204).send();
      });
    }
  };
