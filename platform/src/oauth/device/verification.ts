import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import type { OAuthServices } from '../services.js';
import { login } from '../../accounts/login.js';
import { htmlFormBody } from '../../http/body.js';
import { escapeHtml, page } from '../../http/html.js';
import type { DeviceCodeRecord, UserRecord } from '../../store/types.js';
import { enqueueAuthorized } from '../../webhooks/events.js';

const activateQuerySchema = z.object({
  user_code: z.string().max(16).optional(),
  svcpp_dev_user: z.string().min(1).max(32).optional(),
});

function normalizeUserCode(input: string): string {
  const compact = input.toUpperCase().replace(/[^A-Z]/g, '');
  return compact.length === 8 ? `${compact.slice(0, 4)}-${compact.slice(4)}` : input.toUpperCase();
}

function activatePage(userCode: string, error?: string): string {
  return page(
    'Activate a device',
    `${error ? `<p class="error">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/activate">
<label>Code shown on your device <input name="user_code" value="${escapeHtml(userCode)}" required></label>
<label>Username <input name="username" autocomplete="username" required></label>
<label>Password (if your account has one) <input name="password" type="password"></label>
<button name="decision" value="approve" type="submit">Approve</button>
<button name="decision" value="deny" type="submit" formnovalidate>Deny</button>
</form>`,
  );
}

function resultPage(reply: FastifyReply, approved: boolean): FastifyReply {
  return reply
    .type('text/html')
    .send(
      page(
        approved ? 'Device approved' : 'Device denied',
        `<p>${approved ? 'You can return to your device.' : 'The device was not authorized.'}</p>`,
      ),
    );
}

function pendingCode(ctx: OAuthServices, userCode: string): DeviceCodeRecord | undefined {
  const record = ctx.store.deviceCodes.findByUserCode(normalizeUserCode(userCode));
  return record && record.status === 'pending' && record.expiresAt > ctx.now() ? record : undefined;
}

function approve(ctx: OAuthServices, record: DeviceCodeRecord, user: UserRecord): void {
  const app = ctx.store.applications.get(record.applicationId);
  ctx.store.transaction(() => {
    ctx.store.deviceCodes.update({ ...record, status: 'approved', userId: user.id });
    if (!app) return;
    const previous = ctx.store.grants.get(app.id, user.id);
    ctx.store.grants.upsert({
      applicationId: app.id,
      userId: user.id,
      scopes: [...new Set([...(previous?.scopes ?? []), ...record.scopes])],
      createdAt: previous?.createdAt ?? ctx.now(),
    });
    enqueueAuthorized(ctx, app, user, record.scopes);
  });
  ctx.wakeWebhooks();
}

/**
 * The device verification page (RFC 8628 `verification_uri`): GET shows a form, POST approves or denies.
 * In development mode `GET /activate?user_code=…&svcpp_dev_user=<id|username>` approves at once (OURS).
 */
export function registerDeviceVerificationRoutes(app: FastifyInstance, ctx: OAuthServices): void {
  app.get('/activate', { config: { rateLimit: 'oauth2.device' } }, (request, reply) => {
    const parsed = activateQuerySchema.safeParse(request.query ?? {});
    const query = parsed.success ? parsed.data : {};
    if (ctx.options.devMode && query.svcpp_dev_user !== undefined && query.user_code !== undefined) {
      const record = pendingCode(ctx, query.user_code);
      if (!record)
        return reply.code(400).type('text/html').send(activatePage(query.user_code, 'Unknown or expired code.'));
      const result = login(ctx, query.svcpp_dev_user, undefined, true);
      if (!result.ok)
        return reply
          .code(400)
          .type('text/html')
          .send(activatePage(query.user_code, 'Unknown development user or banned account.'));
      approve(ctx, record, result.user);
      return resultPage(reply, true);
    }
    return reply.type('text/html').send(activatePage(query.user_code ?? ''));
  });

  app.post('/activate', { config: { rateLimit: 'oauth2.device' } }, (request, reply) => {
    const form = htmlFormBody(request);
    const field = (name: string) => {
      const value = form[name];
      return typeof value === 'string' ? value : '';
    };
    const userCode = field('user_code');
    const record = pendingCode(ctx, userCode);
    if (!record) return reply.code(400).type('text/html').send(activatePage(userCode, 'Unknown or expired code.'));
    if (field('decision') !== 'approve') {
      ctx.store.deviceCodes.update({ ...record, status: 'denied' });
      return resultPage(reply, false);
    }
    const result = login(ctx, field('username'), field('password') || undefined);
    if (!result.ok)
      return reply.code(401).type('text/html').send(activatePage(userCode, 'Unknown username or wrong password.'));
    approve(ctx, record, result.user);
    return resultPage(reply, true);
  });
}
