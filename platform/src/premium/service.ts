/**
 * Premium apps (PROTOCOL.md "Premium apps"): SKUs per application, entitlements and subscriptions, and the state
 * table of their lifecycle. Every change is written in one transaction together with its webhook outbox entry;
 * gateway events go out after the commit, to the application's bot only (no intent needed).
 *
 * Public entry points for other areas: `activeSku` (premium buttons) and `entitlementsFor` (interactions'
 * `entitlements` field).
 */
import type { ApplicationRecord } from '../store/types.js';
import type {
  EntitlementQuery,
  EntitlementRecord,
  SkuRecord,
  SkuType as SkuTypeValue,
  SubscriptionQuery,
  SubscriptionRecord,
} from '../store/premium-types.js';
import { enqueueWebhookEvent } from '../webhooks/events.js';
import type { WakesWebhooks } from '../webhooks/waking.js';
import {
  EntitlementType,
  MAX_SKUS_PER_APPLICATION,
  OwnerType,
  SKU_SETTABLE_FLAGS,
  SkuFlag,
  SkuType,
  SUBSCRIPTION_PERIOD_MS,
  SubscriptionStatus,
} from './constants.js';
import { PremiumErrors } from './errors.js';
import { activeSku, entitlementsFor, ownSku } from './queries.js';
import { entitlementJson, subscriptionJson } from './serialize.js';
import { isSnowflake, requireById } from '../ids/snowflake.js';

export interface CreateSkuInput {
  type: typeof SkuType.DURABLE | typeof SkuType.CONSUMABLE | typeof SkuType.SUBSCRIPTION;
  name: string;
  /** Derived from the name when absent. */
  slug?: string;
  flags: number;
  priceCents: number;
}

export interface TestEntitlementInput {
  skuId: string;
  ownerId: string;
  ownerType: typeof OwnerType.GUILD | typeof OwnerType.USER;
}

export interface PurchaseInput {
  userId: string;
  skuId: string;
  /** Required for a guild subscription SKU: the guild the purchase is for. */
  guildId?: string;
  /** A test-mode purchase: type TEST_MODE_PURCHASE, and consumables may be bought again while unconsumed. */
  testMode: boolean;
  /**
   * A subscription as it was before the platform-managed migration: its entitlement is APPLICATION_SUBSCRIPTION with
   * `ends_at` at the end of the paid period (see `migrate`).
   */
  legacy: boolean;
}

export interface PurchaseResult {
  entitlement: EntitlementRecord;
  subscription: SubscriptionRecord | null;
  /** What the buyer is charged: team members (here: the application's owner) get 100 % off. */
  charge: { listPriceCents: number; discountPercent: number; amountCents: number };
}

/** Ids in paths are not validated by the schema: anything that is not a snowflake names nothing. */

interface PendingEvent {
  t: string;
  d: unknown;
}

/** The slug a SKU gets from its name when none is given. */
export function slugOf(name: string): string {
  const slug = name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 90);
  return slug || 'sku';
}

export class PremiumService {
  /** Every change queues its webhook events in its transaction and wakes webhook delivery after the commit. */
  constructor(private readonly ctx: WakesWebhooks) {}

  private get store() {
    return this.ctx.store.premium;
  }

  // ---- SKUs ----

  /** The SKU if it belongs to the application and is available for purchase (AVAILABLE flag); else undefined. */
  activeSku(appId: string, skuId: string): SkuRecord | undefined {
    return activeSku(this.ctx, appId, skuId);
  }

  skus(appId: string): SkuRecord[] {
    return this.store.listSkus(appId);
  }

  /** The application's own SKU (any state), or 404-style Unknown SKU. */
  sku(appId: string, skuId: string): SkuRecord {
    const sku = this.ownSku(appId, skuId);
    if (!sku) throw PremiumErrors.unknownSku();
    return sku;
  }

