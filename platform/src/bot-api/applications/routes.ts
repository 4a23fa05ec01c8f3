/**
 * `GET /applications/@me` (PROTOCOL.md §14.1): the bot's application with `flags` (int32) and `flags_new` (every
 * bit, as a string), the edited profile fields, `integration_types_config` and the install count;
 * `PATCH /applications/@me` edits them (modify-route.ts).
 */
import type { PlatformKernel } from '../../kernel.js';
import { botOf, type ApiArea } from '../../http/api.js';
import type { ApplicationRecord, InstallParams } from '../../store/types.js';
import { knownUserJson } from '../../users/serialize.js';
import { WEBHOOK_EVENT_TYPES } from './modify-schema.js';

const installParamsJson = (params: InstallParams) => ({ scopes: params.scopes, permissions: params.permissions });

/** An installation context's settings: `{}` when it has no default install params. */
const contextJson = (params: InstallParams | null) =>
  params ? { oauth2_install_params: installParamsJson(params) } : {};

/**
 * Published event webhook status: 1 DISABLED, 2 ENABLED. Without a URL nothing can be delivered (1); an application
 * that never chose a status is enabled by setting a URL.
 */
export function eventWebhooksStatus(application: ApplicationRecord): 1 | 2 {
  if (!application.webhookUrl) return 1;
  return application.profile.eventWebhooksStatus ?? 2;
}

/** The published application object of Get/Edit Current Application. */
export function currentApplicationJson(ctx: PlatformKernel, application: ApplicationRecord) {
  const profile = application.profile;
  return {
    id: application.id,
    name: application.name,
    icon: profile.icon,
    // Published as an optional string: absent rather than null when unset.
    ...(application.coverImage !== null && { cover_image: application.coverImage }),
    description: profile.description,
    type: null,
    bot: knownUserJson(ctx, application.botUserId),
    bot_public: true,
    bot_require_code_grant: false,
    // An application without an owning user is shown as owned by its bot user (there are no teams here).
    owner: knownUserJson(ctx, application.ownerUserId ?? application.botUserId),
    team: null,
    verify_key: application.publicKeyHex,
    flags: application.flags,
    flags_new: String(application.flags),
    redirect_uris: application.redirectUris,
    interactions_endpoint_url: ctx.store.interactions.settings(application.id).endpointUrl,
    event_webhooks_url: application.webhookUrl,
    event_webhooks_status: eventWebhooksStatus(application),
    // An application that never chose receives every type; they are listed so the answer says what is delivered.
    event_webhooks_types: profile.eventWebhooksTypes ?? [...WEBHOOK_EVENT_TYPES],
    integration_types_config: {
      '0': contextJson(profile.integrationTypesConfig['0']),
      '1': contextJson(profile.integrationTypesConfig['1']),
    },
    ...(profile.customInstallUrl !== null && { custom_install_url: profile.customInstallUrl }),
    ...(profile.installParams !== null && { install_params: installParamsJson(profile.installParams) }),
    approximate_guild_count: ctx.store.guilds.listForUser(application.botUserId).length,
    approximate_user_install_count: ctx.store.grants.countForApplication(application.id),
    approximate_user_authorization_count: ctx.store.grants.countForApplication(application.id),
    role_connections_verification_url: profile.roleConnectionsVerificationUrl,
    explicit_content_filter: 0,
    eligible_oauth2_scopes: [],
    tags: profile.tags,
  };
}

export const applicationRoutes =
  (ctx: PlatformKernel): ApiArea =>
  (app) => {
    app.get('/applications/@me', { config: { auth: { kind: 'bot' } } }, async (request) =>
      currentApplicationJson(ctx, botOf(request).app),
    );
  };
