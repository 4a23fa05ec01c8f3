/** SKUs (PROTOCOL.md "Premium apps"): created through the dev route, listed by `GET /applications/{id}/skus`. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, bot, isOurErrorBody, request } from '../support/http.js';
import { createApp } from '../support/platform.js';
import { botCall } from '../bot/helpers.js';
import { SkuFlag, SkuType, startPremiumPlatform, type PremiumFixture } from './fixture.js';

describe('SKUs', () => {
  let f: PremiumFixture;
  beforeAll(async () => {
    f = await startPremiumPlatform();
  });
  afterAll(() => f.platform.close());

  it('a one-time SKU is listed with the published shape, type and flags', async () => {
    const [sku] = await f.createSku({
      type: SkuType.DURABLE,
      name: 'Golden Sword',
      flags: SkuFlag.AVAILABLE,
      price_cents: 499,
    });
    expect(sku).toMatchObject({
      type: 2,
      name: 'Golden Sword',
      slug: 'golden-sword',
      flags: SkuFlag.AVAILABLE,
      application_id: f.appId,
      price_cents: 499,
    });
    const listed = await botCall(f, 'GET', `/applications/${f.appId}/skus`);
    expect(listed.status).toBe(200);
    expect(listed.body).toContainEqual({
      id: sku!.id,
      type: 2,
      application_id: f.appId,
      name: 'Golden Sword',
      slug: 'golden-sword',
      flags: SkuFlag.AVAILABLE,
    });
  });

  it('a subscription SKU comes with its subscription group, and defaults to a user subscription', async () => {
    const created = await f.createSku({ type: SkuType.SUBSCRIPTION, name: 'Season Pass', flags: SkuFlag.AVAILABLE });
    expect(created.map((sku) => [sku.type, sku.slug, sku.flags])).toEqual([
      [5, 'season-pass', SkuFlag.AVAILABLE | SkuFlag.USER_SUBSCRIPTION],
      [6, 'season-pass-group', SkuFlag.AVAILABLE | SkuFlag.USER_SUBSCRIPTION],
    ]);
    const listed = await botCall(f, 'GET', `/applications/${f.appId}/skus`);
    expect(listed.body.map((sku: { id: string }) => sku.id)).toEqual(
      expect.arrayContaining(created.map((sku) => sku.id)),
    );
  });

  it('refuses subscription flags on one-time SKUs, both audiences at once and unknown flags', async () => {
    const path = `/applications/${f.appId}/skus`;
    for (const body of [
      { type: SkuType.CONSUMABLE, name: 'Potion', flags: SkuFlag.USER_SUBSCRIPTION },
      { type: SkuType.SUBSCRIPTION, name: 'Both', flags: SkuFlag.USER_SUBSCRIPTION | SkuFlag.GUILD_SUBSCRIPTION },
      { type: SkuType.DURABLE, name: 'Odd', flags: 1 },
    ]) {
      const response = await f.dev('POST', path, body);
      expect(response.status, response.text).toBe(400);
      expect(response.body.code).toBe(50035);
      expect(response.body.errors.flags._errors[0].code).toBe('SKU_FLAGS_INVALID');
    }
    const listed = await botCall(f, 'GET', `/applications/${f.appId}/skus`);
    expect(listed.body.map((sku: { name: string }) => sku.name)).not.toContain('Potion');
  });

  it('refuses a slug already taken in the application, a group type and malformed fields', async () => {
    await f.createSku({ type: SkuType.DURABLE, name: 'Shield', slug: 'shield' });
    const taken = await f.dev('POST', `/applications/${f.appId}/skus`, {
      type: SkuType.DURABLE,
      name: 'Other Shield',
      slug: 'shield',
    });
    expect(taken.status).toBe(400);
    expect(taken.body.errors.slug._errors[0].code).toBe('SKU_SLUG_ALREADY_TAKEN');
    const bad = await f.dev('POST', `/applications/${f.appId}/skus`, {
      type: SkuType.SUBSCRIPTION_GROUP,
      name: '',
      slug: 'Not A Slug',
      price_cents: -1,
    });
    expect(bad.status).toBe(400);
    expect(isOurErrorBody(bad)).toBe(true);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['name', 'price_cents', 'slug', 'type']);
  });

  it('refuses an unknown application', async () => {
    const response = await f.dev('POST', '/applications/123/skus', { type: SkuType.DURABLE, name: 'Nowhere' });
    expect(response.status).toBe(404);
    expect(response.body.code).toBe(10002);
  });

  it('stops at 50 SKUs per application', async () => {
    const app = await createApp(f.platform, { name: 'Many SKUs' });
    for (let i = 0; i < 50; i++) {
      const response = await f.dev('POST', `/applications/${app.id}/skus`, {
        type: SkuType.DURABLE,
        name: `Item ${i}`,
      });
      expect(response.status, response.text).toBe(201);
    }
    const over = await f.dev('POST', `/applications/${app.id}/skus`, { type: SkuType.DURABLE, name: 'One too many' });
    expect(over.status).toBe(400);
    expect(over.body.message).toMatch(/Maximum number of SKUs/);
  });

  it('lists only for the application’s own bot', async () => {
    const path = `${f.platform.apiBase}/applications/${f.appId}/skus`;
    expect((await request(path)).status).toBe(401);
    const other = await createApp(f.platform, { name: 'Other Bot App' });
    const foreign = await request(path, { headers: bot(other.bot_token) });
    expect(foreign.status).toBe(403);
    expect(foreign.body.code).toBe(50001);
    const user = await f.userToken('alice');
    const asUser = await request(path, { headers: bearer(user) });
    expect(asUser.status).toBe(403);
    expect(asUser.body.code).toBe(20002);
  });

  it('SKUs in the application config are created once: applying the same config again changes nothing', async () => {
    const config = {
      name: 'Configured Shop',
      skus: [
        { type: SkuType.DURABLE, name: 'Starter Kit', flags: SkuFlag.AVAILABLE },
        { type: SkuType.SUBSCRIPTION, name: 'Club', slug: 'club' },
      ],
    };
    const first = await f.dev('POST', '/applications', config);
    expect(first.status, first.text).toBe(201);
    expect((await f.dev('POST', '/applications', config)).status).toBe(200);
    const skus = f.platform.store.premium.listSkus(first.body.id);
    expect(skus.map((sku) => [sku.slug, sku.type])).toEqual([
      ['starter-kit', 2],
      ['club', 5],
      ['club-group', 6],
    ]);
  });

  it('a bad SKU in the config is refused at its place and creates nothing', async () => {
    const response = await f.dev('POST', '/applications', {
      name: 'Bad Shop',
      skus: [
        { type: SkuType.DURABLE, name: 'Fine' },
        { type: SkuType.CONSUMABLE, name: 'Odd', flags: SkuFlag.GUILD_SUBSCRIPTION },
      ],
    });
    expect(response.status).toBe(400);
    expect(response.body.errors.skus['1'].flags._errors[0].code).toBe('SKU_FLAGS_INVALID');
    expect(f.platform.store.applications.findByName('Bad Shop')).toBeUndefined();
    const wrongType = await f.dev('POST', '/applications', { name: 'Bad Shop', skus: [{ type: 6, name: 'Group' }] });
    expect(wrongType.body.errors.skus['0'].type._errors[0].code).toBe('BASE_TYPE_CHOICES');
  });
});