  /**
   * Creates a SKU. A SUBSCRIPTION SKU comes with its SUBSCRIPTION_GROUP SKU (the published list shows both) and
   * must say who subscribes: exactly one of GUILD_SUBSCRIPTION and USER_SUBSCRIPTION (USER_SUBSCRIPTION when
   * neither is given). One-time SKUs take neither.
   */
  createSku(app: ApplicationRecord, input: CreateSkuInput): SkuRecord[] {
    if ((input.flags & ~SKU_SETTABLE_FLAGS) !== 0)
      throw PremiumErrors.skuFlags('Only AVAILABLE, GUILD_SUBSCRIPTION and USER_SUBSCRIPTION can be set.');
    const audience = input.flags & (SkuFlag.GUILD_SUBSCRIPTION | SkuFlag.USER_SUBSCRIPTION);
    let flags = input.flags;
    if (input.type === SkuType.SUBSCRIPTION) {
      if (audience === (SkuFlag.GUILD_SUBSCRIPTION | SkuFlag.USER_SUBSCRIPTION))
        throw PremiumErrors.skuFlags('A subscription is either for guilds or for users, not both.');
      if (audience === 0) flags |= SkuFlag.USER_SUBSCRIPTION;
    } else if (audience !== 0) {
      throw PremiumErrors.skuFlags('GUILD_SUBSCRIPTION and USER_SUBSCRIPTION apply to subscription SKUs only.');
    }
    const slug = input.slug ?? slugOf(input.name);
    const groupSlug = `${slug}-group`;
    return this.ctx.store.transaction(() => {
      const created = input.type === SkuType.SUBSCRIPTION ? 2 : 1;
      if (this.store.countSkus(app.id) + created > MAX_SKUS_PER_APPLICATION)
        throw PremiumErrors.tooManySkus(MAX_SKUS_PER_APPLICATION);
      if (this.store.findSkuBySlug(app.id, slug) || (created === 2 && this.store.findSkuBySlug(app.id, groupSlug)))
        throw PremiumErrors.slugTaken();
      const now = this.ctx.now();
      const make = (id: string, type: SkuTypeValue, skuSlug: string, groupSkuId: string | null): SkuRecord => ({
        id,
        applicationId: app.id,
        type,
        name: input.name,
        slug: skuSlug,
        flags,
        priceCents: input.priceCents,
        groupSkuId,
        createdAt: now,
      });
      if (input.type !== SkuType.SUBSCRIPTION) {
        const sku = make(this.ctx.ids.next(), input.type, slug, null);
        this.store.insertSku(sku);
        return [sku];
      }
      // The subscription's id first: listings (snowflake order) show the subscription before its group.
      const skuId = this.ctx.ids.next();
      const group = make(this.ctx.ids.next(), SkuType.SUBSCRIPTION_GROUP, groupSlug, null);
      const sku = make(skuId, SkuType.SUBSCRIPTION, slug, group.id);
      this.store.insertSku(sku);
      this.store.insertSku(group);
      return [sku, group];
    });
  }

  // ---- entitlements ----

  /** The published entitlement objects an interaction carries (queries.ts). */
  entitlementsFor(owner: {
    appId: string;
    userId: string;
    guildId?: string | null;
  }): ReturnType<typeof entitlementJson>[] {
    return entitlementsFor(this.ctx, owner);
  }

  listEntitlements(query: EntitlementQuery): EntitlementRecord[] {
    return this.store.listEntitlements(query);
  }

  entitlement(appId: string, entitlementId: string): EntitlementRecord {
    const entitlement = requireById(
      entitlementId,
      (entitlementId) => this.store.getEntitlement(appId, entitlementId),
      PremiumErrors.unknownEntitlement,
    );
    return entitlement;
  }

