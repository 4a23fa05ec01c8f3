import type { SqlDatabase } from '../sql-database.js';
import type {
  EntitlementRecord,
  PremiumRepository,
  SkuRecord,
  SkuType,
  SubscriptionRecord,
  SubscriptionStatus,
} from '../premium-types.js';
import { bool, int, json, numOrNull, str, strOrNull, type Row } from './rows.js';

/**
 * SKU id lists are JSON arrays of snowflake strings, so membership is a search for the quoted id (`instr`, which
 * both engines have) rather than SQLite's json_each. Snowflakes are TEXT: compare by length first so "9" sorts before
 * "10".
 */
const ID_AFTER = '(length(id) > length(@after) OR (length(id) = length(@after) AND id > @after))';
const ID_BEFORE = '(length(id) < length(@before) OR (length(id) = length(@before) AND id < @before))';

function skuFromRow(row: Row): SkuRecord {
  return {
    id: str(row.id),
    applicationId: str(row.application_id),
    type: Number(row.type) as SkuType,
    name: str(row.name),
    slug: str(row.slug),
    flags: Number(row.flags),
    priceCents: Number(row.price_cents),
    groupSkuId: strOrNull(row.group_sku_id),
    createdAt: Number(row.created_at),
  };
}

function entitlementFromRow(row: Row): EntitlementRecord {
  return {
    id: str(row.id),
    skuId: str(row.sku_id),
    applicationId: str(row.application_id),
    userId: strOrNull(row.user_id),
    guildId: strOrNull(row.guild_id),
    type: Number(row.type),
    deleted: bool(row.deleted),
    startsAt: numOrNull(row.starts_at),
    endsAt: numOrNull(row.ends_at),
    consumed: row.consumed === null ? null : bool(row.consumed),
    subscriptionId: strOrNull(row.subscription_id),
    test: bool(row.test),
    createdAt: Number(row.created_at),
  };
}

function subscriptionFromRow(row: Row): SubscriptionRecord {
  return {
    id: str(row.id),
    applicationId: str(row.application_id),
    userId: str(row.user_id),
    skuIds: json(row.sku_ids),
    entitlementIds: json(row.entitlement_ids),
    renewalSkuIds: row.renewal_sku_ids === null ? null : json(row.renewal_sku_ids),
    currentPeriodStart: Number(row.current_period_start),
    currentPeriodEnd: Number(row.current_period_end),
    status: Number(row.status) as SubscriptionStatus,
    canceledAt: numOrNull(row.canceled_at),
    createdAt: Number(row.created_at),
  };
}

