/**
 * Entitlements (PROTOCOL.md "Premium apps"): test entitlements, the list with every published filter, get,
 * delete (test entitlements only), consume (consumables only), the user's own list, bad input and authorization.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, bot, request } from '../support/http.js';
import { createApp } from '../support/platform.js';
import { botCall, botSession } from '../bot/helpers.js';
import { SkuFlag, SkuType, startPremiumPlatform, type PremiumFixture } from './fixture.js';

describe('entitlements', () => {
  let f: PremiumFixture;
  let durable: string;
  let consumable: string;
  let subscription: string;
  let group: string;
  const path = () => `/applications/${f.appId}/entitlements`;
  const grant = async (skuId: string, ownerId: string, ownerType = 2) => {
    const response = await botCall(f, 'POST', path(), { sku_id: skuId, owner_id: ownerId, owner_type: ownerType });
    expect(response.status, response.text).toBe(200);
    return response.body;
  };

  beforeAll(async () => {
    f = await startPremiumPlatform();
    durable = (await f.createSku({ type: SkuType.DURABLE, name: 'Cape', flags: SkuFlag.AVAILABLE }))[0]!.id;
    consumable = (await f.createSku({ type: SkuType.CONSUMABLE, name: 'Gems', flags: SkuFlag.AVAILABLE }))[0]!.id;
    const sub = await f.createSku({ type: SkuType.SUBSCRIPTION, name: 'Plus', flags: SkuFlag.AVAILABLE });
    subscription = sub[0]!.id;
    group = sub[1]!.id;
  });
  afterAll(() => f.platform.close());

  it('creates a test entitlement: the partial object without starts_at, ends_at or subscription_id, and ENTITLEMENT_CREATE', async () => {
    const session = await botSession(f, 0);
    try {
      const created = await grant(durable, f.memberId);
      expect(created).toEqual({
        id: expect.any(String),
        sku_id: durable,
        application_id: f.appId,
        user_id: f.memberId,
        type: 4,
        deleted: false,
      });
      const event = await session.next('ENTITLEMENT_CREATE');
      expect(event).toMatchObject({
        id: created.id,
        sku_id: durable,
        user_id: f.memberId,
        starts_at: null,
        ends_at: null,
        deleted: false,
      });
      const fetched = await botCall(f, 'GET', `${path()}/${created.id}`);
      expect(fetched.body).toMatchObject({ id: created.id, starts_at: null, ends_at: null });
    } finally {
      await session.close();
    }
  });

  it('grants to a guild (owner_type 1): guild_id set, no user_id', async () => {
    const created = await grant(durable, f.guildId, 1);
    expect(created.guild_id).toBe(f.guildId);
    expect(created).not.toHaveProperty('user_id');
  });

  it('refuses an unknown or foreign SKU, a subscription group, an unknown owner and bad fields', async () => {
    const other = await createApp(f.platform, { name: 'Foreign SKU App' });
    const foreign = (await f.dev('POST', `/applications/${other.id}/skus`, { type: SkuType.DURABLE, name: 'Foreign' }))
      .body[0].id;
    for (const [body, field] of [
      [{ sku_id: '1', owner_id: f.memberId, owner_type: 2 }, 'sku_id'],
      [{ sku_id: foreign, owner_id: f.memberId, owner_type: 2 }, 'sku_id'],
      [{ sku_id: group, owner_id: f.memberId, owner_type: 2 }, 'sku_id'],
      [{ sku_id: durable, owner_id: '42', owner_type: 2 }, 'owner_id'],
      [{ sku_id: durable, owner_id: f.memberId, owner_type: 1 }, 'owner_id'],
      [{ sku_id: durable, owner_id: f.memberId, owner_type: 3 }, 'owner_type'],
      [{ sku_id: 'abc', owner_id: f.memberId, owner_type: 2 }, 'sku_id'],
      [{ owner_id: f.memberId, owner_type: 2 }, 'sku_id'],
    ] as const) {
      const response = await botCall(f, 'POST', path(), body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.code).toBe(50035);
      expect(Object.keys(response.body.errors), JSON.stringify(body)).toEqual([field]);
    }
  });

  it('lists with every filter: user_id, sku_ids, guild_id, before/after, limit', async () => {
    const user = (await f.dev('POST', '/users', { username: 'lister' })).body.id as string;
    const a = await grant(durable, user);
    const b = await grant(consumable, user);
    const c = await grant(subscription, user);
    const list = async (query: string) => {
      const response = await botCall(f, 'GET', `${path()}?${query}`);
      expect(response.status, response.text).toBe(200);
      return response.body.map((e: { id: string }) => e.id);
    };
    expect(await list(`user_id=${user}`)).toEqual([c.id, b.id, a.id]);
    expect(await list(`user_id=${user}&sku_ids=${durable},${consumable}`)).toEqual([b.id, a.id]);
    expect(await list(`user_id=${user}&after=${a.id}`)).toEqual([b.id, c.id]);
    expect(await list(`user_id=${user}&before=${c.id}`)).toEqual([b.id, a.id]);
    expect(await list(`user_id=${user}&limit=1`)).toEqual([c.id]);
    expect(await list(`user_id=${user}&after=${a.id}&before=${c.id}`)).toEqual([b.id]);
    expect(await list(`guild_id=${f.guildId}&user_id=${user}`)).toEqual([]);
    const guildOnly = await list(`guild_id=${f.guildId}`);
    expect(guildOnly.length).toBeGreaterThan(0);
  });

  it('hides deleted entitlements unless exclude_deleted=false; delete sends ENTITLEMENT_DELETE', async () => {
    const user = (await f.dev('POST', '/users', { username: 'deleter' })).body.id as string;
    const created = await grant(durable, user);
    const session = await botSession(f, 0);
    try {
      const deleted = await botCall(f, 'DELETE', `${path()}/${created.id}`);
      expect(deleted.status).toBe(204);
      expect(await session.next('ENTITLEMENT_DELETE')).toMatchObject({ id: created.id, deleted: true });
    } finally {
      await session.close();
    }
    expect((await botCall(f, 'GET', `${path()}?user_id=${user}`)).body).toEqual([]);
    const all = await botCall(f, 'GET', `${path()}?user_id=${user}&exclude_deleted=false`);
    expect(all.body).toEqual([expect.objectContaining({ id: created.id, deleted: true })]);
    const again = await botCall(f, 'DELETE', `${path()}/${created.id}`);
    expect(again.status).toBe(404);
    expect(again.body.code).toBe(10029);
  });

  it('exclude_ended leaves out entitlements of an ended subscription', async () => {
    const user = (await f.dev('POST', '/users', { username: 'ender' })).body.id as string;
    const bought = await f.purchase({ user_id: user, sku_id: subscription });
    const subPath = `/applications/${f.appId}/subscriptions/${bought.subscription.id}`;
    expect((await f.dev('POST', `${subPath}/cancel`)).status).toBe(200);
    expect((await f.dev('POST', `${subPath}/end-period`)).status).toBe(200);
    const all = await botCall(f, 'GET', `${path()}?user_id=${user}`);
    expect(all.body).toEqual([expect.objectContaining({ id: bought.entitlement.id, ends_at: expect.any(String) })]);
    expect((await botCall(f, 'GET', `${path()}?user_id=${user}&exclude_ended=true`)).body).toEqual([]);
  });

  it('only test entitlements can be deleted', async () => {
    const user = (await f.dev('POST', '/users', { username: 'buyer_keep' })).body.id as string;
    const bought = await f.purchase({ user_id: user, sku_id: durable });
    const response = await botCall(f, 'DELETE', `${path()}/${bought.entitlement.id}`);
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(/Only test entitlements/);
    expect((await botCall(f, 'GET', `${path()}/${bought.entitlement.id}`)).body.deleted).toBe(false);
  });

  it('consumes a consumable once; other SKU types refuse', async () => {
    const user = (await f.dev('POST', '/users', { username: 'consumer' })).body.id as string;
    const gems = await grant(consumable, user);
    expect(gems.consumed).toBe(false);
    const consume = (id: string) => botCall(f, 'POST', `${path()}/${id}/consume`);
    expect((await consume(gems.id)).status).toBe(204);
    expect((await botCall(f, 'GET', `${path()}/${gems.id}`)).body.consumed).toBe(true);
    const twice = await consume(gems.id);
    expect(twice.status).toBe(400);
    expect(twice.body.message).toMatch(/already been consumed/);
    const cape = await grant(durable, user);
    const notConsumable = await consume(cape.id);
    expect(notConsumable.status).toBe(400);
    expect(notConsumable.body.message).toMatch(/consumable/);
    expect((await consume('999')).body.code).toBe(10029);
  });

  it('refuses malformed list queries and unknown ids', async () => {
    for (const query of ['limit=0', 'limit=101', 'user_id=abc', 'sku_ids=1,x', 'exclude_ended=maybe', 'before=-1']) {
      const response = await botCall(f, 'GET', `${path()}?${query}`);
      expect(response.status, query).toBe(400);
      expect(response.body.code).toBe(50035);
    }
    for (const id of ['1', 'not-a-snowflake']) {
      const response = await botCall(f, 'GET', `${path()}/${id}`);
      expect(response.status).toBe(404);
      expect(response.body.code).toBe(10029);
    }
  });

  it('every entitlement route is for the application’s own bot only', async () => {
    const created = await grant(durable, f.ownerId);
    const other = await createApp(f.platform, { name: 'Other Entitlement App' });
    const userToken = await f.userToken('alice');
    const routes: Array<[string, string, unknown?]> = [
      ['GET', path()],
      ['GET', `${path()}/${created.id}`],
      ['POST', path(), { sku_id: durable, owner_id: f.ownerId, owner_type: 2 }],
      ['DELETE', `${path()}/${created.id}`],
      ['POST', `${path()}/${created.id}/consume`],
    ];
    for (const [method, route, json] of routes) {
      const url = `${f.platform.apiBase}${route}`;
      const body = json === undefined ? {} : { json };
      expect((await request(url, { method, ...body })).status, `${method} ${route}`).toBe(401);
      const foreign = await request(url, { method, headers: bot(other.bot_token), ...body });
      expect([foreign.status, foreign.body.code], `${method} ${route}`).toEqual([403, 50001]);
      const asUser = await request(url, { method, headers: bearer(userToken), ...body });
      expect([asUser.status, asUser.body.code], `${method} ${route}`).toEqual([403, 20002]);
    }
    expect((await botCall(f, 'GET', `${path()}/${created.id}`)).body.deleted).toBe(false);
  });

  it('a user lists their own live entitlements to the token’s application (exclude_consumed default true)', async () => {
    await f.dev('POST', '/users', { username: 'store_user' });
    const user = f.platform.store.users.findByUsername('store_user')!.id;
    const token = await f.userToken('store_user');
    const cape = await grant(durable, user);
    const gems = await grant(consumable, user);
    await botCall(f, 'POST', `${path()}/${gems.id}/consume`);
    const url = `${f.platform.apiBase}/users/@me/applications/${f.appId}/entitlements`;
    const mine = await request(url, { headers: bearer(token) });
    expect(mine.status, mine.text).toBe(200);
    expect(mine.body.map((e: { id: string }) => e.id)).toEqual([cape.id]);
    const withConsumed = await request(`${url}?exclude_consumed=false&sku_ids=${consumable}`, {
      headers: bearer(token),
    });
    expect(withConsumed.body.map((e: { id: string }) => e.id)).toEqual([gems.id]);
    const other = await createApp(f.platform, { name: 'Other Store App' });
    const foreign = await request(`${f.platform.apiBase}/users/@me/applications/${other.id}/entitlements`, {
      headers: bearer(token),
    });
    expect([foreign.status, foreign.body.code]).toEqual([403, 50001]);
    expect((await request(url, { headers: bot(f.botToken) })).body.code).toBe(20001);
    expect((await request(url)).status).toBe(401);
    expect((await request(`${url}?exclude_consumed=nope`, { headers: bearer(token) })).body.code).toBe(50035);
  });
});
