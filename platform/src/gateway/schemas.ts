/**
 * Shapes of client payloads (PROTOCOL.md §20.2, §20.7, §20.8). A payload that
 * is not JSON, too big or has no integer `op` is a decode error (4002); a known op whose `d` does not match its shape
 * is an invalid payload (4001). Objects are loose: libraries send extra fields (e.g. user clients' `client_state`),
 * which are ignored.
 */
import { z } from 'zod';
import { SNOWFLAKE_PATTERN } from '../ids/snowflake.js';

export const envelopeSchema = z.looseObject({
  op: z.int(),
  d: z.unknown().optional(),
});

export const heartbeatSchema = z.int().nonnegative().nullable();

const activitySchema = z.looseObject({
  name: z.string().min(1).max(128),
  // Playing when left out, as the published service defaults it.
  type: z.int().min(0).max(5).default(0),
  url: z.string().max(512).nullish(),
  state: z.string().max(128).nullish(),
  details: z.string().max(128).nullish(),
  timestamps: z
    .looseObject({ start: z.int().nonnegative().optional(), end: z.int().nonnegative().optional() })
    .optional(),
  application_id: z.string().regex(SNOWFLAKE_PATTERN).optional(),
  party: z
    .looseObject({
      id: z.string().max(128).optional(),
      size: z.tuple([z.int().nonnegative(), z.int().nonnegative()]).optional(),
    })
    .optional(),
  flags: z.int().nonnegative().optional(),
  buttons: z
    .array(
      z.union([
        z.string().min(1).max(32),
        z.strictObject({ label: z.string().min(1).max(32), url: z.string().min(1).max(512) }),
      ]),
    )
    .max(2)
    .optional(),
});
export type Activity = z.infer<typeof activitySchema>;

export const STATUSES = ['online', 'dnd', 'idle', 'invisible', 'offline'] as const;

/**
 * As lenient as the published gateway: libraries send `activities: null` for none and leave out `since` and `afk`
 * (and some `status`), so a missing or null field takes its neutral value instead of closing the connection.
 */
export const presenceSchema = z.looseObject({
  since: z
    .int()
    .nonnegative()
    .nullish()
    .transform((since) => since ?? null),
  activities: z
    .array(activitySchema)
    .max(16)
    .nullish()
    .transform((activities) => activities ?? []),
  status: z
    .enum(STATUSES)
    .nullish()
    .transform((status) => status ?? 'online'),
  afk: z
    .boolean()
    .nullish()
    .transform((afk) => afk ?? false),
});
export type Presence = z.infer<typeof presenceSchema>;

/**
 * Connection properties are informative only (nothing reads them): each is optional, and the older `$os`,
 * `$browser`, `$device` keys that some libraries still send are taken like the current ones.
 */
const propertiesSchema = z.looseObject({
  os: z.string().max(128).optional(),
  browser: z.string().max(128).optional(),
  device: z.string().max(128).optional(),
  $os: z.string().max(128).optional(),
  $browser: z.string().max(128).optional(),
  $device: z.string().max(128).optional(),
});

export const identifySchema = z.looseObject({
  token: z.string().min(1).max(2048),
  properties: propertiesSchema,
  compress: z.boolean().optional(),
  large_threshold: z.int().min(50).max(250).optional(),
  // Shape only; the values are checked separately because a bad shard closes with 4010, not 4001.
  shard: z.tuple([z.int(), z.int()]).optional(),
  presence: presenceSchema.optional(),
  // Type only; the value is checked separately (4013/4014). Required for bots, optional for user sessions.
  intents: z.number().optional(),
  // Observed in the SDK's user Identify; accepted and ignored.
  capabilities: z.int().nonnegative().optional(),
});
export type Identify = z.infer<typeof identifySchema>;

export const resumeSchema = z.looseObject({
  token: z.string().min(1).max(2048),
  session_id: z.string().min(1).max(128),
  seq: z.int(),
});
export type Resume = z.infer<typeof resumeSchema>;
