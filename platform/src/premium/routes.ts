/**
 * The published premium routes (PROTOCOL.md "Premium apps"): SKUs, entitlements (list, get, test create/delete,
 * consume), subscriptions per SKU, and the user's own entitlements (OAuth2). Bots reach their own application only;
 * another application's id answers 403 Missing Access, as for application emoji.
 */
import type { PlatformKernel } from '../kernel.js';
import type { FastifyRequest } from 'fastify';
import { bearerOf, botOf, callerOf, pathParams, type ApiArea } from '../http/api.js';
import { Errors, fieldError } from '../http/errors.js';
import type { EntitlementQuery } from '../store/premium-types.js';
import {
  createTestEntitlementBody,
  listEntitlementsQuery,
  listSubscriptionsQuery,
  userEntitlementsQuery,
} from './schemas.js';
import { entitlementJson, skuJson, subscriptionJson, testEntitlementJson } from './serialize.js';
import { PremiumErrors } from './errors.js';
import type { PremiumService } from './service.js';

const bot = { auth: { kind: 'bot' } } as const;

function ownApplication(request: FastifyRequest, applicationId: string) {
  const caller = botOf(request);
  if (caller.app.id !== applicationId) throw Errors.missingAccess();
  return caller.app;
}

export const premiumRoutes =
  (ctx: PlatformKernel, premium: PremiumService): ApiArea =>
  (app) => {
    app.get(
      '/applications/:applicationId/skus',
      { config: bot, schema: { params: pathParams('applicationId') } },
      async (request) => {
        const application = ownApplication(request, request.params.applicationId);
        return premium.skus(application.id).map(skuJson);
      },
    );

    app.get(
      '/applications/:applicationId/entitlements',
      { config: bot, schema: { params: pathParams('applicationId'), querystring: listEntitlementsQuery } },
      async (request) => {
        const application = ownApplication(request, request.params.applicationId);
        const q = request.query;
        const query: EntitlementQuery = {
          applicationId: application.id,
          limit: q.limit,
          includeDeleted: !q.exclude_deleted,
          includeConsumed: true,
          ...(q.user_id !== undefined && { userId: q.user_id }),
          ...(q.guild_id !== undefined && { guildId: q.guild_id }),
          ...(q.sku_ids !== undefined && { skuIds: q.sku_ids }),
          ...(q.before !== undefined && { before: q.before }),
          ...(q.after !== undefined && { after: q.after }),
          ...(q.exclude_ended && { endedBy: ctx.now() }),
        };
        return premium.listEntitlements(query).map(entitlementJson);
      },
    );

    app.get(
      '/applications/:applicationId/entitlements/:entitlementId',
      { config: bot, schema: { params: pathParams('applicationId', 'entitlementId') } },
      async (request) => {
        const application = ownApplication(request, request.params.applicationId);
        return entitlementJson(premium.entitlement(application.id, request.params.entitlementId));
      },
    );

    app.post(
      '/applications/:applicationId/entitlements',
      { config: bot, schema: { params: pathParams('applicationId'), body: createTestEntitlementBody } },
      async (request) => {
        const application = ownApplication(request, request.params.applicationId);
        const { sku_id, owner_id, owner_type } = request.body;
        return testEntitlementJson(
          premium.createTestEntitlement(application, { skuId: sku_id, ownerId: owner_id, ownerType: owner_type }),
        );
      },
    );

    app.delete(
      '/applications/:applicationId/entitlements/:entitlementId',
      { config: bot, schema: { params: pathParams('applicationId', 'entitlementId') } },
      async (request, reply) => {
        const application = ownApplication(request, request.params.applicationId);
        premium.deleteTestEntitlement(application, request.params.entitlementId);
        return reply.code(204).send();
      },
    );

    app.post(
      '/applications/:applicationId/entitlements/:entitlementId/consume',
      { config: bot, schema: { params: pathParams('applicationId', 'entitlementId') } },
      async (request, reply) => {
        const application = ownApplication(request, request.params.applicationId);
        premium.consume(application, request.params.entitlementId);
        return reply.code(204).send();
      },
    );

    /** A bot lists one user's subscriptions (user_id required); a user token lists its own. */
    app.get(
      '/skus/:skuId/subscriptions',
      {
        config: { auth: { kind: 'any', scope: 'identify' } },
        schema: { params: pathParams('skuId'), querystring: listSubscriptionsQuery },
      },
      async (request) => {
        const caller = callerOf(request);
        const sku = premium.sku(caller.app.id, request.params.skuId);
        const q = request.query;
        if (caller.kind === 'bot' && q.user_id === undefined)
          throw fieldError(['user_id'], 'BASE_TYPE_REQUIRED', 'This field is required');
        const userId = caller.kind === 'bearer' ? caller.user.id : q.user_id!;
        return premium
          .subscriptionsOf({
            skuId: sku.id,
            userId,
            limit: q.limit,
            ...(q.before !== undefined && { before: q.before }),
            ...(q.after !== undefined && { after: q.after }),
          })
          .map(subscriptionJson);
      },
    );

    app.get(
      '/skus/:skuId/subscriptions/:subscriptionId',
      {
        config: { auth: { kind: 'any', scope: 'identify' } },
        schema: { params: pathParams('skuId', 'subscriptionId') },
      },
      async (request) => {
        const caller = callerOf(request);
        const sku = premium.sku(caller.app.id, request.params.skuId);
        const subscription = premium.subscription(caller.app.id, request.params.subscriptionId, sku.id);
        if (caller.kind === 'bearer' && subscription.userId !== caller.user.id)
          throw PremiumErrors.unknownSubscription();
        return subscriptionJson(subscription);
      },
    );

    /** The SDK's store path: the signed-in user's entitlements to the token's own application. */
    app.get(
      '/users/@me/applications/:applicationId/entitlements',
      {
        config: { auth: { kind: 'bearer', scope: 'identify' } },
        schema: { params: pathParams('applicationId'), querystring: userEntitlementsQuery },
      },
      async (request) => {
        const caller = bearerOf(request);
        if (caller.app.id !== request.params.applicationId) throw Errors.missingAccess();
        return premium
          .listEntitlements({
            applicationId: caller.app.id,
            userId: caller.user.id,
            limit: 100,
            includeDeleted: false,
            includeConsumed: !request.query.exclude_consumed,
            endedBy: ctx.now(),
            ...(request.query.sku_ids !== undefined && { skuIds: request.query.sku_ids }),
          })
          .map(entitlementJson);
      },
    );
  };
