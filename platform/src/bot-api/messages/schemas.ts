/**
 * Message bodies (PROTOCOL.md §14.4): content, embeds (published limits, 25 fields at most), attachments metadata,
 * components (legacy: at most 5 action rows; Components V2 under IS_COMPONENTS_V2: 40 components in all, nested
 * ones counted), flags, nonce / enforce_nonce, message_reference (reply or FORWARD).
 */
import { z } from 'zod';
import { snowflakeSchema } from '../../http/validation.js';

export const MessageFlags = {
  SUPPRESS_EMBEDS: 1 << 2,
  HAS_SNAPSHOT: 1 << 14,
  IS_COMPONENTS_V2: 1 << 15,
  SUPPRESS_NOTIFICATIONS: 1 << 12,
  IS_VOICE_MESSAGE: 1 << 13,
} as const;

/** Flags a client may set on create. */
export const SETTABLE_FLAGS =
  MessageFlags.SUPPRESS_EMBEDS |
  MessageFlags.SUPPRESS_NOTIFICATIONS |
  MessageFlags.IS_VOICE_MESSAGE |
  MessageFlags.IS_COMPONENTS_V2;

export const MAX_CONTENT = 2000;
export const MAX_V2_COMPONENTS = 40;
export const MAX_ACTION_ROWS = 5;
export const MAX_EMBED_TOTAL = 6000;
/** Per attachment, webhooks and interaction responses included (published default). */
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;
export const MAX_ATTACHMENTS = 10;

const embedField = z.object({
  name: z.string().min(1).max(256),
  value: z.string().min(1).max(1024),
  inline: z.boolean().optional(),
});
export const embedSchema = z.object({
  title: z.string().max(256).optional(),
  type: z.string().max(32).optional(),
  description: z.string().max(4096).optional(),
  url: z.string().max(2048).optional(),
  timestamp: z.string().max(64).optional(),
  color: z.number().int().min(0).max(0xffffff).optional(),
  footer: z.object({ text: z.string().max(2048), icon_url: z.string().max(2048).optional() }).optional(),
  image: z.object({ url: z.string().max(2048) }).optional(),
  thumbnail: z.object({ url: z.string().max(2048) }).optional(),
  author: z
    .object({
      name: z.string().max(256),
      url: z.string().max(2048).optional(),
      icon_url: z.string().max(2048).optional(),
    })
    .optional(),
  // Published since 2025: more than 25 fields is an error, no longer silently dropped.
  fields: z.array(embedField).max(25).optional(),
});

/** Components are kept as sent (loose objects); their structure is checked by `checkComponents`. */
const componentSchema = z.looseObject({ type: z.number().int().min(1).max(40) });

export const attachmentMetaSchema = z.object({
  id: z.union([z.string().max(32), z.number().int().min(0)]),
  filename: z.string().min(1).max(1024).optional(),
  // discord.js sends the unset ones as null.
  description: z
    .string()
    .max(1024)
    .nullish()
    .transform((v) => v ?? undefined),
  title: z
    .string()
    .max(1024)
    .nullish()
    .transform((v) => v ?? undefined),
  is_spoiler: z
    .boolean()
    .nullish()
    .transform((v) => v ?? undefined),
  duration_secs: z.number().nullish(),
  waveform: z.string().max(400).nullish(),
});

export const messageReferenceSchema = z.object({
  type: z.literal([0, 1]).default(0),
  message_id: snowflakeSchema,
  channel_id: snowflakeSchema.optional(),
  guild_id: snowflakeSchema.optional(),
  fail_if_not_exists: z.boolean().default(true),
});

export const createMessageSchema = z.object({
  content: z.string().max(MAX_CONTENT).optional(),
  nonce: z.union([z.number().int(), z.string().max(25)]).optional(),
  enforce_nonce: z.boolean().optional(),
  tts: z.boolean().optional(),
  embeds: z.array(embedSchema).max(10).optional(),
  allowed_mentions: z.looseObject({}).optional(),
  message_reference: messageReferenceSchema.optional(),
  components: z.array(componentSchema).max(MAX_V2_COMPONENTS).optional(),
  sticker_ids: z.array(snowflakeSchema).max(3).optional(),
  attachments: z.array(attachmentMetaSchema).max(MAX_ATTACHMENTS).optional(),
  flags: z.number().int().min(0).optional(),
  poll: z.looseObject({}).optional(),
  shared_client_theme: z.looseObject({}).optional(),
});
export type CreateMessageBody = z.output<typeof createMessageSchema>;

