/**
 * Published-shape checks of the premium routes (PROTOCOL.md "Premium apps"). Subscriptions validate against the
 * OpenAPI schema. Entitlements follow the documentation where the OpenAPI description is narrower: its
 * `EntitlementTypes` lists only 8 and 10 while the documented types include PURCHASE 1 and TEST_MODE_PURCHASE 4,
 * and its `user_id` is required while a guild's test entitlement has none. SKUs are documented only.
 */
import * as spec from 'discord-api-spec/zod';
import * as zm from 'zod/mini';
import { bot, request, type TestResponse } from '../support/http.js';
import type { BotFixture } from '../bot/fixture.js';
import { documented, published, type Check } from './checks.js';

const snowflake = zm.string().check(zm.regex(/^\d{1,20}$/));
const timestamp = zm.nullable(zm.iso.datetime());
/** The documented entitlement object (see above for how it differs from the OpenAPI one). */
const entitlementSchema = zm.object({
  id: snowflake,
  sku_id: snowflake,
  application_id: snowflake,
  user_id: zm.optional(snowflake),
  guild_id: zm.optional(snowflake),
  type: zm.literal([1, 2, 3, 4, 5, 6, 7, 8, 10]),
  deleted: zm.boolean(),
  starts_at: timestamp,
  ends_at: timestamp,
  consumed: zm.optional(zm.boolean()),
  subscription_id: zm.optional(snowflake),
});
/** Create Test Entitlement answers the partial object: no `starts_at`, `ends_at` or `subscription_id`. */
const testEntitlementSchema = zm.omit(entitlementSchema, { starts_at: true, ends_at: true });
/** The documented SKU object. */
const skuSchema = zm.object({
  id: snowflake,
  type: zm.literal([2, 3, 5, 6]),
  application_id: snowflake,
  name: zm.string(),
  slug: zm.string(),
  flags: zm.number().check(zm.int()),
});

export function premiumChecks(fixture: () => BotFixture, userEntitlements: () => Promise<TestResponse>): Check[] {
  const f = () => fixture();
  const api = (method: string, path: string, json?: unknown, headers: Record<string, string> = bot(f().botToken)) =>
    request(`${f().platform.apiBase}${path}`, { method, headers, ...(json !== undefined && { json }) });
  const dev = (path: string, json: unknown) => api('POST', `/dev${path}`, json, {});
  const sku = async (type: number, name: string) => {
    const response = await dev(`/applications/${f().appId}/skus`, { type, name, flags: 1 << 2 });
    return response.body[0].id as string;
  };
  const testEntitlement = async (type = 3, owner: { id: string; type: number } = { id: f().memberId, type: 2 }) => {
    const response = await api('POST', `/applications/${f().appId}/entitlements`, {
      sku_id: await sku(type, `Shape ${Math.random()}`),
      owner_id: owner.id,
      owner_type: owner.type,
    });
    return response.body.id as string;
  };
  const subscription = async () => {
    const skuId = await sku(5, `Shape plan ${Math.random()}`);
    const bought = await dev(`/applications/${f().appId}/purchases`, { user_id: f().ownerId, sku_id: skuId });
    return { skuId, id: bought.body.subscription.id as string };
  };

  return [
    documented('GET', '/api/v10/applications/{application_id}/skus', 200, zm.array(skuSchema), async () => {
      await sku(5, 'Shape listed plan');
      return api('GET', `/applications/${f().appId}/skus`);
    }),
    documented(
      'GET',
      '/api/v10/applications/{application_id}/entitlements',
      200,
      zm.array(entitlementSchema),
      async () => {
        await testEntitlement(2, { id: f().guildId, type: 1 });
        await dev(`/applications/${f().appId}/purchases`, {
          user_id: f().memberId,
          sku_id: await sku(2, 'Shape bought'),
        });
        return api('GET', `/applications/${f().appId}/entitlements?exclude_deleted=false`);
      },
    ),
    documented(
      'GET',
      '/api/v10/applications/{application_id}/entitlements/{entitlement_id}',
      200,
      entitlementSchema,
      async () => api('GET', `/applications/${f().appId}/entitlements/${await testEntitlement()}`),
    ),
    documented('POST', '/api/v10/applications/{application_id}/entitlements', 200, testEntitlementSchema, async () =>
      api('POST', `/applications/${f().appId}/entitlements`, {
        sku_id: await sku(2, 'Shape granted'),
        owner_id: f().memberId,
        owner_type: 2,
      }),
    ),
    published('delete', '/applications/{application_id}/entitlements/{entitlement_id}', '204', null, async () =>
      api('DELETE', `/applications/${f().appId}/entitlements/${await testEntitlement()}`),
    ),
    published('post', '/applications/{application_id}/entitlements/{entitlement_id}/consume', '204', null, async () =>
      api('POST', `/applications/${f().appId}/entitlements/${await testEntitlement()}/consume`),
    ),
    documented(
      'GET',
      '/api/v10/users/@me/applications/{application_id}/entitlements',
      200,
      zm.array(entitlementSchema),
      userEntitlements,
    ),
    published('get', '/skus/{sku_id}/subscriptions', '200', zm.array(spec.SubscriptionResponseSchema), async () => {
      const made = await subscription();
      return api('GET', `/skus/${made.skuId}/subscriptions?user_id=${f().ownerId}`);
    }),
    published(
      'get',
      '/skus/{sku_id}/subscriptions/{subscription_id}',
      '200',
      spec.SubscriptionResponseSchema,
      async () => {
        const made = await subscription();
        await dev(`/applications/${f().appId}/subscriptions/${made.id}/cancel`, {});
        return api('GET', `/skus/${made.skuId}/subscriptions/${made.id}`);
      },
    ),
  ];
}
