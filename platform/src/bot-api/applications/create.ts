import { applyConfiguredUrlMappings } from '../../activities/config.js';
import { applyConfiguredSkus } from '../../premium/config.js';
import type { PlatformKernel } from '../../kernel.js';
import { randomToken } from '../../crypto/tokens.js';
import { addFieldError, invalidFormBody, type ErrorTree } from '../../http/errors.js';
import { issuerUrlProblem } from '../../partner-sdk/oidc/issuer-rules.js';
import { DEFAULT_APPLICATION_PROFILE, type ApplicationProfile, type ApplicationRecord } from '../../store/types.js';
import { integrationTypesConfig } from './install-settings.js';
import type { ApplicationConfig } from '../../config/schema.js';
import { createBotUser } from '../../accounts/users.js';
import { generateApplicationKeyPair } from '../../webhooks/signing.js';
import { resolveApplication, resolveUser } from '../../config/references.js';
import type { WakesWebhooks } from '../../webhooks/waking.js';

/**
 * What creating or updating an application from its config needs: the kernel, webhook waking (configured SKUs are
 * created through the premium service) and whether issuers on https://localhost are accepted.
 */
export interface ApplicationUpsert extends WakesWebhooks {
  options: { allowLocalhostIssuers: boolean };
}

/** Bot tokens embed the application id (base64url) so a leaked token is attributable, then a random part. */
export function newBotToken(applicationId: string): string {
  return `${Buffer.from(applicationId).toString('base64url')}.${randomToken(27)}`;
}

/** Checks the parts of an application config that need the database or the issuer rules; 50035 on failure. */
function validateReferences(ctx: ApplicationUpsert, config: ApplicationConfig, selfId: string | undefined): void {
  const errors: ErrorTree = {};
  let failed = false;
  config.identity_providers.forEach((provider, index) => {
    const problem = issuerUrlProblem(provider.issuer, ctx.options.allowLocalhostIssuers);
    if (problem) {
      addFieldError(errors, ['identity_providers', index, 'issuer'], { code: 'ISSUER_INVALID', message: problem });
      failed = true;
    }
  });
  if (config.parent !== null) {
    const parent = resolveApplication(ctx, config.parent);
    if (!parent || parent.id === selfId) {
      addFieldError(errors, ['parent'], { code: 'UNKNOWN_APPLICATION', message: 'Unknown parent application.' });
      failed = true;
    } else if (parent.parentId) {
      addFieldError(errors, ['parent'], {
        code: 'PARENT_IS_CHILD',
        message: 'A child application cannot be a parent.',
      });
      failed = true;
    }
  }
  if (config.owner !== null && !resolveUser(ctx, config.owner)) {
    addFieldError(errors, ['owner'], { code: 'UNKNOWN_USER', message: 'Unknown owner user.' });
    failed = true;
  }
  if (failed) throw invalidFormBody(errors);
}

/** Below this many users an application's privileged-intent toggles grant the `_LIMITED` flags. */
export const LIMITED_INTENTS_USER_THRESHOLD = 10_000;

/**
 * The configured flags plus the privileged-intent toggles. The user count is the application's authorized users
 * as the platform knows them: its grants.
 */
function applicationFlags(config: ApplicationConfig, users: number): number {
  const limited = users < LIMITED_INTENTS_USER_THRESHOLD;
  const toggles = config.privileged_intents;
  let flags = config.flags;
  if (toggles.presence) flags |= limited ? 1 << 13 : 1 << 12;
  if (toggles.guild_members) flags |= limited ? 1 << 15 : 1 << 14;
  if (toggles.message_content) flags |= limited ? 1 << 19 : 1 << 18;
  return flags;
}

/** The profile with what the configuration sets (only the fields it names). */
function configuredProfile(profile: ApplicationProfile, config: ApplicationConfig): ApplicationProfile {
  if (config.integration_types_config === undefined) return profile;
  return {
    ...profile,
    integrationTypesConfig: integrationTypesConfig(profile.integrationTypesConfig, config.integration_types_config),
  };
}

function configFields(ctx: PlatformKernel, config: ApplicationConfig, existingId?: string) {
  return {
    name: config.name,
    redirectUris: config.redirect_uris,
    publicClient: config.public_client,
    webhookUrl: config.webhook_url,
    parentId: config.parent === null ? null : (resolveApplication(ctx, config.parent)?.id ?? null),
    identifyPremiumApproved: config.identify_premium_approved,
    provisionalAccountsEnabled: config.provisional_accounts_enabled,
    socialSdkTermsAccepted: config.social_sdk_terms_accepted,
    identityProviders: config.identity_providers.map((p) => ({
      type: p.type,
      issuer: p.issuer,
      clientId: p.client_id,
    })),
    coverImage: config.cover_image,
    flags: applicationFlags(config, existingId === undefined ? 0 : ctx.store.grants.countForApplication(existingId)),
    ownerUserId: config.owner === null ? null : (resolveUser(ctx, config.owner)?.id ?? null),
  };
}

/**
 * Creates the application (with its bot user and Ed25519 key pair), or updates it when one with the same id or
 * name exists, so applying the same config on every start is idempotent. Credentials are kept unless the config
 * names new ones.
 */
export function upsertApplication(
  ctx: ApplicationUpsert,
  config: ApplicationConfig,
): { app: ApplicationRecord; created: boolean } {
  return ctx.store.transaction(() => {
    const existing =
      (config.id ? ctx.store.applications.get(config.id) : undefined) ?? ctx.store.applications.findByName(config.name);
    validateReferences(ctx, config, existing?.id);
    if (existing) {
      const app: ApplicationRecord = {
        ...existing,
        ...configFields(ctx, config, existing.id),
        clientSecret: config.client_secret ?? existing.clientSecret,
        botToken: config.bot_token ?? existing.botToken,
        profile: configuredProfile(existing.profile, config),
      };
      ctx.store.applications.update(app);
      applyConfiguredSkus(ctx, app, config.skus);
      applyConfiguredUrlMappings(ctx, app, config.url_mappings);
      return { app, created: false };
    }
    const id = config.id ?? ctx.ids.next();
    const bot = createBotUser(ctx, config.name);
    const keys = generateApplicationKeyPair();
    const app: ApplicationRecord = {
      id,
      ...configFields(ctx, config),
      clientSecret: config.client_secret ?? randomToken(24),
      botToken: config.bot_token ?? newBotToken(id),
      botUserId: bot.id,
      publicKeyHex: keys.publicKeyHex,
      privateKeyPem: keys.privateKeyPem,
      profile: configuredProfile(DEFAULT_APPLICATION_PROFILE, config),
      createdAt: ctx.now(),
    };
    ctx.store.applications.insert(app);
    applyConfiguredSkus(ctx, app, config.skus);
    applyConfiguredUrlMappings(ctx, app, config.url_mappings);
    return { app, created: true };
  });
}
