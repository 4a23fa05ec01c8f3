/**
 * What interactions need from premium apps (PROTOCOL.md §17.5): the live entitlements of the invoking user and
 * guild for the interaction's `entitlements` field, and whether a premium button's `sku_id` names an active SKU of
 * the application. Both are the premium area's reads (premium/queries.ts: they change nothing, so the kernel is
 * enough).
 */
import type { PlatformKernel } from '../kernel.js';
import { activeSku, entitlementsFor as liveEntitlements } from '../premium/queries.js';

export function entitlementsFor(
  kernel: PlatformKernel,
  applicationId: string,
  userId: string,
  guildId: string | null,
): unknown[] {
  return liveEntitlements(kernel, { appId: applicationId, userId, guildId });
}

export function isActiveSku(kernel: PlatformKernel, applicationId: string, skuId: string): boolean {
  return activeSku(kernel, applicationId, skuId) !== undefined;
}
