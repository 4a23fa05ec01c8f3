/**
 * Records of the premium-apps area (platform/PROTOCOL.md "Premium apps"): SKUs configured per application,
 * entitlements (what a user or guild owns) and subscriptions. Times are epoch milliseconds.
 */

/** SKU types (published): DURABLE 2, CONSUMABLE 3, SUBSCRIPTION 5, SUBSCRIPTION_GROUP 6. */
export type SkuType = 2 | 3 | 5 | 6;

export interface SkuRecord {
  id: string;
  applicationId: string;
  type: SkuType;
  name: string;
  /** Unique per application. */
  slug: string;
  /** Published SKU flags: AVAILABLE 1<<2, GUILD_SUBSCRIPTION 1<<7, USER_SUBSCRIPTION 1<<8. */
  flags: number;
  /** List price in the smallest currency unit (what a purchase would charge before any discount). */
  priceCents: number;
  /** A SUBSCRIPTION SKU's SUBSCRIPTION_GROUP SKU (created with it); null for every other type. */
  groupSkuId: string | null;
  createdAt: number;
}

export interface EntitlementRecord {
  id: string;
  skuId: string;
  applicationId: string;
  /**
   * The owning user (user entitlements) or the purchasing user of a guild entitlement; null for a test grant to a
   * guild.
   */
  userId: string | null;
  /** Set for guild entitlements. */
  guildId: string | null;
  /** Published entitlement types used here: PURCHASE 1, TEST_MODE_PURCHASE 4, APPLICATION_SUBSCRIPTION 8. */
  type: number;
  deleted: boolean;
  /** Null for test entitlements (they have no validity window). */
  startsAt: number | null;
  /** Null means indefinite; a subscription entitlement gets it only when the subscription ends. */
  endsAt: number | null;
  /** Consumables only: false until consumed; null for the other SKU types. */
  consumed: boolean | null;
  subscriptionId: string | null;
  /** Created through the test-entitlement route (the only kind that may be deleted). */
  test: boolean;
  createdAt: number;
}

/** Subscription statuses (published): ACTIVE 0, INACTIVE 1, ENDING 2. */
export type SubscriptionStatus = 0 | 1 | 2;

export interface SubscriptionRecord {
  id: string;
  applicationId: string;
  userId: string;
  /** The SUBSCRIPTION SKU (with its group: the published object lists both). */
  skuIds: string[];
  entitlementIds: string[];
  /** SKUs held after the next renewal; null once the subscription will not renew. */
  renewalSkuIds: string[] | null;
  currentPeriodStart: number;
  currentPeriodEnd: number;
  status: SubscriptionStatus;
  canceledAt: number | null;
  createdAt: number;
}

export interface EntitlementQuery {
  applicationId: string;
  userId?: string;
  guildId?: string;
  skuIds?: string[];
  /** Snowflake bounds (exclusive). */
  before?: string;
  after?: string;
  limit: number;
  /** Leave out entitlements whose `endsAt` is at or before this time. */
  endedBy?: number;
  includeDeleted: boolean;
  includeConsumed: boolean;
}

export interface SubscriptionQuery {
  skuId: string;
  userId?: string;
  before?: string;
  after?: string;
  limit: number;
}

/** SQL of the premium area (store/sqlite/premium.ts). */
export interface PremiumRepository {
  insertSku(sku: SkuRecord): void;
  getSku(id: string): SkuRecord | undefined;
  findSkuBySlug(applicationId: string, slug: string): SkuRecord | undefined;
  listSkus(applicationId: string): SkuRecord[];
  countSkus(applicationId: string): number;

  upsertEntitlement(entitlement: EntitlementRecord): void;
  getEntitlement(applicationId: string, id: string): EntitlementRecord | undefined;
  /** Newest first when only `before` (or nothing) bounds the page, oldest first after `after` (published paging). */
  listEntitlements(query: EntitlementQuery): EntitlementRecord[];
  /** Live (not deleted, not consumed, not ended by `now`) entitlements of a user or guild to one application. */
  liveEntitlements(
    applicationId: string,
    owner: { userId?: string; guildId?: string },
    now: number,
  ): EntitlementRecord[];

  upsertSubscription(subscription: SubscriptionRecord): void;
  getSubscription(id: string): SubscriptionRecord | undefined;
  listSubscriptions(query: SubscriptionQuery): SubscriptionRecord[];
}
