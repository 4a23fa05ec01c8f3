import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AccessEnding } from '../accounts/access-ending.js';
import { afterDeauthorize, deauthorizeInTransaction } from '../accounts/deauthorize.js';
import { unmergeAllForApp } from '../accounts/unmerge.js';
import type { AccountMovers } from '../areas/area.js';
import { hashToken } from '../crypto/tokens.js';
import { oauthFormBody } from '../http/body.js';
import { authenticateClient } from './client-auth.js';
import { parseOAuthForm } from './token/form.js';
import { withUnversionedAlias } from '../http/api.js';

const revokeSchema = z.object({
  token: z.string().min(1).max(256),
  token_type_hint: z.enum(['access_token', 'refresh_token']).optional(),
});

/**
 * RFC 7009 revocation. Revoking any token revokes all of the application's tokens for that user; when the
 * user's account is linked to external identities of the application (an SDK app) it also unmerges them; either
 * way APPLICATION_DEAUTHORIZED is sent. Unknown tokens are answered 200 as the RFC requires.
 */
export function registerRevokeRoutes(app: FastifyInstance, ctx: AccessEnding, movers: AccountMovers): void {
  for (const path of withUnversionedAlias('/oauth2/token/revoke')) {
    app.post(path, { config: { rateLimit: 'oauth2.revoke' } }, async (request, reply) => {
      const form = oauthFormBody(request);
      const client = authenticateClient(ctx, request, form, true);
      const fields = parseOAuthForm(revokeSchema, form);
      const record = ctx.store.tokens.findByHash(hashToken(fields.token));
      const user = record && record.applicationId === client.app.id ? ctx.store.users.get(record.userId) : undefined;
      if (user) {
        const unmerged = user.isProvisional ? [] : unmergeAllForApp(ctx, movers(), client.app, user);
        // An unmerge already revoked and notified; otherwise revoke here.
        if (unmerged.length === 0) {
          ctx.store.transaction(() => deauthorizeInTransaction(ctx, client.app, user));
          afterDeauthorize(ctx, [user.id]);
        }
      }
      return reply.header('Cache-Control', 'no-store').send({});
    });
  }
}
