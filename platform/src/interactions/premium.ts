/**
 * What interactions need from premium apps (PROTOCOL.md §16.5): the entitlements of the invoking user (and guild)
 * for the interaction's `entitlements` field, and whether a premium button's `sku_id` names an active SKU of the
 * application.
 *
 * SKUs and entitlements are served by the premium area, which is not part of this branch yet: until it is merged,
 * no SKU exists, so `entitlements` is always an empty list and every premium button is refused as having an
 * unknown SKU. Merging the premium area replaces the two bodies below with its service's calls.
 */
import type { PlatformContext } from '../context.js';

export function entitlementsFor(_ctx: PlatformContext, _applicationId: string, _userId: string, _guildId: string | null): unknown[] {
  return [];
}

export function isActiveSku(_ctx: PlatformContext, _applicationId: string, _skuId: string): boolean {
  return false;
}
