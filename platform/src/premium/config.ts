/**
 * SKUs in the platform config (`applications[].skus`, PROTOCOL.md "Premium apps"): each is created unless the
 * application already has a SKU with its slug (the slug is made from the name when not given), so applying the
 * same config on every start is idempotent. An existing SKU is kept as it is.
 */
import { ApiError, invalidFormBody } from '../http/errors.js';
import type { ApplicationRecord } from '../store/types.js';
import type { WakesWebhooks } from '../webhooks/waking.js';
import type { CreateSkuBody } from './schemas.js';
import { PremiumService, slugOf } from './service.js';

export function applyConfiguredSkus(ctx: WakesWebhooks, app: ApplicationRecord, skus: readonly CreateSkuBody[]): void {
  const premium = new PremiumService(ctx);
  skus.forEach((sku, index) => {
    if (ctx.store.premium.findSkuBySlug(app.id, sku.slug ?? slugOf(sku.name))) return;
    try {
      premium.createSku(app, {
        type: sku.type,
        name: sku.name,
        flags: sku.flags,
        priceCents: sku.price_cents,
        ...(sku.slug !== undefined && { slug: sku.slug }),
      });
    } catch (error) {
      // Field errors are reported at the SKU's place in the application's config (`skus.1.flags`).
      if (error instanceof ApiError && error.errors) throw invalidFormBody({ skus: { [String(index)]: error.errors } });
      throw error;
    }
  });
}
