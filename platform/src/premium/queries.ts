/**
 * The premium reads other areas make (interactions' `entitlements` field, premium buttons' `sku_id`): they change
 * nothing, so they need only the kernel, not the webhook deliverer a PremiumService wakes after a change.
 */
import type { PlatformKernel } from '../kernel.js';
import { isSnowflake } from '../ids/snowflake.js';
import type { SkuRecord } from '../store/premium-types.js';
import { SkuFlag } from './constants.js';
import { entitlementJson } from './serialize.js';

/** The SKU when it exists and belongs to the application. */
export function ownSku(kernel: PlatformKernel, appId: string, skuId: string): SkuRecord | undefined {
  const sku = isSnowflake(skuId) ? kernel.store.premium.getSku(skuId) : undefined;
  return sku?.applicationId === appId ? sku : undefined;
}

/** The SKU if it belongs to the application and is available for purchase (AVAILABLE flag); else undefined. */
export function activeSku(kernel: PlatformKernel, appId: string, skuId: string): SkuRecord | undefined {
  const sku = ownSku(kernel, appId, skuId);
  return sku && (sku.flags & SkuFlag.AVAILABLE) !== 0 ? sku : undefined;
}

/**
 * The published entitlement objects an interaction carries: the live (not deleted, not consumed, not ended)
 * entitlements of the invoking user and, in a guild, of that guild, to the application.
 */
export function entitlementsFor(
  kernel: PlatformKernel,
  owner: { appId: string; userId: string; guildId?: string | null },
): ReturnType<typeof entitlementJson>[] {
  const now = kernel.now();
  const premium = kernel.store.premium;
  const mine = premium.liveEntitlements(owner.appId, { userId: owner.userId }, now);
  const guild = owner.guildId ? premium.liveEntitlements(owner.appId, { guildId: owner.guildId }, now) : [];
  const seen = new Set<string>();
  return [...mine, ...guild].filter((e) => !seen.has(e.id) && seen.add(e.id)).map(entitlementJson);
}
