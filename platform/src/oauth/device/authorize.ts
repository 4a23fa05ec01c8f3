import { randomInt } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { OAuthServices } from '../services.js';
import { hashToken, randomToken } from '../../crypto/tokens.js';
import { oauthFormBody } from '../../http/body.js';
import { OAuthError } from '../../http/errors.js';
import { authenticateClient } from '../client-auth.js';
import { parseScopeString, scopeProblem } from '../scopes.js';
import { parseOAuthForm } from '../token/form.js';
import { withUnversionedAlias } from '../../http/api.js';

const deviceAuthorizeSchema = z.object({
  scope: z.string().min(1).max(2048),
});

/** User codes avoid look-alike characters (RFC 8628 §6.1): 8 of them, shown as XXXX-XXXX. */
const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';

function newUserCode(): string {
  let code = '';
  for (let i = 0; i < 8; i++) code += USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)];
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/** POST /api/v10/oauth2/device/authorize (RFC 8628; public clients may send only client_id). */
export function registerDeviceAuthorizeRoute(app: FastifyInstance, ctx: OAuthServices): void {
  for (const path of withUnversionedAlias('/oauth2/device/authorize')) {
    app.post(path, { config: { rateLimit: 'oauth2.device' } }, async (request, reply) => {
      const form = oauthFormBody(request);
      const client = authenticateClient(ctx, request, form, true);
      const fields = parseOAuthForm(deviceAuthorizeSchema, form);
      const scopes = parseScopeString(fields.scope);
      const problem = scopeProblem(client.app, scopes, 'user');
      if (problem) throw new OAuthError(400, 'invalid_scope', problem.reason);

      const now = ctx.now();
      const lifetimes = ctx.options.tokenLifetimes;
      const deviceCode = randomToken(32);
      let userCode = newUserCode();
      while (ctx.store.deviceCodes.findByUserCode(userCode)) userCode = newUserCode();
      ctx.store.deviceCodes.insert({
        hash: hashToken(deviceCode),
        userCode,
        applicationId: client.app.id,
        scopes,
        status: 'pending',
        userId: null,
        intervalSeconds: lifetimes.deviceIntervalSeconds,
        lastPollAt: null,
        expiresAt: now + lifetimes.deviceCodeSeconds * 1000,
        createdAt: now,
      });
      const verificationUri = `${ctx.urls().http}/activate`;
      return reply.header('Cache-Control', 'no-store').send({
        device_code: deviceCode,
        user_code: userCode,
        verification_uri: verificationUri,
        verification_uri_complete: `${verificationUri}?user_code=${encodeURIComponent(userCode)}`,
        expires_in: lifetimes.deviceCodeSeconds,
        interval: lifetimes.deviceIntervalSeconds,
      });
    });
  }
}
