import { ApiError, fieldError } from '../http/errors.js';
import { publishedError } from '../http/published-errors.js';

/** Errors of the premium area (PROTOCOL.md "Premium apps"): 10029 is published, the others are ours. */
export const PremiumErrors = {
  unknownEntitlement: () => publishedError('UNKNOWN_ENTITLEMENT'),
  unknownSku: () => new ApiError(404, 0, 'Unknown SKU'),
  unknownSubscription: () => new ApiError(404, 0, 'Unknown Subscription'),
  notConsumable: () => new ApiError(400, 0, 'Only entitlements to a consumable SKU can be consumed'),
  alreadyConsumed: () => new ApiError(400, 0, 'This entitlement has already been consumed'),
  notTestEntitlement: () => new ApiError(400, 0, 'Only test entitlements can be deleted'),
  entitlementEnded: () => new ApiError(400, 0, 'This entitlement has ended or been deleted'),
  tooManySkus: (max: number) => new ApiError(400, 0, `Maximum number of SKUs reached (${max})`),
  /** A consumable cannot be bought again while an unconsumed purchase of it exists. */
  unconsumedPurchase: () =>
    fieldError(['sku_id'], 'ENTITLEMENT_UNCONSUMED', 'The user already holds an unconsumed entitlement to this SKU.'),
  alreadyOwned: () => fieldError(['sku_id'], 'ENTITLEMENT_ALREADY_OWNED', 'The buyer already owns this SKU.'),
  skuField: (message: string) => fieldError(['sku_id'], 'SKU_INVALID', message),
  slugTaken: () =>
    fieldError(['slug'], 'SKU_SLUG_ALREADY_TAKEN', 'A SKU with this slug already exists in this application.'),
  skuFlags: (message: string) => fieldError(['flags'], 'SKU_FLAGS_INVALID', message),
  ownerField: (message: string) => fieldError(['owner_id'], 'OWNER_INVALID', message),
  userField: (message: string) => fieldError(['user_id'], 'USER_INVALID', message),
  guildField: (message: string) => fieldError(['guild_id'], 'GUILD_INVALID', message),
  legacyField: (message: string) => fieldError(['legacy'], 'LEGACY_INVALID', message),
  subscriptionState: (message: string) => new ApiError(400, 0, message),
};
