/**
 * What the portal's forms change, as operations on the store (no HTML here). Each checks the rules that need the
 * database and throws FormProblem before changing anything; each change runs in one transaction.
 */
import type { PlatformKernel } from '../kernel.js';
import { newBotToken, upsertApplication, type ApplicationUpsert } from '../bot-api/applications/create.js';
import { applicationConfigSchema } from '../config/schema.js';
import type { SessionControl } from '../gateway/session-control.js';
import { randomToken } from '../crypto/tokens.js';
import { issuerUrlProblem } from '../partner-sdk/oidc/issuer-rules.js';
import type { ApplicationRecord, IdentityProviderConfig } from '../store/types.js';
import { FormProblem } from './forms.js';
import { isSnowflake } from '../ids/snowflake.js';

/** The published limits the config schema also applies. */
export const MAX_REDIRECT_URIS = 20;
export const MAX_IDENTITY_PROVIDERS = 10;

/** The application, or undefined when the id names none (a page answers 404). */
export function findApplication(ctx: PlatformKernel, id: string): ApplicationRecord | undefined {
  return isSnowflake(id) ? ctx.store.applications.get(id) : undefined;
}

function save(ctx: PlatformKernel, app: ApplicationRecord): ApplicationRecord {
  ctx.store.applications.update(app);
  return app;
}

/**
 * The parent an application may take: exists, is not the application, is not a child itself; a parent cannot become a
 * child.
 */
function checkParent(ctx: PlatformKernel, parentId: string, selfId: string | undefined): void {
  if (parentId === '') return;
  const parent = findApplication(ctx, parentId);
  if (!parent || parent.id === selfId) throw new FormProblem({ parent_id: 'Unknown parent application.' });
  if (parent.parentId) throw new FormProblem({ parent_id: 'A child application cannot be a parent.' });
  if (selfId !== undefined && ctx.store.applications.list().some((other) => other.parentId === selfId)) {
    throw new FormProblem({ parent_id: 'This application is a parent: it cannot become a child.' });
  }
}

/** A new application (bot user, key pair, client secret and bot token generated); the name must be new. */
export function createApplication(
  ctx: ApplicationUpsert,
  input: { name: string; parent_id: string },
): ApplicationRecord {
  return ctx.store.transaction(() => {
    // upsertApplication updates an application of the same name; the portal creates, so a taken name is refused.
    if (ctx.store.applications.findByName(input.name))
      throw new FormProblem({ name: 'An application with this name exists.' });
    checkParent(ctx, input.parent_id, undefined);
    const config = applicationConfigSchema.parse({
      name: input.name,
      parent: input.parent_id === '' ? null : input.parent_id,
    });
    return upsertApplication(ctx, config).app;
  });
}

export function setParent(ctx: PlatformKernel, app: ApplicationRecord, parentId: string): ApplicationRecord {
  return ctx.store.transaction(() => {
    checkParent(ctx, parentId, app.id);
    return save(ctx, { ...app, parentId: parentId === '' ? null : parentId });
  });
}

/** A new client secret; the old one stops working at once (tokens already issued stay valid). */
export function rotateClientSecret(ctx: PlatformKernel, app: ApplicationRecord): string {
  const secret = randomToken(24);
  ctx.store.transaction(() => save(ctx, { ...app, clientSecret: secret }));
  return secret;
}

/**
 * A new bot token; the bot's gateway sessions, opened with the old one, are closed (4004, as for any revoked token).
 */
export function resetBotToken(ctx: PlatformKernel & { sessions: SessionControl }, app: ApplicationRecord): string {
  const token = newBotToken(app.id);
  ctx.store.transaction(() => save(ctx, { ...app, botToken: token }));
  ctx.sessions.disconnectUser(app.botUserId);
  return token;
}

export function setPublicClient(ctx: PlatformKernel, app: ApplicationRecord, publicClient: boolean): ApplicationRecord {
  return ctx.store.transaction(() => save(ctx, { ...app, publicClient }));
}

export function addRedirectUri(ctx: PlatformKernel, app: ApplicationRecord, uri: string): ApplicationRecord {
  if (app.redirectUris.includes(uri))
    throw new FormProblem({ redirect_uri: 'This redirect URI is already registered.' });
  if (app.redirectUris.length >= MAX_REDIRECT_URIS)
    throw new FormProblem({ redirect_uri: `At most ${MAX_REDIRECT_URIS} redirect URIs.` });
  return ctx.store.transaction(() => save(ctx, { ...app, redirectUris: [...app.redirectUris, uri] }));
}

export function removeRedirectUri(ctx: PlatformKernel, app: ApplicationRecord, uri: string): ApplicationRecord {
  if (!app.redirectUris.includes(uri)) throw new FormProblem({ redirect_uri: 'This redirect URI is not registered.' });
  return ctx.store.transaction(() =>
    save(ctx, { ...app, redirectUris: app.redirectUris.filter((known) => known !== uri) }),
  );
}

/** Issuer rules of PROTOCOL.md §5 checked on save, as the config and the dev route check them. */
export function addIdentityProvider(
  ctx: PlatformKernel & { options: { allowLocalhostIssuers: boolean } },
  app: ApplicationRecord,
  provider: IdentityProviderConfig,
): ApplicationRecord {
  const problem = issuerUrlProblem(provider.issuer, ctx.options.allowLocalhostIssuers);
  if (problem) throw new FormProblem({ issuer: problem });
  if (app.identityProviders.some((known) => known.type === provider.type && known.issuer === provider.issuer)) {
    throw new FormProblem({ issuer: 'This issuer is already configured for this type.' });
  }
  if (app.identityProviders.length >= MAX_IDENTITY_PROVIDERS)
    throw new FormProblem({ issuer: `At most ${MAX_IDENTITY_PROVIDERS} identity providers.` });
  return ctx.store.transaction(() => save(ctx, { ...app, identityProviders: [...app.identityProviders, provider] }));
}

export function removeIdentityProvider(
  ctx: PlatformKernel,
  app: ApplicationRecord,
  type: string,
  issuer: string,
): ApplicationRecord {
  const kept = app.identityProviders.filter((known) => !(known.type === type && known.issuer === issuer));
  if (kept.length === app.identityProviders.length) throw new FormProblem({ issuer: 'No such identity provider.' });
  return ctx.store.transaction(() => save(ctx, { ...app, identityProviders: kept }));
}

/** '' clears the URL. Events already queued follow the URL of the moment they are sent (PROTOCOL.md §6). */
export function setWebhookUrl(ctx: PlatformKernel, app: ApplicationRecord, url: string): ApplicationRecord {
  return ctx.store.transaction(() => save(ctx, { ...app, webhookUrl: url === '' ? null : url }));
}
