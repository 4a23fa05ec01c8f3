/** A bot platform for the premium tests (PROTOCOL.md "Premium apps"): SKU and purchase helpers over the dev routes. */
import { expect } from 'vitest';
import { request, type TestResponse } from '../support/http.js';
import { accessTokenFor } from '../support/platform.js';
import { startBotPlatform, type BotFixture, type BotPlatformOptions } from '../bot/fixture.js';

export const SkuType = { DURABLE: 2, CONSUMABLE: 3, SUBSCRIPTION: 5, SUBSCRIPTION_GROUP: 6 } as const;
export const SkuFlag = { AVAILABLE: 1 << 2, GUILD_SUBSCRIPTION: 1 << 7, USER_SUBSCRIPTION: 1 << 8 } as const;

export interface PremiumFixture extends BotFixture {
  /** A development route call (JSON). */
  dev(method: string, path: string, json?: unknown): Promise<TestResponse>;
  /** Creates a SKU of the bot's application; returns the created SKUs (a subscription returns two). */
  createSku(body: Record<string, unknown>): Promise<Array<Record<string, any>>>;
  /** A user buys a SKU; returns `{entitlement, subscription, charge}`. */
  purchase(body: Record<string, unknown>): Promise<Record<string, any>>;
  /** A user access token for the bot's application. */
  userToken(username: string, scope?: string): Promise<string>;
}

export async function startPremiumPlatform(options: BotPlatformOptions = {}): Promise<PremiumFixture> {
  // A public client with the test redirect URI, so users can sign in to the bot's application (user routes).
  const fixture = await startBotPlatform({
    ...options,
    application: { redirect_uris: ['http://127.0.0.1:5555/callback'], public_client: true, ...options.application },
  });
  const dev = (method: string, path: string, json?: unknown) =>
    request(`${fixture.platform.apiBase}/dev${path}`, {
      method,
      ...(json !== undefined ? { json } : { headers: { 'x-svcpp-dev-token': fixture.platform.devToken } }),
    });
  return {
    ...fixture,
    dev,
    async createSku(body) {
      const response = await dev('POST', `/applications/${fixture.appId}/skus`, body);
      expect(response.status, response.text).toBe(201);
      return response.body;
    },
    userToken: async (username, scope = 'identify') =>
      (await accessTokenFor(fixture.platform, { clientId: fixture.appId, user: username, scope })).access_token,
    async purchase(body) {
      const response = await dev('POST', `/applications/${fixture.appId}/purchases`, body);
      expect(response.status, response.text).toBe(201);
      return response.body;
    },
  };
}
