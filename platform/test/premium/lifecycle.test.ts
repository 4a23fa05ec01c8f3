/**
 * Purchases and the subscription lifecycle (PROTOCOL.md "Premium apps"): the specification's state table driven
 * by the dev routes, the events each step sends over the gateway and to the webhook URL, subscriptions read
 * through the published routes, and the team member's 100 % discount.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, bot, request } from '../support/http.js';
import { createApp } from '../support/platform.js';
import { signatureIsValid, startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { botCall, botSession } from '../bot/helpers.js';
import { SkuFlag, SkuType, startPremiumPlatform, type PremiumFixture } from './fixture.js';

describe('purchases and subscriptions', () => {
  let f: PremiumFixture;
  let receiver: WebhookReceiver;
  let durable: string;
  let consumable: string;
  let plus: string;
  let plusGroup: string;
  let guildPlan: string;
  let hidden: string;
  const newUser = async (username: string) => (await f.dev('POST', '/users', { username })).body.id as string;
  const subPath = (id: string) => `/applications/${f.appId}/subscriptions/${id}`;
  /** Types of the webhook events received so far for this entitlement or subscription id. */
  const webhookTypesFor = (id: string) =>
    receiver.received
      .filter((w) => w.body.event?.data?.id === id || w.body.event?.data?.user_id === id)
      .map((w) => w.body.event.type as string);

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    f = await startPremiumPlatform({ application: { owner: 'alice', webhook_url: receiver.url } });
    durable = (
      await f.createSku({ type: SkuType.DURABLE, name: 'Cape', flags: SkuFlag.AVAILABLE, price_cents: 300 })
    )[0]!.id;
    consumable = (
      await f.createSku({ type: SkuType.CONSUMABLE, name: 'Gems', flags: SkuFlag.AVAILABLE, price_cents: 99 })
    )[0]!.id;
    const sub = await f.createSku({
      type: SkuType.SUBSCRIPTION,
      name: 'Plus',
      flags: SkuFlag.AVAILABLE,
      price_cents: 499,
    });
    [plus, plusGroup] = [sub[0]!.id, sub[1]!.id];
    guildPlan = (
      await f.createSku({
        type: SkuType.SUBSCRIPTION,
        name: 'Guild Plan',
        flags: SkuFlag.AVAILABLE | SkuFlag.GUILD_SUBSCRIPTION,
      })
    )[0]!.id;
    hidden = (await f.createSku({ type: SkuType.DURABLE, name: 'Unreleased', flags: 0 }))[0]!.id;
  });
  afterAll(async () => {
    await f.platform.close();
    await receiver.close();
  });

  it('a one-time purchase is an indefinite PURCHASE entitlement: ENTITLEMENT_CREATE over the gateway and a signed webhook', async () => {
    const user = await newUser('cape_buyer');
    const session = await botSession(f, 0);
    try {
      const bought = await f.purchase({ user_id: user, sku_id: durable });
      expect(bought.entitlement).toMatchObject({
        sku_id: durable,
        user_id: user,
        type: 1,
        deleted: false,
        ends_at: null,
        starts_at: expect.any(String),
      });
      expect(bought.subscription).toBeNull();
      expect(bought.charge).toEqual({ list_price_cents: 300, discount_percent: 0, amount_cents: 300 });
      expect(await session.next('ENTITLEMENT_CREATE')).toEqual(bought.entitlement);
      const webhook = await receiver.waitForEvent(
        'ENTITLEMENT_CREATE',
        (w) => w.body.event.data.id === bought.entitlement.id,
      );
      expect(signatureIsValid(f.platform.store.applications.get(f.appId)!.publicKeyHex, webhook)).toBe(true);
      expect(webhook.body.event.data).toEqual(bought.entitlement);
    } finally {
      await session.close();
    }
  });

  it('a durable SKU is bought once; an unavailable SKU or a subscription group cannot be bought', async () => {
    const user = await newUser('once_buyer');
    await f.purchase({ user_id: user, sku_id: durable });
    for (const [body, code] of [
      [{ user_id: user, sku_id: durable }, 'ENTITLEMENT_ALREADY_OWNED'],
      [{ user_id: user, sku_id: hidden }, 'SKU_INVALID'],
      [{ user_id: user, sku_id: plusGroup }, 'SKU_INVALID'],
      [{ user_id: '5', sku_id: consumable }, 'USER_INVALID'],
    ] as const) {
      const response = await f.dev('POST', `/applications/${f.appId}/purchases`, body);
      expect(response.status, response.text).toBe(400);
      expect(
        Object.values(response.body.errors as Record<string, { _errors: Array<{ code: string }> }>)[0]!._errors[0]!
          .code,
      ).toBe(code);
    }
  });

  it('a consumable is bought again only once the previous purchase is consumed; test mode is exempt', async () => {
    const user = await newUser('gem_buyer');
    const first = await f.purchase({ user_id: user, sku_id: consumable });
    expect(first.entitlement.consumed).toBe(false);
    const again = await f.dev('POST', `/applications/${f.appId}/purchases`, { user_id: user, sku_id: consumable });
    expect(again.body.errors.sku_id._errors[0].code).toBe('ENTITLEMENT_UNCONSUMED');
    const testMode = await f.purchase({ user_id: user, sku_id: consumable, test_mode: true });
    expect(testMode.entitlement.type).toBe(4);
    expect(
      (await botCall(f, 'POST', `/applications/${f.appId}/entitlements/${first.entitlement.id}/consume`)).status,
    ).toBe(204);
    await botCall(f, 'POST', `/applications/${f.appId}/entitlements/${testMode.entitlement.id}/consume`);
    expect((await f.purchase({ user_id: user, sku_id: consumable })).entitlement.consumed).toBe(false);
  });

  it('a team member (the application’s owner) gets a 100 % discount', async () => {
    const bought = await f.purchase({ user_id: f.ownerId, sku_id: plus });
    expect(bought.charge).toEqual({ list_price_cents: 499, discount_percent: 100, amount_cents: 0 });
    expect(bought.entitlement.type).toBe(1);
  });

  it('the subscription lifecycle follows the state table: create, renew without entitlement event, cancel, end', async () => {
    const user = await newUser('subscriber');
    const session = await botSession(f, 0);
    try {
      // Purchase → SUBSCRIPTION_CREATE (ACTIVE) and ENTITLEMENT_CREATE (PURCHASE, ends_at null).
      const bought = await f.purchase({ user_id: user, sku_id: plus });
      const sub = bought.subscription;
      expect(sub).toMatchObject({
        user_id: user,
        sku_ids: [plus, plusGroup],
        entitlement_ids: [bought.entitlement.id],
        renewal_sku_ids: [plus],
        status: 0,
        canceled_at: null,
      });
      expect(bought.entitlement).toMatchObject({ type: 1, ends_at: null, subscription_id: sub.id });
      expect(await session.next('SUBSCRIPTION_CREATE')).toEqual(sub);
      expect(await session.next('ENTITLEMENT_CREATE')).toEqual(bought.entitlement);

      // The period passes while active → renewal: SUBSCRIPTION_UPDATE with a new period, no entitlement event.
      const renewed = (await f.dev('POST', `${subPath(sub.id)}/end-period`)).body;
      expect(renewed.status).toBe(0);
      expect(Date.parse(renewed.current_period_end)).toBeGreaterThan(Date.parse(sub.current_period_start));
      expect(await session.next('SUBSCRIPTION_UPDATE')).toEqual(renewed);

      // Cancel → ENDING with canceled_at, nothing to renew.
      const canceled = (await f.dev('POST', `${subPath(sub.id)}/cancel`)).body;
      expect(canceled).toMatchObject({ status: 2, canceled_at: expect.any(String), renewal_sku_ids: null });
      expect(await session.next('SUBSCRIPTION_UPDATE')).toEqual(canceled);
      expect((await f.dev('POST', `${subPath(sub.id)}/cancel`)).status).toBe(400);

      // The period passes while ending → ENTITLEMENT_UPDATE with ends_at, then INACTIVE.
      const ended = (await f.dev('POST', `${subPath(sub.id)}/end-period`)).body;
      expect(ended.status).toBe(1);
      const update = await session.next('ENTITLEMENT_UPDATE');
      expect(update).toMatchObject({ id: bought.entitlement.id, ends_at: ended.current_period_end });
      expect(await session.next('SUBSCRIPTION_UPDATE')).toEqual(ended);
      expect((await f.dev('POST', `${subPath(sub.id)}/end-period`)).status).toBe(400);

      // Nothing else reached the bot: in particular no entitlement event at renewal.
      expect(session.seen.filter((e) => e.t.startsWith('ENTITLEMENT_') || e.t.startsWith('SUBSCRIPTION_'))).toEqual([]);
      // The webhook only carries ENTITLEMENT_CREATE (gateway/webhook split).
      await receiver.waitForEvent('ENTITLEMENT_CREATE', (w) => w.body.event.data.id === bought.entitlement.id);
      expect(webhookTypesFor(bought.entitlement.id)).toEqual(['ENTITLEMENT_CREATE']);
      expect(webhookTypesFor(sub.id)).toEqual([]);
    } finally {
      await session.close();
    }
  });

  it('a legacy subscription (APPLICATION_SUBSCRIPTION) migrates: same entitlement, PURCHASE, ends_at null, ENTITLEMENT_CREATE again', async () => {
    const user = await newUser('legacy_renewing');
    const session = await botSession(f, 0);
    try {
      const bought = await f.purchase({ user_id: user, sku_id: plus, legacy: true });
      expect(bought.entitlement).toMatchObject({
        type: 8,
        ends_at: bought.subscription.current_period_end,
        subscription_id: bought.subscription.id,
      });
      await session.next('SUBSCRIPTION_CREATE');
      await session.next('ENTITLEMENT_CREATE');
      const migrated = await f.dev('POST', `${subPath(bought.subscription.id)}/migrate`);
      expect(migrated.status, migrated.text).toBe(200);
      expect(migrated.body).toEqual([{ ...bought.entitlement, type: 1, ends_at: null }]);
      expect(await session.next('ENTITLEMENT_CREATE')).toEqual(migrated.body[0]);
      await receiver.waitForEvent(
        'ENTITLEMENT_CREATE',
        (w) => w.body.event.data.id === bought.entitlement.id && w.body.event.data.type === 1,
      );
      expect((await f.dev('POST', `${subPath(bought.subscription.id)}/migrate`)).status).toBe(400);
    } finally {
      await session.close();
    }
  });

  it('a legacy subscription set to end before the migration expires naturally, with no entitlement event', async () => {
    const user = await newUser('legacy_ending');
    const bought = await f.purchase({ user_id: user, sku_id: plus, legacy: true });
    await f.dev('POST', `${subPath(bought.subscription.id)}/cancel`);
    expect((await f.dev('POST', `${subPath(bought.subscription.id)}/migrate`)).status).toBe(400);
    const session = await botSession(f, 0);
    try {
      const ended = (await f.dev('POST', `${subPath(bought.subscription.id)}/end-period`)).body;
      expect(ended.status).toBe(1);
      expect(await session.next('SUBSCRIPTION_UPDATE')).toEqual(ended);
      expect(session.seen.filter((e) => e.t.startsWith('ENTITLEMENT_'))).toEqual([]);
    } finally {
      await session.close();
    }
    const listed = await botCall(f, 'GET', `/applications/${f.appId}/entitlements?user_id=${user}&exclude_ended=true`);
    expect(listed.body).toEqual([]);
    const legacyOneTime = await f.dev('POST', `/applications/${f.appId}/purchases`, {
      user_id: user,
      sku_id: durable,
      legacy: true,
    });
    expect(legacyOneTime.body.errors.legacy._errors[0].code).toBe('LEGACY_INVALID');
  });

  it('a refund ends an active subscription at once: ENTITLEMENT_UPDATE with ends_at, then SUBSCRIPTION_UPDATE (INACTIVE)', async () => {
    const user = await newUser('refunded');
    const bought = await f.purchase({ user_id: user, sku_id: plus });
    const session = await botSession(f, 0);
    try {
      const refunded = await f.dev('POST', `${subPath(bought.subscription.id)}/refund`);
      expect(refunded.status, refunded.text).toBe(200);
      expect(refunded.body).toMatchObject({ status: 1, canceled_at: expect.any(String), renewal_sku_ids: null });
      expect(await session.next('ENTITLEMENT_UPDATE')).toMatchObject({
        id: bought.entitlement.id,
        ends_at: refunded.body.current_period_end,
      });
      expect(await session.next('SUBSCRIPTION_UPDATE')).toEqual(refunded.body);
    } finally {
      await session.close();
    }
    expect((await f.dev('POST', `${subPath(bought.subscription.id)}/refund`)).status).toBe(400);
    // Ended: the user may subscribe again.
    expect((await f.purchase({ user_id: user, sku_id: plus })).subscription.status).toBe(0);
  });

  it('a guild subscription is bought for a guild', async () => {
    const user = await newUser('guild_buyer');
    const missing = await f.dev('POST', `/applications/${f.appId}/purchases`, { user_id: user, sku_id: guildPlan });
    expect(missing.body.errors.guild_id._errors[0].code).toBe('GUILD_INVALID');
    const misplaced = await f.dev('POST', `/applications/${f.appId}/purchases`, {
      user_id: user,
      sku_id: durable,
      guild_id: f.guildId,
    });
    expect(misplaced.body.errors.guild_id._errors[0].code).toBe('GUILD_INVALID');
    const bought = await f.purchase({ user_id: user, sku_id: guildPlan, guild_id: f.guildId });
    expect(bought.entitlement).toMatchObject({ guild_id: f.guildId, user_id: user });
  });

  it('lists and gets subscriptions per SKU: bots name the user, users see their own', async () => {
    await f.dev('POST', '/users', { username: 'sub_reader' });
    const user = f.platform.store.users.findByUsername('sub_reader')!.id;
    const sub = (await f.purchase({ user_id: user, sku_id: plus })).subscription;
    const base = `/skus/${plus}/subscriptions`;
    const listed = await botCall(f, 'GET', `${base}?user_id=${user}`);
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body).toEqual([sub]);
    expect((await botCall(f, 'GET', `/skus/${plusGroup}/subscriptions?user_id=${user}`)).body).toEqual([sub]);
    expect((await botCall(f, 'GET', `${base}/${sub.id}`)).body).toEqual(sub);
    const noUser = await botCall(f, 'GET', base);
    expect(noUser.body.errors.user_id._errors[0].code).toBe('BASE_TYPE_REQUIRED');
    const token = await f.userToken('sub_reader');
    expect((await request(`${f.platform.apiBase}${base}`, { headers: bearer(token) })).body).toEqual([sub]);
    const otherToken = await f.userToken('bob');
    expect((await request(`${f.platform.apiBase}${base}`, { headers: bearer(otherToken) })).body).toEqual([]);
    expect((await request(`${f.platform.apiBase}${base}/${sub.id}`, { headers: bearer(otherToken) })).status).toBe(404);
    for (const query of ['limit=0', 'limit=101', 'user_id=x', 'after=y']) {
      expect((await botCall(f, 'GET', `${base}?user_id=${user}&${query}`)).body.code, query).toBe(50035);
    }
    expect((await botCall(f, 'GET', `/skus/1/subscriptions?user_id=${user}`)).status).toBe(404);
    expect((await botCall(f, 'GET', `${base}/1`)).status).toBe(404);
    expect((await botCall(f, 'GET', `/skus/${durable}/subscriptions/${sub.id}`)).status).toBe(404);
    const other = await createApp(f.platform, { name: 'Other Sub App' });
    expect(
      (await request(`${f.platform.apiBase}${base}?user_id=${user}`, { headers: bot(other.bot_token) })).status,
    ).toBe(404);
    expect((await request(`${f.platform.apiBase}${base}?user_id=${user}`)).status).toBe(401);
  });

  it('QUEST_USER_ENROLLMENT goes to the webhook only; dev routes refuse unknown ids', async () => {
    const session = await botSession(f, 0);
    try {
      const user = await newUser('quester');
      const response = await f.dev('POST', `/applications/${f.appId}/quest-enrollments`, {
        user_id: user,
        quest_id: '1234',
      });
      expect(response.status, response.text).toBe(204);
      const webhook = await receiver.waitForEvent('QUEST_USER_ENROLLMENT', (w) => w.body.event.data.user_id === user);
      expect(webhook.body.event.data).toMatchObject({ user_id: user, quest_id: '1234' });
      // A dispatch that did reach the bot afterwards proves nothing of the kind was published before it.
      await f.purchase({ user_id: user, sku_id: durable });
      await session.next('ENTITLEMENT_CREATE');
      expect(session.seen.map((e) => e.t)).not.toContain('QUEST_USER_ENROLLMENT');
    } finally {
      await session.close();
    }
    expect(
      (await f.dev('POST', `/applications/${f.appId}/quest-enrollments`, { user_id: '7', quest_id: '1' })).status,
    ).toBe(400);
    expect((await f.dev('POST', `/applications/1/purchases`, { user_id: f.ownerId, sku_id: durable })).body.code).toBe(
      10002,
    );
    expect((await f.dev('POST', `${subPath('1')}/cancel`)).status).toBe(404);
    expect(
      (await f.dev('POST', `/applications/${f.appId}/purchases`, { user_id: 'x', sku_id: durable, test_mode: 'yes' }))
        .body.code,
    ).toBe(50035);
  });

  it('APPLICATION_AUTHORIZED and APPLICATION_DEAUTHORIZED are webhook events, never gateway dispatches', async () => {
    const session = await botSession(f, 0);
    try {
      await newUser('authorizer');
      const token = await f.userToken('authorizer');
      await receiver.waitForEvent('APPLICATION_AUTHORIZED', (w) => w.body.event.data.user?.username === 'authorizer');
      const revoked = await request(`${f.platform.apiBase}/oauth2/token/revoke`, {
        form: { token, client_id: f.appId },
      });
      expect(revoked.status, revoked.text).toBe(200);
      await receiver.waitForEvent('APPLICATION_DEAUTHORIZED', (w) => w.body.event.data.user?.username === 'authorizer');
      const user = f.platform.store.users.findByUsername('authorizer')!.id;
      await f.purchase({ user_id: user, sku_id: durable });
      await session.next('ENTITLEMENT_CREATE');
      expect(session.seen.map((e) => e.t).filter((t) => t.startsWith('APPLICATION_'))).toEqual([]);
    } finally {
      await session.close();
    }
  });

  it('every subscription dev route refuses an unknown application, an unknown or foreign subscription, and changes nothing', async () => {
    const user = await newUser('dev_route_checker');
    const sub = (await f.purchase({ user_id: user, sku_id: plus })).subscription;
    const other = await createApp(f.platform, { name: 'Other Dev Route App' });
    for (const action of ['cancel', 'end-period', 'migrate', 'refund']) {
      const unknownApp = await f.dev('POST', `/applications/1/subscriptions/${sub.id}/${action}`);
      expect([action, unknownApp.status, unknownApp.body.code]).toEqual([action, 404, 10002]);
      for (const id of ['1', 'abc']) {
        const unknown = await f.dev('POST', `${subPath(id)}/${action}`);
        expect([action, unknown.status, unknown.body.message]).toEqual([action, 404, 'Unknown Subscription']);
      }
      const foreign = await f.dev('POST', `/applications/${other.id}/subscriptions/${sub.id}/${action}`);
      expect([action, foreign.status]).toEqual([action, 404]);
    }
    expect((await botCall(f, 'GET', `/skus/${plus}/subscriptions/${sub.id}`)).body).toEqual(sub);
    for (const body of [
      {},
      { user_id: user },
      { user_id: user, sku_id: plus, guild_id: 'g' },
      { user_id: user, sku_id: plus, legacy: 'yes' },
    ]) {
      const response = await f.dev('POST', `/applications/${f.appId}/purchases`, body);
      expect([JSON.stringify(body), response.status, response.body.code]).toEqual([JSON.stringify(body), 400, 50035]);
    }
  });
});
