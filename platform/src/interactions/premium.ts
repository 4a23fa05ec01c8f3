/**
 * What interactions need from premium apps (PROTOCOL.md §17.5): the live entitlements of the invoking user and
 * guild for the interaction's `entitlements` field, and whether a premium button's `sku_id` names an active SKU of
 * the application. Both come from the premium area's service (stateless: everything it reads is in the store).
 */
import type { PlatformContext } from '../context.js';
import { PremiumService } from '../premium/service.js';

export function entitlementsFor(
  ctx: PlatformContext,
  applicationId: string,
  userId: string,
  guildId: string | null,
): unknown[] {
  return new PremiumService(ctx).entitlementsFor({ appId: applicationId, userId, guildId });
}

export function isActiveSku(ctx: PlatformContext, applicationId: string, skuId: string): boolean {
  return new PremiumService(ctx).activeSku(applicationId, skuId) !== undefined;
}
