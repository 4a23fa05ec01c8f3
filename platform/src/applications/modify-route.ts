/**
 * `PATCH /applications/@me` (PROTOCOL.md §14.1, §17.2) for the editable fields this platform keeps: `flags` — of which
 * only the three `_LIMITED` privileged-intent flags may change, as published —, `event_webhooks_url`, and
 * `interactions_endpoint_url` (saved only after the endpoint answers the PING check). The other published editable
 * fields (description, icon, tags, install settings, …) are refused by name (50035) rather than accepted and forgotten.
 */
import { z } from 'zod';
import { botOf, type ApiArea } from '../http/api.js';
import { fieldError } from '../http/errors.js';
import type { ApplicationRecord } from '../store/types.js';
import { currentApplicationJson } from './routes.js';

/** GATEWAY_PRESENCE_LIMITED, GATEWAY_GUILD_MEMBERS_LIMITED, GATEWAY_MESSAGE_CONTENT_LIMITED. */
export const EDITABLE_FLAGS = (1 << 13) | (1 << 15) | (1 << 19);

const webhookUrl = z
  .string()
  .max(2048)
  .refine((value) => {
    try {
      return ['http:', 'https:'].includes(new URL(value).protocol);
    } catch {
      return false;
    }
  }, 'must be an http(s) URL');

const modifySchema = z
  .object({
    flags: z.int().min(0).max(2 ** 31 - 1).optional(),
    event_webhooks_url: webhookUrl.nullish(),
    interactions_endpoint_url: z.url({ protocol: /^https?$/ }).max(2048).nullable().optional(),
  })
  .strict();

/** What the route needs from the interactions area: the PING check of a new interactions endpoint. */
export interface InteractionsEndpointCheck {
  verifyEndpoint(application: ApplicationRecord, url: string): Promise<void>;
}

export const applicationModifyRoute = (endpoints: InteractionsEndpointCheck): ApiArea => (app, ctx) => {
  app.patch('/applications/@me', { config: { auth: { kind: 'bot' } }, schema: { body: modifySchema } }, async (request) => {
    const current = botOf(request).app;
    const body = request.body;
    if (body.flags !== undefined && ((body.flags ^ current.flags) & ~EDITABLE_FLAGS) !== 0) {
      throw fieldError(['flags'], 'APPLICATION_FLAGS_INVALID', 'Only GATEWAY_PRESENCE_LIMITED, GATEWAY_GUILD_MEMBERS_LIMITED and GATEWAY_MESSAGE_CONTENT_LIMITED can be changed.');
    }
    const updated = {
      ...current,
      ...(body.flags !== undefined && { flags: body.flags }),
      ...(body.event_webhooks_url !== undefined && { webhookUrl: body.event_webhooks_url }),
    };
    const endpointUrl = body.interactions_endpoint_url;
    // The PING check comes first: a refused endpoint leaves every field of the application as it was.
    if (endpointUrl) await endpoints.verifyEndpoint(current, endpointUrl);
    ctx.store.transaction(() => {
      ctx.store.applications.update(updated);
      if (endpointUrl !== undefined) ctx.store.interactions.setSettings({ ...ctx.store.interactions.settings(current.id), endpointUrl });
    });
    return currentApplicationJson(ctx, updated);
  });
};