  /** Create Test Entitlement: a grant without validity window (type TEST_MODE_PURCHASE) → ENTITLEMENT_CREATE. */
  createTestEntitlement(app: ApplicationRecord, input: TestEntitlementInput): EntitlementRecord {
    const sku = this.purchasableSku(app.id, input.skuId, { requireAvailable: false });
    if (input.ownerType === OwnerType.USER && !this.ctx.store.users.get(input.ownerId))
      throw PremiumErrors.ownerField('Unknown user.');
    if (input.ownerType === OwnerType.GUILD && !this.ctx.store.guilds.get(input.ownerId))
      throw PremiumErrors.ownerField('Unknown guild.');
    const entitlement: EntitlementRecord = {
      id: this.ctx.ids.next(),
      skuId: sku.id,
      applicationId: app.id,
      userId: input.ownerType === OwnerType.USER ? input.ownerId : null,
      guildId: input.ownerType === OwnerType.GUILD ? input.ownerId : null,
      type: EntitlementType.TEST_MODE_PURCHASE,
      deleted: false,
      startsAt: null,
      endsAt: null,
      consumed: sku.type === SkuType.CONSUMABLE ? false : null,
      subscriptionId: null,
      test: true,
      createdAt: this.ctx.now(),
    };
    this.commit(app, () => {
      this.store.upsertEntitlement(entitlement);
      return [this.entitlementCreated(app, entitlement)];
    });
    return entitlement;
  }

  /** Delete Test Entitlement: only test grants; kept as `deleted: true` → ENTITLEMENT_DELETE. */
  deleteTestEntitlement(app: ApplicationRecord, entitlementId: string): void {
    const entitlement = this.entitlement(app.id, entitlementId);
    if (!entitlement.test) throw PremiumErrors.notTestEntitlement();
    if (entitlement.deleted) throw PremiumErrors.unknownEntitlement();
    const deleted = { ...entitlement, deleted: true };
    this.commit(app, () => {
      this.store.upsertEntitlement(deleted);
      return [{ t: 'ENTITLEMENT_DELETE', d: entitlementJson(deleted) }];
    });
  }

  /** Consume: only entitlements to a CONSUMABLE SKU, once; sets `consumed` (no event: the app asked for it). */
  consume(app: ApplicationRecord, entitlementId: string): EntitlementRecord {
    const entitlement = this.entitlement(app.id, entitlementId);
    if (entitlement.consumed === null) throw PremiumErrors.notConsumable();
    if (entitlement.deleted) throw PremiumErrors.entitlementEnded();
    if (entitlement.consumed) throw PremiumErrors.alreadyConsumed();
    const consumed = { ...entitlement, consumed: true };
    this.store.upsertEntitlement(consumed);
    return consumed;
  }

  // ---- purchases and subscriptions (driven by the development routes: the store UI is not published) ----

