/**
 * `PATCH /applications/@me` (published Edit Current Application), for the one field this platform lets an
 * application change itself: `interactions_endpoint_url` (PROTOCOL.md §17.2), saved after the PING check. Other
 * fields of the published route are refused (50035), not silently ignored.
 */
import { z } from 'zod';
import { currentApplicationJson } from '../applications/routes.js';
import { botOf, type ApiArea } from '../http/api.js';
import type { InteractionDelivery } from './delivery.js';

const editSchema = z.strictObject({ interactions_endpoint_url: z.url({ protocol: /^https?$/ }).max(2048).nullable().optional() });

export const applicationEditRoute = (delivery: InteractionDelivery): ApiArea => (app, ctx) => {
  app.patch('/applications/@me', { config: { auth: { kind: 'bot' } }, schema: { body: editSchema } }, async (request) => {
    const { app: application } = botOf(request);
    const url = request.body.interactions_endpoint_url;
    if (url !== undefined) {
      if (url !== null) await delivery.verifyEndpoint(application, url);
      ctx.store.interactions.setSettings({ ...ctx.store.interactions.settings(application.id), endpointUrl: url });
    }
    return currentApplicationJson(ctx, application);
  });
};