export function sqlitePremium(db: SqlDatabase): PremiumRepository {
  const insertSku = db.prepare(
    `INSERT INTO skus (id, application_id, type, name, slug, flags, price_cents, group_sku_id, created_at)
     VALUES (@id, @applicationId, @type, @name, @slug, @flags, @priceCents, @groupSkuId, @createdAt)`,
  );
  const getSku = db.prepare('SELECT * FROM skus WHERE id = ?');
  const skuBySlug = db.prepare('SELECT * FROM skus WHERE application_id = ? AND slug = ?');
  const listSkus = db.prepare('SELECT * FROM skus WHERE application_id = ? ORDER BY length(id), id');
  const countSkus = db.prepare('SELECT COUNT(*) AS n FROM skus WHERE application_id = ?');

  const upsertEntitlement = db.prepare(
    `INSERT INTO entitlements (id, sku_id, application_id, user_id, guild_id, type, deleted, starts_at, ends_at,
     consumed, subscription_id, test, created_at)
     VALUES (@id, @skuId, @applicationId, @userId, @guildId, @type, @deleted, @startsAt, @endsAt, @consumed,
       @subscriptionId, @test, @createdAt)
     ON CONFLICT (id) DO UPDATE SET type = excluded.type, deleted = excluded.deleted, starts_at = excluded.starts_at,
       ends_at = excluded.ends_at,
       consumed = excluded.consumed, subscription_id = excluded.subscription_id`,
  );
  const getEntitlement = db.prepare('SELECT * FROM entitlements WHERE application_id = ? AND id = ?');
  const entitlementFilter = `application_id = @applicationId
       AND (CAST(@userId AS TEXT) IS NULL OR user_id = @userId)
       AND (CAST(@guildId AS TEXT) IS NULL OR guild_id = @guildId)
       AND (CAST(@skuIds AS TEXT) IS NULL OR instr(@skuIds, '"' || sku_id || '"') > 0)
       AND (CAST(@endedBy AS BIGINT) IS NULL OR ends_at IS NULL OR ends_at > @endedBy)
       AND (@includeDeleted = 1 OR deleted = 0)
       AND (@includeConsumed = 1 OR consumed IS NULL OR consumed = 0)`;
  const entitlementsAfter = db.prepare(
    `SELECT * FROM entitlements WHERE ${entitlementFilter} AND ${ID_AFTER}
     AND (CAST(@before AS TEXT) IS NULL OR ${ID_BEFORE})
     ORDER BY length(id), id LIMIT @limit`,
  );
  const entitlementsNewestFirst = db.prepare(
    `SELECT * FROM entitlements WHERE ${entitlementFilter} AND (CAST(@before AS TEXT) IS NULL OR ${ID_BEFORE})
     ORDER BY length(id) DESC, id DESC LIMIT @limit`,
  );
  const liveForUser = db.prepare(
    `SELECT * FROM entitlements WHERE application_id = ? AND user_id = ? AND deleted = 0
     AND (consumed IS NULL OR consumed = 0)
       AND (ends_at IS NULL OR ends_at > ?) ORDER BY length(id), id`,
  );
  const liveForGuild = db.prepare(
    `SELECT * FROM entitlements WHERE application_id = ? AND guild_id = ? AND deleted = 0
     AND (consumed IS NULL OR consumed = 0)
       AND (ends_at IS NULL OR ends_at > ?) ORDER BY length(id), id`,
  );

  const upsertSubscription = db.prepare(
    `INSERT INTO subscriptions (id, application_id, user_id, sku_ids, entitlement_ids, renewal_sku_ids,
     current_period_start,
       current_period_end, status, canceled_at, created_at)
     VALUES (@id, @applicationId, @userId, @skuIds, @entitlementIds, @renewalSkuIds, @currentPeriodStart,
       @currentPeriodEnd,
       @status, @canceledAt, @createdAt)
     ON CONFLICT (id) DO UPDATE SET sku_ids = excluded.sku_ids, entitlement_ids = excluded.entitlement_ids,
       renewal_sku_ids = excluded.renewal_sku_ids, current_period_start = excluded.current_period_start,
       current_period_end = excluded.current_period_end, status = excluded.status, canceled_at = excluded.canceled_at`,
  );
  const getSubscription = db.prepare('SELECT * FROM subscriptions WHERE id = ?');
  const subscriptionFilter = `instr(sku_ids, '"' || CAST(@skuId AS TEXT) || '"') > 0
    AND (CAST(@userId AS TEXT) IS NULL OR user_id = @userId)`;
  const subscriptionsAfter = db.prepare(
    `SELECT * FROM subscriptions WHERE ${subscriptionFilter} AND ${ID_AFTER}
     AND (CAST(@before AS TEXT) IS NULL OR ${ID_BEFORE})
     ORDER BY length(id), id LIMIT @limit`,
  );
  const subscriptionsNewestFirst = db.prepare(
    `SELECT * FROM subscriptions WHERE ${subscriptionFilter} AND (CAST(@before AS TEXT) IS NULL OR ${ID_BEFORE})
     ORDER BY length(id) DESC, id DESC LIMIT @limit`,
  );

  return {
    insertSku: (sku) => void insertSku.run(sku),
    getSku: (id) => {
      const row = getSku.get(id);
      return row ? skuFromRow(row as Row) : undefined;
    },
    findSkuBySlug: (applicationId, slug) => {
      const row = skuBySlug.get(applicationId, slug);
      return row ? skuFromRow(row as Row) : undefined;
    },
    listSkus: (applicationId) => (listSkus.all(applicationId) as Row[]).map(skuFromRow),
    countSkus: (applicationId) => Number((countSkus.get(applicationId) as { n: number }).n),

    upsertEntitlement: (e) =>
      void upsertEntitlement.run({
        ...e,
        deleted: int(e.deleted),
        consumed: e.consumed === null ? null : int(e.consumed),
        test: int(e.test),
      }),
    getEntitlement: (applicationId, id) => {
      const row = getEntitlement.get(applicationId, id);
      return row ? entitlementFromRow(row as Row) : undefined;
    },
    listEntitlements: (query) => {
      const params = {
        applicationId: query.applicationId,
        userId: query.userId ?? null,
        guildId: query.guildId ?? null,
        skuIds: query.skuIds ? JSON.stringify(query.skuIds) : null,
        endedBy: query.endedBy ?? null,
        includeDeleted: int(query.includeDeleted),
        includeConsumed: int(query.includeConsumed),
        before: query.before ?? null,
        after: query.after ?? null,
        limit: query.limit,
      };
      const statement = query.after !== undefined ? entitlementsAfter : entitlementsNewestFirst;
      return (statement.all(params) as Row[]).map(entitlementFromRow);
    },
    liveEntitlements: (applicationId, owner, now) => {
      if (owner.guildId !== undefined)
        return (liveForGuild.all(applicationId, owner.guildId, now) as Row[]).map(entitlementFromRow);
      if (owner.userId !== undefined)
        return (liveForUser.all(applicationId, owner.userId, now) as Row[]).map(entitlementFromRow);
      return [];
    },

    upsertSubscription: (s) =>
      void upsertSubscription.run({
        ...s,
        skuIds: JSON.stringify(s.skuIds),
        entitlementIds: JSON.stringify(s.entitlementIds),
        renewalSkuIds: s.renewalSkuIds === null ? null : JSON.stringify(s.renewalSkuIds),
      }),
    getSubscription: (id) => {
      const row = getSubscription.get(id);
      return row ? subscriptionFromRow(row as Row) : undefined;
    },
    listSubscriptions: (query) => {
      const params = {
        skuId: query.skuId,
        userId: query.userId ?? null,
        before: query.before ?? null,
        after: query.after ?? null,
        limit: query.limit,
      };
      const statement = query.after !== undefined ? subscriptionsAfter : subscriptionsNewestFirst;
      return (statement.all(params) as Row[]).map(subscriptionFromRow);
    },
  };
}
