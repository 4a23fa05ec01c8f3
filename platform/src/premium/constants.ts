/** Published enumerations of premium apps (PROTOCOL.md "Premium apps"). */

export const SkuType = { DURABLE: 2, CONSUMABLE: 3, SUBSCRIPTION: 5, SUBSCRIPTION_GROUP: 6 } as const;

export const SkuFlag = { AVAILABLE: 1 << 2, GUILD_SUBSCRIPTION: 1 << 7, USER_SUBSCRIPTION: 1 << 8 } as const;
/** The flags a developer may set on a SKU. */
export const SKU_SETTABLE_FLAGS = SkuFlag.AVAILABLE | SkuFlag.GUILD_SUBSCRIPTION | SkuFlag.USER_SUBSCRIPTION;

/**
 * Entitlement types produced here: PURCHASE, TEST_MODE_PURCHASE (test grants and test-mode purchases),
 * APPLICATION_SUBSCRIPTION.
 */
export const EntitlementType = { PURCHASE: 1, TEST_MODE_PURCHASE: 4, APPLICATION_SUBSCRIPTION: 8 } as const;

export const SubscriptionStatus = { ACTIVE: 0, INACTIVE: 1, ENDING: 2 } as const;

/** Owner types of Create Test Entitlement. */
export const OwnerType = { GUILD: 1, USER: 2 } as const;

/** Length of a subscription period (ours: the local platform bills monthly, as 30 days). */
export const SUBSCRIPTION_PERIOD_MS = 30 * 86_400_000;
/** SKUs per application (ours: the published limit is not stated). */
export const MAX_SKUS_PER_APPLICATION = 50;
