/**
 * The interaction token routes (PROTOCOL.md §16.3). Published without an Authorization header: the interaction
 * id and token in the path are the credential (discord.js sends them with `auth: false`).
 */
import { z } from 'zod';
import { pathParams, type ApiArea } from '../http/api.js';
import { queryBoolean } from '../http/validation.js';
import { MAX_ATTACHMENT_BYTES, MAX_ATTACHMENTS } from '../messages/schemas.js';
import { callbackSchema, parseCallback, webhookEditSchema, webhookMessageSchema } from './schemas.js';
import type { InteractionService } from './service.js';

const withFiles = { bodyKinds: ['json', 'multipart'] } as const;
const FILE_BODY_LIMIT = MAX_ATTACHMENTS * MAX_ATTACHMENT_BYTES + 1024 * 1024;
const webhookParams = pathParams('applicationId', 'token');
const messageParams = pathParams('applicationId', 'token', 'messageId');

export const interactionRoutes = (interactions: InteractionService): ApiArea => (app) => {
  app.post(
    '/interactions/:interactionId/:token/callback',
    { config: withFiles, bodyLimit: FILE_BODY_LIMIT, schema: { params: pathParams('interactionId', 'token'), querystring: z.object({ with_response: queryBoolean.optional() }), body: callbackSchema } },
    async (request, reply) => {
      const result = interactions.callback(request.params.interactionId, request.params.token, parseCallback(request.body), request.files);
      return request.query.with_response ? reply.code(200).send(result) : reply.code(204).send();
    },
  );

  // Follow-ups: `wait` is always true for interaction tokens (published), so the message always comes back.
  app.post(
    '/webhooks/:applicationId/:token',
    { config: withFiles, bodyLimit: FILE_BODY_LIMIT, schema: { params: webhookParams, querystring: z.object({ wait: queryBoolean.optional(), with_components: queryBoolean.optional() }), body: webhookMessageSchema } },
    async (request) => {
      const interaction = interactions.byToken(request.params.applicationId, request.params.token);
      return interactions.json(interactions.followup(interaction, request.body, request.files));
    },
  );

  app.get('/webhooks/:applicationId/:token/messages/:messageId', { schema: { params: messageParams } }, async (request) => {
    const interaction = interactions.byToken(request.params.applicationId, request.params.token);
    return interactions.json(interactions.message(interaction, request.params.messageId));
  });

  app.patch(
    '/webhooks/:applicationId/:token/messages/:messageId',
    { config: withFiles, bodyLimit: FILE_BODY_LIMIT, schema: { params: messageParams, querystring: z.object({ with_components: queryBoolean.optional() }), body: webhookEditSchema } },
    async (request) => {
      const interaction = interactions.byToken(request.params.applicationId, request.params.token);
      return interactions.json(interactions.editMessage(interaction, request.params.messageId, request.body, request.files));
    },
  );

  app.delete('/webhooks/:applicationId/:token/messages/:messageId', { schema: { params: messageParams } }, async (request, reply) => {
    const interaction = interactions.byToken(request.params.applicationId, request.params.token);
    interactions.deleteMessage(interaction, request.params.messageId);
    return reply.code(204).send();
  });
};