  /**
   * A user buys a SKU. One-time: an entitlement (PURCHASE, `ends_at` null) → ENTITLEMENT_CREATE. Subscription: a
   * subscription (ACTIVE, one period) → SUBSCRIPTION_CREATE, and its entitlement (PURCHASE, `ends_at` null) →
   * ENTITLEMENT_CREATE.
   */
  purchase(app: ApplicationRecord, input: PurchaseInput): PurchaseResult {
    const sku = this.purchasableSku(app.id, input.skuId, { requireAvailable: true });
    if (!this.ctx.store.users.get(input.userId)) throw PremiumErrors.userField('Unknown user.');
    const forGuild = sku.type === SkuType.SUBSCRIPTION && (sku.flags & SkuFlag.GUILD_SUBSCRIPTION) !== 0;
    if (forGuild && !input.guildId)
      throw PremiumErrors.guildField('A guild subscription is bought for a guild: guild_id is required.');
    if (!forGuild && input.guildId) throw PremiumErrors.guildField('Only guild subscriptions are bought for a guild.');
    if (input.guildId && !this.ctx.store.guilds.get(input.guildId)) throw PremiumErrors.guildField('Unknown guild.');
    if (input.legacy && sku.type !== SkuType.SUBSCRIPTION)
      throw PremiumErrors.legacyField('Only subscriptions predate the migration.');
    const discountPercent = app.ownerUserId === input.userId ? 100 : 0;
    const charge = {
      listPriceCents: sku.priceCents,
      discountPercent,
      amountCents: Math.round((sku.priceCents * (100 - discountPercent)) / 100),
    };
    const now = this.ctx.now();
    return this.commit<PurchaseResult>(app, () => {
      const owned = this.store
        .liveEntitlements(app.id, input.guildId ? { guildId: input.guildId } : { userId: input.userId }, now)
        .filter((e) => e.skuId === sku.id && !e.test);
      if (sku.type === SkuType.CONSUMABLE && owned.length > 0 && !input.testMode)
        throw PremiumErrors.unconsumedPurchase();
      if (sku.type !== SkuType.CONSUMABLE && owned.length > 0) throw PremiumErrors.alreadyOwned();
      const entitlement: EntitlementRecord = {
        id: this.ctx.ids.next(),
        skuId: sku.id,
        applicationId: app.id,
        userId: input.userId,
        guildId: input.guildId ?? null,
        type: input.testMode ? EntitlementType.TEST_MODE_PURCHASE : EntitlementType.PURCHASE,
        deleted: false,
        startsAt: now,
        endsAt: null,
        consumed: sku.type === SkuType.CONSUMABLE ? false : null,
        subscriptionId: null,
        test: false,
        createdAt: now,
      };
      if (sku.type !== SkuType.SUBSCRIPTION) {
        this.store.upsertEntitlement(entitlement);
        return {
          result: { entitlement, subscription: null, charge },
          events: [this.entitlementCreated(app, entitlement)],
        };
      }
      const subscription: SubscriptionRecord = {
        id: this.ctx.ids.next(),
        applicationId: app.id,
        userId: input.userId,
        skuIds: [sku.id, ...(sku.groupSkuId ? [sku.groupSkuId] : [])],
        entitlementIds: [entitlement.id],
        renewalSkuIds: [sku.id],
        currentPeriodStart: now,
        currentPeriodEnd: now + SUBSCRIPTION_PERIOD_MS,
        status: SubscriptionStatus.ACTIVE,
        canceledAt: null,
        createdAt: now,
      };
      const subscribed: EntitlementRecord = input.legacy
        ? {
            ...entitlement,
            type: EntitlementType.APPLICATION_SUBSCRIPTION,
            endsAt: subscription.currentPeriodEnd,
            subscriptionId: subscription.id,
          }
        : { ...entitlement, subscriptionId: subscription.id };
      this.store.upsertSubscription(subscription);
      this.store.upsertEntitlement(subscribed);
      return {
        result: { entitlement: subscribed, subscription, charge },
        events: [
          { t: 'SUBSCRIPTION_CREATE', d: subscriptionJson(subscription) },
          this.entitlementCreated(app, subscribed),
        ],
      };
    });
  }

  subscriptionsOf(query: SubscriptionQuery): SubscriptionRecord[] {
    return this.store.listSubscriptions(query);
  }

  subscription(appId: string, subscriptionId: string, skuId?: string): SubscriptionRecord {
    const subscription = isSnowflake(subscriptionId) ? this.store.getSubscription(subscriptionId) : undefined;
    if (
      !subscription ||
      subscription.applicationId !== appId ||
      (skuId !== undefined && !subscription.skuIds.includes(skuId))
    ) {
      throw PremiumErrors.unknownSubscription();
    }
    return subscription;
  }