export const editMessageSchema = z.object({
  content: z.string().max(MAX_CONTENT).nullable().optional(),
  embeds: z.array(embedSchema).max(10).nullable().optional(),
  flags: z.number().int().min(0).nullable().optional(),
  allowed_mentions: z.looseObject({}).nullable().optional(),
  components: z.array(componentSchema).max(MAX_V2_COMPONENTS).nullable().optional(),
  attachments: z.array(attachmentMetaSchema).max(MAX_ATTACHMENTS).nullable().optional(),
});
export type EditMessageBody = z.output<typeof editMessageSchema>;

export const bulkDeleteSchema = z.object({ messages: z.array(snowflakeSchema).min(2).max(100) });

export const listMessagesQuery = z.object({
  around: snowflakeSchema.optional(),
  before: snowflakeSchema.optional(),
  after: snowflakeSchema.optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});

export const listReactionsQuery = z.object({
  type: z.coerce
    .number()
    .pipe(z.literal([0, 1]))
    .default(0),
  after: snowflakeSchema.optional(),
  limit: z.coerce.number().int().min(1).max(100).default(25),
});

export const listPinsQuery = z.object({
  before: z.iso.datetime({ offset: true }).optional(),
  limit: z.coerce.number().int().min(1).max(50).default(50),
});

/** Top-level component types allowed without IS_COMPONENTS_V2 (action rows only, published). */
const LEGACY_TOP_LEVEL = new Set([1]);
/** Components V2 layout and content types. */
const V2_ONLY = new Set([9, 10, 11, 12, 13, 14, 17]);

export interface ComponentProblem {
  path: Array<string | number>;
  code: string;
  message: string;
}

function countComponents(components: unknown[]): number {
  let total = 0;
  for (const component of components) {
    total++;
    if (component && typeof component === 'object') {
      const node = component as Record<string, unknown>;
      if (Array.isArray(node.components)) total += countComponents(node.components);
      if (node.accessory && typeof node.accessory === 'object') total += 1;
    }
  }
  return total;
}

/** The component rules of both systems; returns the first problem, or null. */
export function checkComponents(components: Array<Record<string, unknown>>, v2: boolean): ComponentProblem | null {
  if (v2) {
    const total = countComponents(components);
    if (total > MAX_V2_COMPONENTS) {
      return {
        path: ['components'],
        code: 'BASE_TYPE_MAX_LENGTH',
        message: `Must be ${MAX_V2_COMPONENTS} or fewer in length (nested components count).`,
      };
    }
    return null;
  }
  if (components.length > MAX_ACTION_ROWS) {
    return {
      path: ['components'],
      code: 'BASE_TYPE_MAX_LENGTH',
      message: `Must be ${MAX_ACTION_ROWS} or fewer in length.`,
    };
  }
  for (const [index, component] of components.entries()) {
    const type = Number(component.type);
    if (!LEGACY_TOP_LEVEL.has(type)) {
      const why = V2_ONLY.has(type) ? 'needs the IS_COMPONENTS_V2 flag' : 'is not allowed at the top level';
      return {
        path: ['components', index, 'type'],
        code: 'COMPONENT_TYPE_INVALID',
        message: `Component type ${type} ${why}.`,
      };
    }
    const children = Array.isArray(component.components) ? component.components : [];
    if (children.length < 1 || children.length > 5) {
      return {
        path: ['components', index, 'components'],
        code: 'BASE_TYPE_BAD_LENGTH',
        message: 'Must be between 1 and 5 in length.',
      };
    }
  }
  return null;
}

/** The total text of embeds (title, description, field names and values, footer, author) is capped at 6,000. */
export function embedsTotal(embeds: z.output<typeof embedSchema>[]): number {
  let total = 0;
  for (const embed of embeds) {
    total +=
      (embed.title?.length ?? 0) +
      (embed.description?.length ?? 0) +
      (embed.footer?.text.length ?? 0) +
      (embed.author?.name.length ?? 0);
    for (const field of embed.fields ?? []) total += field.name.length + field.value.length;
  }
  return total;
}
