/**
 * `GET /applications/@me` (PROTOCOL.md §14.1): the bot's application with `flags` (int32) and `flags_new` (every
 * bit, as a string), `integration_types_config` and the install count; `PATCH /applications/@me` for the fields this
 * platform keeps (modify-route.ts).
 */
import type { PlatformContext } from '../context.js';
import { botOf, type ApiArea } from '../http/api.js';
import type { ApplicationRecord } from '../store/types.js';
import { knownUserJson } from '../users/serialize.js';

/** The published application object of Get/Edit Current Application. */
export function currentApplicationJson(ctx: PlatformContext, application: ApplicationRecord) {
  return {
    id: application.id,
    name: application.name,
    icon: null,
    description: '',
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
    event_webhooks_status: application.webhookUrl ? 2 : 1,
    event_webhooks_types: [],
    integration_types_config: { '0': {}, '1': {} },
    approximate_guild_count: ctx.store.guilds.listForUser(application.botUserId).length,
    approximate_user_install_count: ctx.store.grants.countForApplication(application.id),
    approximate_user_authorization_count: ctx.store.grants.countForApplication(application.id),
    role_connections_verification_url: null,
    explicit_content_filter: 0,
    eligible_oauth2_scopes: [],
    tags: [],
  };
}

export const applicationRoutes: ApiArea = (app, ctx) => {
  app.get('/applications/@me', { config: { auth: { kind: 'bot' } } }, async (request) => currentApplicationJson(ctx, botOf(request).app));
};