  /** The user cancels: ACTIVE → ENDING with `canceled_at`, nothing to renew → SUBSCRIPTION_UPDATE. */
  cancel(app: ApplicationRecord, subscriptionId: string): SubscriptionRecord {
    const subscription = this.subscription(app.id, subscriptionId);
    if (subscription.status !== SubscriptionStatus.ACTIVE)
      throw PremiumErrors.subscriptionState('Only an active subscription can be canceled.');
    const canceled: SubscriptionRecord = {
      ...subscription,
      status: SubscriptionStatus.ENDING,
      canceledAt: this.ctx.now(),
      renewalSkuIds: null,
    };
    return this.commit(app, () => {
      this.store.upsertSubscription(canceled);
      return { result: canceled, events: [{ t: 'SUBSCRIPTION_UPDATE', d: subscriptionJson(canceled) }] };
    });
  }

  /**
   * The current period runs out now. ACTIVE renews: a new period from now → SUBSCRIPTION_UPDATE and no
   * entitlement event. ENDING ends: INACTIVE, its entitlements get `ends_at` = now → ENTITLEMENT_UPDATE each,
   * then SUBSCRIPTION_UPDATE.
   */
  endPeriod(app: ApplicationRecord, subscriptionId: string): SubscriptionRecord {
    const subscription = this.subscription(app.id, subscriptionId);
    if (subscription.status === SubscriptionStatus.INACTIVE)
      throw PremiumErrors.subscriptionState('The subscription has already ended.');
    const now = this.ctx.now();
    return this.commit(app, () => {
      const entitlements = subscription.entitlementIds
        .map((id) => this.store.getEntitlement(app.id, id))
        .filter((e) => e !== undefined);
      if (subscription.status === SubscriptionStatus.ACTIVE) {
        const renewed = { ...subscription, currentPeriodStart: now, currentPeriodEnd: now + SUBSCRIPTION_PERIOD_MS };
        this.store.upsertSubscription(renewed);
        // A legacy entitlement carries its paid period: it moves with the renewal (no event either).
        for (const e of entitlements)
          if (e.type === EntitlementType.APPLICATION_SUBSCRIPTION)
            this.store.upsertEntitlement({ ...e, endsAt: renewed.currentPeriodEnd });
        return { result: renewed, events: [{ t: 'SUBSCRIPTION_UPDATE', d: subscriptionJson(renewed) }] };
      }
      return this.end(subscription, entitlements, now, { naturalExpiry: true });
    });
  }

  /**
   * A refund ends the subscription at once, whatever its state but INACTIVE: INACTIVE, `canceled_at` set if it was
   * not, every entitlement gets `ends_at` = now → ENTITLEMENT_UPDATE each, then SUBSCRIPTION_UPDATE.
   */
  refund(app: ApplicationRecord, subscriptionId: string): SubscriptionRecord {
    const subscription = this.subscription(app.id, subscriptionId);
    if (subscription.status === SubscriptionStatus.INACTIVE)
      throw PremiumErrors.subscriptionState('The subscription has already ended.');
    const now = this.ctx.now();
    return this.commit(app, () => {
      const entitlements = subscription.entitlementIds
        .map((id) => this.store.getEntitlement(app.id, id))
        .filter((e) => e !== undefined);
      return this.end(
        { ...subscription, canceledAt: subscription.canceledAt ?? now, renewalSkuIds: null },
        entitlements,
        now,
        { naturalExpiry: false },
      );
    });
  }

  /**
   * Ends a subscription now (inside a commit): its entitlements get `ends_at` → ENTITLEMENT_UPDATE each, then
   * SUBSCRIPTION_UPDATE (INACTIVE). On natural expiry a legacy entitlement (set to end before the migration) ends
   * without an event, as the state table says.
   */
  private end(
    subscription: SubscriptionRecord,
    entitlements: EntitlementRecord[],
    now: number,
    { naturalExpiry }: { naturalExpiry: boolean },
  ) {
    const ended: SubscriptionRecord = { ...subscription, status: SubscriptionStatus.INACTIVE, currentPeriodEnd: now };
    const events: PendingEvent[] = [];
    for (const entitlement of entitlements) {
      const legacy = entitlement.type === EntitlementType.APPLICATION_SUBSCRIPTION;
      if (!legacy && entitlement.endsAt !== null) continue;
      const endedEntitlement = { ...entitlement, endsAt: now };
      this.store.upsertEntitlement(endedEntitlement);
      if (!(legacy && naturalExpiry)) events.push({ t: 'ENTITLEMENT_UPDATE', d: entitlementJson(endedEntitlement) });
    }
    this.store.upsertSubscription(ended);
    events.push({ t: 'SUBSCRIPTION_UPDATE', d: subscriptionJson(ended) });
    return { result: ended, events };
  }

