/**
 * What the portal's SKU and test-entitlement forms change, through the premium service (its rules and events:
 * a test entitlement made here sends ENTITLEMENT_CREATE like the API route). The service's API errors become form
 * problems at the portal's field names.
 */
import { ApiError } from '../http/errors.js';
import { OwnerType, SkuFlag } from '../premium/constants.js';
import { PremiumService } from '../premium/service.js';
import type { EntitlementRecord, SkuRecord } from '../store/premium-types.js';
import type { ApplicationRecord } from '../store/types.js';
import type { WakesWebhooks } from '../webhooks/waking.js';
import { FormProblem, type FieldErrors } from './forms.js';
import { isSnowflake } from '../ids/snowflake.js';

/** Runs a service call; an API error is shown at `fields[apiField]` (or at the form as a whole). */
function asFormProblem<T>(fields: Record<string, string>, call: () => T): T {
  try {
    return call();
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const errors: FieldErrors = {};
    for (const [apiField, node] of Object.entries(error.errors ?? {})) {
      if (apiField === '_errors' || node === undefined || Array.isArray(node)) continue;
      errors[fields[apiField] ?? 'form'] = node._errors?.[0]?.message ?? error.message;
    }
    throw new FormProblem(Object.keys(errors).length > 0 ? errors : { form: error.message });
  }
}

export function createSku(
  ctx: WakesWebhooks,
  app: ApplicationRecord,
  input: {
    name: string;
    type: number;
    slug: string;
    available: boolean;
    audience: 'user' | 'guild';
    priceCents: number;
  },
): SkuRecord[] {
  const audience =
    input.type === 5 ? (input.audience === 'guild' ? SkuFlag.GUILD_SUBSCRIPTION : SkuFlag.USER_SUBSCRIPTION) : 0;
  return asFormProblem({ slug: 'slug', flags: 'audience' }, () =>
    new PremiumService(ctx).createSku(app, {
      type: input.type as 2 | 3 | 5,
      name: input.name,
      ...(input.slug !== '' && { slug: input.slug }),
      flags: (input.available ? SkuFlag.AVAILABLE : 0) | audience,
      priceCents: input.priceCents,
    }),
  );
}

/** A user is named by id or username; a guild by id. */
export function grantTestEntitlement(
  ctx: WakesWebhooks,
  app: ApplicationRecord,
  input: { skuId: string; ownerType: 'user' | 'guild'; owner: string },
): EntitlementRecord {
  let ownerId = input.owner;
  if (input.ownerType === 'user' && !isSnowflake(ownerId)) {
    const user = ctx.store.users.findByUsername(ownerId.toLowerCase());
    if (!user) throw new FormProblem({ owner: 'No user with this id or username.' });
    ownerId = user.id;
  }
  if (!isSnowflake(ownerId)) throw new FormProblem({ owner: 'A guild is named by its id.' });
  return asFormProblem({ sku_id: 'sku_id', owner_id: 'owner' }, () =>
    new PremiumService(ctx).createTestEntitlement(app, {
      skuId: input.skuId,
      ownerId,
      ownerType: input.ownerType === 'user' ? OwnerType.USER : OwnerType.GUILD,
    }),
  );
}

export function deleteTestEntitlement(ctx: WakesWebhooks, app: ApplicationRecord, entitlementId: string): void {
  asFormProblem({}, () => new PremiumService(ctx).deleteTestEntitlement(app, entitlementId));
}

/** The application's live test entitlements (newest first, at most `limit`). */
export function testEntitlements(ctx: WakesWebhooks, appId: string, limit: number): EntitlementRecord[] {
  return new PremiumService(ctx)
    .listEntitlements({ applicationId: appId, limit: 100, includeDeleted: false, includeConsumed: true })
    .filter((entitlement) => entitlement.test)
    .slice(0, limit);
}
