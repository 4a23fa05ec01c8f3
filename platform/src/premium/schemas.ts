/** zod schemas of the premium routes (PROTOCOL.md "Premium apps"). */
import { z } from 'zod';
import { queryBoolean, snowflakeSchema } from '../http/validation.js';
import { OwnerType, SkuType } from './constants.js';
import { isSnowflake } from '../ids/snowflake.js';

/** `sku_ids` in a query: comma-separated snowflakes, at most 100. */
export const skuIdsQuery = z
  .string()
  .transform((value) => value.split(',').filter((part) => part !== ''))
  .refine((ids) => ids.every((id) => isSnowflake(id)), {
    message: 'Value is not a list of snowflakes.',
    params: { code: 'NUMBER_TYPE_COERCE' },
  })
  .refine((ids) => ids.length >= 1 && ids.length <= 100, {
    message: 'Must list 1 to 100 SKU ids.',
    params: { code: 'BASE_TYPE_BAD_LENGTH' },
  });

export const listEntitlementsQuery = z.object({
  user_id: snowflakeSchema.optional(),
  sku_ids: skuIdsQuery.optional(),
  guild_id: snowflakeSchema.optional(),
  before: snowflakeSchema.optional(),
  after: snowflakeSchema.optional(),
  limit: z.coerce.number().int().min(1).max(100).default(100),
  exclude_ended: queryBoolean.default(false),
  exclude_deleted: queryBoolean.default(true),
});

export const userEntitlementsQuery = z.object({
  sku_ids: skuIdsQuery.optional(),
  exclude_consumed: queryBoolean.default(true),
});

export const createTestEntitlementBody = z.object({
  sku_id: snowflakeSchema,
  owner_id: snowflakeSchema,
  owner_type: z.literal([OwnerType.GUILD, OwnerType.USER]),
});

export const listSubscriptionsQuery = z.object({
  before: snowflakeSchema.optional(),
  after: snowflakeSchema.optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
  user_id: snowflakeSchema.optional(),
});

/** Developer-side SKU creation (dev route and portal). */
export const createSkuBody = z.object({
  type: z.literal([SkuType.DURABLE, SkuType.CONSUMABLE, SkuType.SUBSCRIPTION]),
  name: z.string().trim().min(1).max(100),
  slug: z
    .string()
    .min(1)
    .max(90)
    .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, { message: 'Slugs use a–z, 0–9 and single hyphens.' })
    .optional(),
  flags: z.number().int().min(0).max(0xffff).default(0),
  /** List price in cents (ours: what the dev purchase route reports as charged). */
  price_cents: z.number().int().min(0).max(100_000_000).default(0),
});

export const purchaseBody = z.object({
  user_id: snowflakeSchema,
  sku_id: snowflakeSchema,
  guild_id: snowflakeSchema.optional(),
  test_mode: z.boolean().default(false),
  /** A subscription from before the platform-managed migration (entitlement type APPLICATION_SUBSCRIPTION). */
  legacy: z.boolean().default(false),
});

export const questEnrollmentBody = z.object({
  user_id: snowflakeSchema,
  quest_id: snowflakeSchema,
});

export type CreateSkuBody = z.output<typeof createSkuBody>;