  /**
   * The platform-managed migration of a legacy subscription that still renews: its APPLICATION_SUBSCRIPTION
   * entitlement becomes PURCHASE with `ends_at` null (same id) → ENTITLEMENT_CREATE, although it is not a net new
   * entitlement. A legacy subscription already set to end is not migrated: it expires naturally.
   */
  migrate(app: ApplicationRecord, subscriptionId: string): EntitlementRecord[] {
    const subscription = this.subscription(app.id, subscriptionId);
    if (subscription.status !== SubscriptionStatus.ACTIVE)
      throw PremiumErrors.subscriptionState(
        'Only a renewing subscription is migrated; one set to end expires naturally.',
      );
    const legacy = subscription.entitlementIds
      .map((id) => this.store.getEntitlement(app.id, id))
      .filter((e): e is EntitlementRecord => e !== undefined && e.type === EntitlementType.APPLICATION_SUBSCRIPTION);
    if (legacy.length === 0)
      throw PremiumErrors.subscriptionState('This subscription has no legacy entitlement to migrate.');
    return this.commit(app, () => {
      const migrated = legacy.map((e) => ({ ...e, type: EntitlementType.PURCHASE, endsAt: null }));
      for (const e of migrated) this.store.upsertEntitlement(e);
      return { result: migrated, events: migrated.map((e) => this.entitlementCreated(app, e)) };
    });
  }

  // ---- helpers ----

  /** The SKU when it exists and belongs to the application. */
  private ownSku(appId: string, skuId: string): SkuRecord | undefined {
    return ownSku(this.ctx, appId, skuId);
  }

  private purchasableSku(appId: string, skuId: string, { requireAvailable }: { requireAvailable: boolean }): SkuRecord {
    const sku = this.ownSku(appId, skuId);
    if (!sku) throw PremiumErrors.skuField('Unknown SKU of this application.');
    if (sku.type === SkuType.SUBSCRIPTION_GROUP)
      throw PremiumErrors.skuField(
        'A subscription group is not bought or granted by itself: use its subscription SKU.',
      );
    if (requireAvailable && (sku.flags & SkuFlag.AVAILABLE) === 0)
      throw PremiumErrors.skuField('This SKU is not available for purchase.');
    return sku;
  }

  /** ENTITLEMENT_CREATE goes to the gateway and, queued in the same transaction, to the webhook URL. */
  private entitlementCreated(app: ApplicationRecord, entitlement: EntitlementRecord): PendingEvent {
    const d = entitlementJson(entitlement);
    enqueueWebhookEvent(this.ctx, app, 'ENTITLEMENT_CREATE', d);
    return { t: 'ENTITLEMENT_CREATE', d };
  }

  /**
   * Runs `change` in one transaction (store rows and webhook outbox entries), then sends its gateway events to the
   * application's bot and wakes the webhook deliverer.
   */
  private commit<T>(app: ApplicationRecord, change: () => { result: T; events: PendingEvent[] } | PendingEvent[]): T {
    const outcome = this.ctx.store.transaction(change);
    const { result, events } = Array.isArray(outcome) ? { result: undefined as T, events: outcome } : outcome;
    for (const event of events) this.ctx.bus.publish({ t: event.t, d: event.d, to: { userIds: [app.botUserId] } });
    this.ctx.wakeWebhooks();
    return result;
  }
}
