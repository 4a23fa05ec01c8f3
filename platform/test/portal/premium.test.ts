/**
 * The developer portal's SKU page, test entitlements and privileged-intent toggles over real HTTP (PROTOCOL.md §15
 * and "Premium apps"): what each form changes, its bad input shown at the field with nothing changed, and the
 * 10,000-user rule of the intent toggles.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningPlatform } from '../../src/index.js';
import { GatewayClient } from '../support/gateway-client.js';
import { bot, request } from '../support/http.js';
import { startTestPlatform } from '../support/platform.js';
import { fieldError, PortalClient } from './client.js';

let platform: RunningPlatform;
let counter = 0;

beforeAll(async () => {
  platform = await startTestPlatform({
    config: {
      users: [{ username: 'tester' }],
      guilds: [{ name: 'Portal Guild', owner: 'tester', members: ['tester'] }],
    },
  });
});
afterAll(() => platform.close());

/** A signed-in client and a new application made through the portal; `page` is its monetization page. */
async function withApplication() {
  const client = new PortalClient(platform);
  await client.signInAsDeveloper();
  const name = `Premium Portal ${++counter}`;
  expect(
    (await client.submit('/developers/applications', '/developers/applications', { name, parent_id: '' })).status,
  ).toBe(303);
  const app = platform.store.applications.findByName(name)!;
  const base = `/developers/applications/${app.id}`;
  return { client, app, money: `${base}/monetization`, bot: `${base}/bot` };
}

