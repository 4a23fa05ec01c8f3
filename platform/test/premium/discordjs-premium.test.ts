/**
 * Acceptance (PROTOCOL.md "Premium apps"): the premium flow seen by an unmodified discord.js 14 bot over the
 * gateway and by a webhook receiver that verifies the Ed25519 signature. Only options are set (`rest.api`).
 */
import { Client, Events, GatewayIntentBits, type Entitlement, type Subscription } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signatureIsValid, startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { SkuFlag, SkuType, startPremiumPlatform, type PremiumFixture } from './fixture.js';

/** Resolves with the next emission of `event` whose last argument (the new state of an update) passes `match`. */
function nextEvent<T>(client: Client, event: string, match: (value: T) => boolean = () => true): Promise<T> {
  return new Promise((resolve) => {
    const listener = (...args: unknown[]) => {
      const value = args[args.length - 1] as T;
      if (!match(value)) return;
      client.off(event, listener);
      resolve(value);
    };
    client.on(event, listener);
  });
}

describe('premium apps with discord.js 14, unmodified', () => {
  let f: PremiumFixture;
  let receiver: WebhookReceiver;
  let client: Client;
  let gems: string;
  let plus: string;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    f = await startPremiumPlatform({ application: { webhook_url: receiver.url } });
    gems = (await f.createSku({ type: SkuType.CONSUMABLE, name: 'Gems', flags: SkuFlag.AVAILABLE }))[0]!.id;
    plus = (await f.createSku({ type: SkuType.SUBSCRIPTION, name: 'Plus', flags: SkuFlag.AVAILABLE }))[0]!.id;
    client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: `${f.platform.httpUrl}/api` } });
    const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
    await client.login(f.botToken);
    await ready;
  }, 60_000);

  afterAll(async () => {
    await client?.destroy();
    await f?.platform.close();
    await receiver?.close();
  });

  it('fetches the application’s SKUs', async () => {
    const skus = await client.application!.fetchSKUs();
    expect(skus.get(gems)?.name).toBe('Gems');
    expect(skus.get(plus)?.type).toBe(5);
  });

  it('test entitlement → consume → delete: gateway events for the bot, a signed ENTITLEMENT_CREATE webhook', async () => {
    const created = nextEvent<Entitlement>(client, Events.EntitlementCreate);
    const entitlement = await client.application!.entitlements.createTest({ sku: gems, user: f.memberId });
    expect(entitlement.skuId).toBe(gems);
    expect((await created).id).toBe(entitlement.id);

    const webhook = await receiver.waitForEvent('ENTITLEMENT_CREATE', (w) => w.body.event.data.id === entitlement.id);
    expect(signatureIsValid(f.platform.store.applications.get(f.appId)!.publicKeyHex, webhook)).toBe(true);
    expect(webhook.body.event.data).toMatchObject({ sku_id: gems, user_id: f.memberId, consumed: false });

    await client.application!.entitlements.consume(entitlement.id);
    const fetched = await client.application!.entitlements.fetch({ user: f.memberId, skus: [gems] });
    expect(fetched.get(entitlement.id)?.consumed).toBe(true);

    const deleted = nextEvent<Entitlement>(client, Events.EntitlementDelete);
    await client.application!.entitlements.deleteTest(entitlement.id);
    expect((await deleted).id).toBe(entitlement.id);
    expect((await client.application!.entitlements.fetch({ user: f.memberId })).has(entitlement.id)).toBe(false);
  });

  it('a subscription bought, canceled and ended reaches discord.js as subscription and entitlement events', async () => {
    const subscribed = nextEvent<Subscription>(client, Events.SubscriptionCreate);
    const entitled = nextEvent<Entitlement>(client, Events.EntitlementCreate, (e) => e.skuId === plus);
    const bought = await f.purchase({ user_id: f.ownerId, sku_id: plus });
    expect((await subscribed).id).toBe(bought.subscription.id);
    expect((await entitled).endsTimestamp).toBeNull();

    const fetched = await client.application!.subscriptions.fetch({ sku: plus, user: f.ownerId });
    expect(fetched.get(bought.subscription.id)?.currentPeriodEndTimestamp).toBe(
      Date.parse(bought.subscription.current_period_end),
    );

    const canceled = nextEvent<Subscription>(client, Events.SubscriptionUpdate);
    await f.dev('POST', `/applications/${f.appId}/subscriptions/${bought.subscription.id}/cancel`);
    expect((await canceled).canceledTimestamp).not.toBeNull();
    const ended = nextEvent<Entitlement>(client, Events.EntitlementUpdate);
    const end = await f.dev('POST', `/applications/${f.appId}/subscriptions/${bought.subscription.id}/end-period`);
    expect(end.body.status).toBe(1);
    expect((await ended).endsTimestamp).toBe(Date.parse(end.body.current_period_end));
    const after = await client.application!.entitlements.fetch({ user: f.ownerId, skus: [plus] });
    expect(after.first()?.endsTimestamp).toBe(Date.parse(end.body.current_period_end));
  });
});
