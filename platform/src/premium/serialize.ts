/** Published JSON shapes of SKUs, entitlements and subscriptions (PROTOCOL.md "Premium apps"). */
import type { EntitlementRecord, SkuRecord, SubscriptionRecord } from '../store/premium-types.js';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

export function skuJson(sku: SkuRecord) {
  return {
    id: sku.id,
    type: sku.type,
    application_id: sku.applicationId,
    name: sku.name,
    slug: sku.slug,
    flags: sku.flags,
  };
}

/**
 * The entitlement object. `user_id` and `guild_id` appear when set; `consumed` only for consumables;
 * `subscription_id` only for subscription entitlements.
 */
export function entitlementJson(e: EntitlementRecord) {
  return {
    id: e.id,
    sku_id: e.skuId,
    application_id: e.applicationId,
    ...(e.userId !== null && { user_id: e.userId }),
    ...(e.guildId !== null && { guild_id: e.guildId }),
    type: e.type,
    deleted: e.deleted,
    starts_at: iso(e.startsAt),
    ends_at: iso(e.endsAt),
    ...(e.consumed !== null && { consumed: e.consumed }),
    ...(e.subscriptionId !== null && { subscription_id: e.subscriptionId }),
  };
}

/** What Create Test Entitlement answers: the partial object, without `starts_at`, `ends_at` or `subscription_id`. */
export function testEntitlementJson(e: EntitlementRecord) {
  const { starts_at: _startsAt, ends_at: _endsAt, ...partial } = entitlementJson(e);
  return partial;
}

export function subscriptionJson(s: SubscriptionRecord) {
  return {
    id: s.id,
    user_id: s.userId,
    sku_ids: s.skuIds,
    entitlement_ids: s.entitlementIds,
    renewal_sku_ids: s.renewalSkuIds,
    current_period_start: iso(s.currentPeriodStart),
    current_period_end: iso(s.currentPeriodEnd),
    status: s.status,
    canceled_at: iso(s.canceledAt),
  };
}