/** The SKU form as a browser posts it; `available: undefined` is an unchecked box (the browser sends nothing). */
function skuForm(fields: Record<string, string | undefined> = {}): Record<string, string> {
  const all: Record<string, string | undefined> = {
    name: 'Gold Pack',
    type: '3',
    slug: '',
    audience: 'user',
    price_cents: '250',
    available: 'on',
    ...fields,
  };
  return Object.fromEntries(Object.entries(all).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

describe('portal SKUs', () => {
  it('creates SKUs and lists them; the bot reads them from GET /applications/{id}/skus', async () => {
    const { client, app, money } = await withApplication();
    const created = await client.submit(money, `${money}/skus`, skuForm());
    expect([created.status, created.headers.location]).toEqual([303, money]);
    const plan = await client.submit(
      money,
      `${money}/skus`,
      skuForm({ name: 'Guild Plan', type: '5', audience: 'guild', available: undefined }),
    );
    expect(plan.status).toBe(303);
    const page = (await client.get(money)).text;
    expect(page).toContain('SKU Guild Plan created with its subscription group.');
    expect(page).toMatch(
      /<td>Gold Pack<\/td><td><code>\d+<\/code><\/td><td>Consumable<\/td><td><code>gold-pack<\/code><\/td><td>available<\/td><td>2\.50<\/td>/,
    );
    expect(page).toMatch(
      /<td>Guild Plan<\/td><td><code>\d+<\/code><\/td><td>Subscription<\/td><td><code>guild-plan<\/code><\/td><td>not available, guild subscription<\/td>/,
    );
    expect(page).toContain('<td>Subscription group</td>');
    const listed = await request(`${platform.apiBase}/applications/${app.id}/skus`, { headers: bot(app.botToken) });
    expect(
      listed.body.map((sku: { slug: string; type: number; flags: number }) => [sku.slug, sku.type, sku.flags]),
    ).toEqual([
      ['gold-pack', 3, 4],
      ['guild-plan', 5, 128],
      ['guild-plan-group', 6, 128],
    ]);
  });

  it('shows bad input at its field and creates nothing', async () => {
    const { client, app, money } = await withApplication();
    await client.submit(money, `${money}/skus`, skuForm({ slug: 'taken' }));
    for (const [fields, id, message] of [
      [{ name: '' }, 'sku-name', 'Must be 1 or more in length.'],
      [{ type: '6' }, 'sku-type', undefined],
      [{ slug: 'Bad Slug' }, 'sku-slug', 'Slugs use a–z, 0–9 and single hyphens.'],
      [{ price_cents: '-5' }, 'sku-price-cents', 'A whole number of cents.'],
      [{ slug: 'taken' }, 'sku-slug', 'A SKU with this slug already exists in this application.'],
    ] as const) {
      const response = await client.submit(money, `${money}/skus`, skuForm(fields));
      expect([JSON.stringify(fields), response.status]).toEqual([JSON.stringify(fields), 400]);
      expect(response.text).toContain('Nothing was changed.');
      const shown = fieldError(response.text, id);
      expect(shown, JSON.stringify(fields)).toBeDefined();
      if (message) expect(shown).toBe(message);
    }
    expect(platform.store.premium.listSkus(app.id).map((sku) => sku.slug)).toEqual(['taken']);
  });
});

describe('portal test entitlements', () => {
  it('grants a test entitlement to a user by name and deletes it; the bot sees ENTITLEMENT_CREATE and ENTITLEMENT_DELETE', async () => {
    const { client, app, money } = await withApplication();
    await client.submit(money, `${money}/skus`, skuForm({ name: 'Cape', type: '2' }));
    const sku = platform.store.premium.listSkus(app.id)[0]!;
    const tester = platform.store.users.findByUsername('tester')!;
    const gateway = new GatewayClient({
      url: platform.gatewayUrl,
      token: app.botToken,
      intents: 0,
      autoReconnect: false,
    });
    const seen: Array<{ t: string; d: any }> = [];
    gateway.on('dispatch', (t: string, d: unknown) => seen.push({ t, d }));
    await gateway.connect();
    try {
      const granted = await client.submit(money, `${money}/test-entitlements`, {
        sku_id: sku.id,
        owner_type: 'user',
        owner: 'tester',
      });
      expect(granted.status).toBe(303);
      const page = (await client.get(money)).text;
      const entitlement = platform.store.premium.listEntitlements({
        applicationId: app.id,
        limit: 10,
        includeDeleted: false,
        includeConsumed: true,
      })[0]!;
      expect(entitlement).toMatchObject({ skuId: sku.id, userId: tester.id, test: true });
      expect(page).toContain(`<td><code>${entitlement.id}</code></td><td>Cape</td><td>tester (${tester.id})</td>`);
      expect(page).toContain(`aria-label="Delete test entitlement ${entitlement.id} (Cape for tester (${tester.id}))"`);

      const deleted = await client.submit(money, `${money}/test-entitlements/delete`, {
        entitlement_id: entitlement.id,
      });
      expect(deleted.status).toBe(303);
      expect((await client.get(money)).text).toContain('No test entitlements.');
      await expect
        .poll(() => seen.filter((event) => event.t.startsWith('ENTITLEMENT_')).map((event) => [event.t, event.d.id]))
        .toEqual([
          ['ENTITLEMENT_CREATE', entitlement.id],
          ['ENTITLEMENT_DELETE', entitlement.id],
        ]);
    } finally {
      await gateway.close();
    }
  });

  it('grants to a guild by id', async () => {
    const { client, app, money } = await withApplication();
    await client.submit(money, `${money}/skus`, skuForm({ name: 'Server Boost Pack', type: '2' }));
    const guild = platform.store.guilds.findByName('Portal Guild')!;
    const sku = platform.store.premium.listSkus(app.id)[0]!;
    expect(
      (
        await client.submit(money, `${money}/test-entitlements`, {
          sku_id: sku.id,
          owner_type: 'guild',
          owner: guild.id,
        })
      ).status,
    ).toBe(303);
    expect((await client.get(money)).text).toContain(`<td>guild ${guild.id}</td>`);
  });

  it('shows an unknown owner, a guild named by name, another application’s SKU and an unknown entitlement at the form, changing nothing', async () => {
    const { client, app, money } = await withApplication();
    const other = await withApplication();
    await client.submit(money, `${money}/skus`, skuForm({ name: 'Mine', type: '2' }));
    await other.client.submit(other.money, `${other.money}/skus`, skuForm({ name: 'Theirs', type: '2' }));
    const mine = platform.store.premium.listSkus(app.id)[0]!.id;
    const theirs = platform.store.premium.listSkus(other.app.id)[0]!.id;
    for (const [fields, id, message] of [
      [{ sku_id: mine, owner_type: 'user', owner: 'nobody_here' }, 'grant-owner', 'No user with this id or username.'],
      [{ sku_id: mine, owner_type: 'user', owner: '123' }, 'grant-owner', 'Unknown user.'],
      [{ sku_id: mine, owner_type: 'guild', owner: 'Portal Guild' }, 'grant-owner', 'A guild is named by its id.'],
      [{ sku_id: theirs, owner_type: 'user', owner: 'tester' }, 'grant-sku-id', 'Unknown SKU of this application.'],
      [{ sku_id: 'x', owner_type: 'user', owner: 'tester' }, 'grant-sku-id', 'Choose a SKU.'],
      [{ sku_id: mine, owner_type: 'team', owner: 'tester' }, 'grant-owner-type', undefined],
    ] as const) {
      const response = await client.submit(money, `${money}/test-entitlements`, fields);
      expect([JSON.stringify(fields), response.status]).toEqual([JSON.stringify(fields), 400]);
      const shown = fieldError(response.text, id);
      expect(shown, JSON.stringify(fields)).toBeDefined();
      if (message) expect(shown).toBe(message);
    }
    const unknown = await client.submit(money, `${money}/test-entitlements/delete`, { entitlement_id: '1' });
    expect(unknown.status).toBe(400);
    expect(unknown.text).toContain('Unknown Entitlement');
    expect(
      platform.store.premium.listEntitlements({
        applicationId: app.id,
        limit: 10,
        includeDeleted: true,
        includeConsumed: true,
      }),
    ).toEqual([]);
  });
});

describe('portal privileged intents', () => {
  it('switches intents on (the _LIMITED flags) and off for an application below 10,000 users; the bot may then identify with them', async () => {
    const { client, app, bot: page } = await withApplication();
    const saved = await client.submit(page, `${page}/intents`, { guild_members: 'on', message_content: 'on' });
    expect(saved.status).toBe(303);
    expect(platform.store.applications.get(app.id)!.flags & ((1 << 15) | (1 << 19) | (1 << 13))).toBe(
      (1 << 15) | (1 << 19),
    );
    const shown = (await client.get(page)).text;
    expect(shown).toContain('<input type="checkbox" id="intents-guild-members" name="guild_members" checked>');
    expect(shown).toContain('<input type="checkbox" id="intents-presence" name="presence">');
    const gateway = new GatewayClient({
      url: platform.gatewayUrl,
      token: app.botToken,
      intents: (1 << 1) | (1 << 15),
      autoReconnect: false,
    });
    await gateway.connect();
    await gateway.close();

    expect((await client.submit(page, `${page}/intents`, { message_content: 'on' })).status).toBe(303);
    expect(platform.store.applications.get(app.id)!.flags & ((1 << 15) | (1 << 19))).toBe(1 << 19);
  });

  it('from 10,000 users refuses switching an intent on, shown at the toggle, and still allows switching off', async () => {
    const { client, app, bot: page } = await withApplication();
    await client.submit(page, `${page}/intents`, { presence: 'on' });
    platform.store.transaction(() => {
      for (let i = 0; i < 10_000; i++)
        platform.store.grants.upsert({
          applicationId: app.id,
          userId: String(9_000_000 + i),
          scopes: ['identify'],
          createdAt: 0,
        });
    });
    const refused = await client.submit(page, `${page}/intents`, { presence: 'on', message_content: 'on' });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('Nothing was changed.');
    expect(fieldError(refused.text, 'intents-message-content')).toBe(
      'This application has 10,000 users: ' +
        'from 10,000 users an application must apply for this privileged intent instead of switching it on.',
    );
    expect(fieldError(refused.text, 'intents-presence')).toBeUndefined();
    expect(platform.store.applications.get(app.id)!.flags & ((1 << 13) | (1 << 19))).toBe(1 << 13);
    expect((await client.submit(page, `${page}/intents`, {})).status).toBe(303);
    expect(platform.store.applications.get(app.id)!.flags & (1 << 13)).toBe(0);
  });

  it('refuses a toggle value other than a checked box', async () => {
    const { client, app, bot: page } = await withApplication();
    const response = await client.submit(page, `${page}/intents`, { presence: 'yes' });
    expect(response.status).toBe(400);
    expect(fieldError(response.text, 'intents-presence')).toBeDefined();
    expect(platform.store.applications.get(app.id)!.flags).toBe(0);
  });
});
