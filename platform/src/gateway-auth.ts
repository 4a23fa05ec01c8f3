import type { PlatformKernel } from './kernel.js';
import type { GatewayIdentity } from './gateway/index.js';
import { findBearer, findBot } from './http/auth.js';
import { applicationProfilesJson } from './users/application-profiles.js';
import { botSelfJson, userJson } from './users/serialize.js';

/**
 * The gateway's Identify check: `Bearer <access token>` for users, the bot token for bots — bare or with the `Bot `
 * prefix the REST header uses (libraries send either, and the published gateway takes both). Expired,
 * revoked or banned credentials give null (the gateway closes with 4004). A user session's READY user carries the
 * user's `application_profiles` for the session's application.
 */
const BOT_PREFIX = 'Bot ';

export function gatewayAuthenticator(ctx: PlatformKernel): (token: string) => GatewayIdentity | null {
  return (token) => {
    if (token.startsWith('Bearer ')) {
      const bearer = findBearer(ctx, token.slice('Bearer '.length));
      if (!bearer) return null;
      return {
        kind: 'user',
        applicationId: bearer.app.id,
        userId: bearer.user.id,
        scopes: bearer.token.scopes,
        user: {
          ...userJson(ctx, bearer.user, { app: bearer.app, selfScopes: bearer.token.scopes }),
          application_profiles: applicationProfilesJson(ctx, bearer.user, bearer.app.id),
        },
      };
    }
    const bot = findBot(ctx, token.startsWith(BOT_PREFIX) ? token.slice(BOT_PREFIX.length) : token);
    if (!bot) return null;
    return {
      kind: 'bot',
      applicationId: bot.app.id,
      userId: bot.user.id,
      scopes: [],
      user: botSelfJson(ctx, bot.user, bot.app),
      applicationFlags: bot.app.flags,
    };
  };
}
