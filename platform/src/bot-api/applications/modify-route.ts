/**
 * `PATCH /applications/@me` (PROTOCOL.md §14.1, §17.2): every published editable field. `flags` may change only the
 * three `_LIMITED` privileged-intent flags, as published; `event_webhooks_url` and `interactions_endpoint_url` must
 * pass the outbound guard (never the platform itself, §7); `interactions_endpoint_url` is saved only after the endpoint
 * answers the PING check; images are kept as content hashes (there is no CDN). A refused request changes nothing.
 */
import type { OutboundGuard } from '../../outbound/guard.js';
import type { PlatformKernel } from '../../kernel.js';
import { createHash } from 'node:crypto';
import { botOf, type ApiArea } from '../../http/api.js';
import { fieldError } from '../../http/errors.js';
import { assertOutboundUrl } from '../../outbound/url-check.js';
import type { ApplicationProfile, ApplicationRecord } from '../../store/types.js';
import { installParams, integrationTypesConfig } from './install-settings.js';
import { modifyApplicationSchema, type ModifyApplicationBody } from './modify-schema.js';
import { currentApplicationJson } from './routes.js';

/** GATEWAY_PRESENCE_LIMITED, GATEWAY_GUILD_MEMBERS_LIMITED, GATEWAY_MESSAGE_CONTENT_LIMITED. */
export const EDITABLE_FLAGS = (1 << 13) | (1 << 15) | (1 << 19);

/** What the route needs from the interactions area: the PING check of a new interactions endpoint. */
export interface InteractionsEndpointCheck {
  verifyEndpoint(application: ApplicationRecord, url: string): Promise<void>;
}

const imageHash = (dataUri: string) => createHash('sha256').update(dataUri).digest('hex').slice(0, 32);

/** The rules between fields and against the current application; each breach is a 50035 field error. */
function checkRules(current: ApplicationRecord, body: ModifyApplicationBody): void {
  if (body.flags !== undefined && ((body.flags ^ current.flags) & ~EDITABLE_FLAGS) !== 0) {
    throw fieldError(
      ['flags'],
      'APPLICATION_FLAGS_INVALID',
      'Only GATEWAY_PRESENCE_LIMITED, GATEWAY_GUILD_MEMBERS_LIMITED and GATEWAY_MESSAGE_CONTENT_LIMITED ' +
        'can be changed.',
    );
  }
  // The install link is either Discord's (install_params) or the application's own URL, never both.
  if (body.custom_install_url && body.install_params) {
    throw fieldError(
      ['custom_install_url'],
      'INSTALL_LINK_CONFLICT',
      'Set either custom_install_url or install_params, not both.',
    );
  }
  const webhookUrl = body.event_webhooks_url !== undefined ? body.event_webhooks_url : current.webhookUrl;
  if (body.event_webhooks_status === 2 && !webhookUrl) {
    throw fieldError(
      ['event_webhooks_status'],
      'EVENT_WEBHOOKS_URL_REQUIRED',
      'Enabling webhook events needs an event_webhooks_url.',
    );
  }
}

/** The edited profile: fields absent from the body keep their value; null clears. */
function editedProfile(profile: ApplicationProfile, body: ModifyApplicationBody): ApplicationProfile {
  const next = { ...profile };
  if (body.description !== undefined) next.description = body.description;
  if (body.icon !== undefined) next.icon = body.icon === null ? null : imageHash(body.icon);
  if (body.tags !== undefined) next.tags = body.tags ?? [];
  if (body.custom_install_url !== undefined) next.customInstallUrl = body.custom_install_url ?? null;
  if (body.install_params !== undefined) next.installParams = installParams(body.install_params);
  if (body.custom_install_url) next.installParams = null;
  if (body.install_params) next.customInstallUrl = null;
  if (body.integration_types_config !== undefined)
    next.integrationTypesConfig = integrationTypesConfig(profile.integrationTypesConfig, body.integration_types_config);
  if (body.role_connections_verification_url !== undefined)
    next.roleConnectionsVerificationUrl = body.role_connections_verification_url ?? null;
  if (body.event_webhooks_status !== undefined) next.eventWebhooksStatus = body.event_webhooks_status;
  if (body.event_webhooks_types !== undefined) next.eventWebhooksTypes = body.event_webhooks_types;
  return next;
}

export const applicationModifyRoute =
  (ctx: PlatformKernel, guard: OutboundGuard, endpoints: InteractionsEndpointCheck): ApiArea =>
  (app) => {
    app.patch(
      '/applications/@me',
      { config: { auth: { kind: 'bot' } }, schema: { body: modifyApplicationSchema } },
      async (request) => {
        const current = botOf(request).app;
        const body = request.body;
        checkRules(current, body);
        const updated: ApplicationRecord = {
          ...current,
          ...(body.flags !== undefined && { flags: body.flags }),
          ...(body.event_webhooks_url !== undefined && { webhookUrl: body.event_webhooks_url }),
          ...(body.cover_image !== undefined && {
            coverImage: body.cover_image === null ? null : imageHash(body.cover_image),
          }),
          profile: editedProfile(current.profile, body),
        };
        const endpointUrl = body.interactions_endpoint_url;
        // A destination the platform would never send to is refused where it is set (outbound/guard.ts); the
        // interactions endpoint's check is part of its PING check.
        await assertOutboundUrl(guard, ['event_webhooks_url'], body.event_webhooks_url);
        // The PING check comes next: a refused endpoint leaves every field of the application as it was.
        if (endpointUrl) await endpoints.verifyEndpoint(current, endpointUrl);
        ctx.store.transaction(() => {
          ctx.store.applications.update(updated);
          if (endpointUrl !== undefined)
            ctx.store.interactions.setSettings({ ...ctx.store.interactions.settings(current.id), endpointUrl });
        });
        return currentApplicationJson(ctx, updated);
      },
    );
  };
