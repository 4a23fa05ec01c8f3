import { upsertApplication, type ApplicationUpsert } from '../bot-api/applications/create.js';
import type { PlatformKernel } from '../kernel.js';
import type { ApplicationRecord } from '../store/types.js';
import { applicationConfigSchema, guildConfigSchema, userConfigSchema } from './schema.js';
import { upsertGuild } from './guilds.js';
import { applyUserReferences, upsertUserBase } from './users.js';

const DEV_APP_KEY = 'dev_application_id';

/**
 * On first start: a development user (`dev_user`), a guild with a tag, and the development application
 * (public client, loopback redirect, provisional accounts on). Later starts find it through the meta table.
 */
export function ensureDevEnvironment(ctx: ApplicationUpsert & { options: { devAppWebhookUrl?: string | undefined } }): {
  app: ApplicationRecord;
  created: boolean;
} {
  return ctx.store.transaction(() => {
    const knownId = ctx.store.meta.get(DEV_APP_KEY);
    const known = knownId ? ctx.store.applications.get(knownId) : undefined;
    if (known) return { app: withWebhookUrl(ctx, known), created: false };

    const userConfig = userConfigSchema.parse({
      username: 'dev_user',
      global_name: 'Dev User',
      email: 'dev_user@example.com',
      primary_guild: 'Dev Guild',
    });
    const user = upsertUserBase(ctx, userConfig);
    upsertGuild(
      ctx,
      guildConfigSchema.parse({
        name: 'Dev Guild',
        tag: 'DEV',
        owner: user.id,
        channels: [
          { name: 'Text Channels', type: 4 },
          { name: 'general', type: 0, parent: 'Text Channels' },
          { name: 'Voice', type: 2 },
        ],
      }),
    );
    applyUserReferences(ctx, user, userConfig);
    const { app } = upsertApplication(
      ctx,
      applicationConfigSchema.parse({
        name: 'svcpp Dev App',
        redirect_uris: ['http://127.0.0.1/callback'],
        public_client: true,
        owner: user.id,
      }),
    );
    ctx.store.meta.set(DEV_APP_KEY, app.id);
    return { app: withWebhookUrl(ctx, app), created: true };
  });
}

/** The --webhook-url option: overrides the stored URL on every start when given. */
function withWebhookUrl(
  ctx: PlatformKernel & { options: { devAppWebhookUrl?: string | undefined } },
  app: ApplicationRecord,
): ApplicationRecord {
  const url = ctx.options.devAppWebhookUrl;
  if (url === undefined || url === app.webhookUrl) return app;
  const updated = { ...app, webhookUrl: url };
  ctx.store.applications.update(updated);
  return updated;
}
