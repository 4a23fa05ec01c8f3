/**
 * Development routes of premium apps (OURS; devMode only, PROTOCOL.md "Premium apps"): the store UI that sells
 * SKUs is not published, so tests and developers create SKUs, buy them as a user, cancel or refund a subscription and
 * let a billing period pass through these routes. QUEST_USER_ENROLLMENT is a webhook-only event with no quest model
 * here; a route sends it.
 */
import { pathParams, type ApiArea } from '../http/api.js';
import { Errors } from '../http/errors.js';
import type { ApplicationRecord } from '../store/types.js';
import { enqueueWebhookEvent } from '../webhooks/events.js';
import type { WakesWebhooks } from '../webhooks/waking.js';
import { PremiumErrors } from './errors.js';
import { createSkuBody, purchaseBody, questEnrollmentBody } from './schemas.js';
import { entitlementJson, skuJson, subscriptionJson } from './serialize.js';
import type { PremiumService } from './service.js';
import { requireById } from '../ids/snowflake.js';

export const premiumDevRoutes =
  (ctx: WakesWebhooks, premium: PremiumService): ApiArea =>
  (app) => {
    const application = (id: string): ApplicationRecord => {
      const found = requireById(id, (id) => ctx.store.applications.get(id), Errors.unknownApplication);
      return found;
    };

    app.post(
      '/dev/applications/:applicationId/skus',
      { schema: { params: pathParams('applicationId'), body: createSkuBody } },
      async (request, reply) => {
        const body = request.body;
        const created = premium.createSku(application(request.params.applicationId), {
          type: body.type,
          name: body.name,
          flags: body.flags,
          priceCents: body.price_cents,
          ...(body.slug !== undefined && { slug: body.slug }),
        });
        return reply.code(201).send(created.map((sku) => ({ ...skuJson(sku), price_cents: sku.priceCents })));
      },
    );

    app.post(
      '/dev/applications/:applicationId/purchases',
      { schema: { params: pathParams('applicationId'), body: purchaseBody } },
      async (request, reply) => {
        const body = request.body;
        const result = premium.purchase(application(request.params.applicationId), {
          userId: body.user_id,
          skuId: body.sku_id,
          testMode: body.test_mode,
          legacy: body.legacy,
          ...(body.guild_id !== undefined && { guildId: body.guild_id }),
        });
        return reply.code(201).send({
          entitlement: entitlementJson(result.entitlement),
          subscription: result.subscription && subscriptionJson(result.subscription),
          charge: {
            list_price_cents: result.charge.listPriceCents,
            discount_percent: result.charge.discountPercent,
            amount_cents: result.charge.amountCents,
          },
        });
      },
    );

    app.post(
      '/dev/applications/:applicationId/subscriptions/:subscriptionId/cancel',
      { schema: { params: pathParams('applicationId', 'subscriptionId') } },
      async (request) =>
        subscriptionJson(premium.cancel(application(request.params.applicationId), request.params.subscriptionId)),
    );

    app.post(
      '/dev/applications/:applicationId/subscriptions/:subscriptionId/end-period',
      { schema: { params: pathParams('applicationId', 'subscriptionId') } },
      async (request) =>
        subscriptionJson(premium.endPeriod(application(request.params.applicationId), request.params.subscriptionId)),
    );

    app.post(
      '/dev/applications/:applicationId/subscriptions/:subscriptionId/refund',
      { schema: { params: pathParams('applicationId', 'subscriptionId') } },
      async (request) =>
        subscriptionJson(premium.refund(application(request.params.applicationId), request.params.subscriptionId)),
    );

    app.post(
      '/dev/applications/:applicationId/subscriptions/:subscriptionId/migrate',
      { schema: { params: pathParams('applicationId', 'subscriptionId') } },
      async (request) =>
        premium.migrate(application(request.params.applicationId), request.params.subscriptionId).map(entitlementJson),
    );

    app.post(
      '/dev/applications/:applicationId/quest-enrollments',
      { schema: { params: pathParams('applicationId'), body: questEnrollmentBody } },
      async (request, reply) => {
        const target = application(request.params.applicationId);
        if (!ctx.store.users.get(request.body.user_id)) throw PremiumErrors.userField('Unknown user.');
        ctx.store.transaction(() =>
          enqueueWebhookEvent(ctx, target, 'QUEST_USER_ENROLLMENT', {
            user_id: request.body.user_id,
            quest_id: request.body.quest_id,
            enrolled_at: new Date(ctx.now()).toISOString(),
          }),
        );
        ctx.wakeWebhooks();
        return reply.code(204).send();
      },
    );
  };
