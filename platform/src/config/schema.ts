import { z } from 'zod';
import { integrationTypesConfigSchema } from '../bot-api/applications/modify-schema.js';
import { snowflakeSchema } from '../http/validation.js';
import { MAX_SKUS_PER_APPLICATION } from '../premium/constants.js';
import { createSkuBody } from '../premium/schemas.js';
import { urlMappingsSchema } from '../activities/url-mappings.js';

/**
 * The platform configuration (config file, `config` option, and the bodies of the dev routes that create the
 * same things at run time). Wire-style snake_case so one schema serves the file and the HTTP API.
 * References to other entities accept an id or a name (username / application name / guild name).
 */

/** External auth types whose tokens are OIDC ID tokens and can therefore be verified by issuer discovery. */
export const ID_TOKEN_AUTH_TYPES = [
  'OIDC',
  'EPIC_ONLINE_SERVICES_ID_TOKEN',
  'UNITY_SERVICES_ID_TOKEN',
  'APPLE_ID_TOKEN',
  'PLAYSTATION_NETWORK_ID_TOKEN',
] as const;

export const identityProviderSchema = z.object({
  type: z.enum(ID_TOKEN_AUTH_TYPES),
  issuer: z.string().min(1).max(512),
  client_id: z.string().min(1).max(512),
});

export const applicationConfigSchema = z.object({
  id: snowflakeSchema.optional(),
  name: z.string().min(2).max(64),
  client_secret: z.string().min(16).max(1024).optional(),
  bot_token: z.string().min(24).max(256).optional(),
  redirect_uris: z.array(z.string().min(1).max(2048)).max(20).default([]),
  public_client: z.boolean().default(false),
  webhook_url: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .nullable()
    .default(null),
  /** Parent application (id or name) for publisher-level linking. */
  parent: z.string().min(1).max(64).nullable().default(null),
  identify_premium_approved: z.boolean().default(false),
  provisional_accounts_enabled: z.boolean().default(true),
  social_sdk_terms_accepted: z.boolean().default(true),
  identity_providers: z.array(identityProviderSchema).max(10).default([]),
  /** Owner user (id or username); client_credentials tokens act as the owner. */
  owner: z.string().min(1).max(32).nullable().default(null),
  /** Image (asset key or URL) of game invites whose activity has no `invite_cover_image`. */
  cover_image: z.string().min(1).max(300).nullable().default(null),
  /** Application flags as published (e.g. GATEWAY_GUILD_MEMBERS 1<<14); OR-ed with the toggles below. */
  flags: z
    .number()
    .int()
    .min(0)
    .max(2 ** 31 - 1)
    .default(0),
  /**
   * The portal's privileged-intent toggles. An application below 10,000 users gets the `_LIMITED` flag of each
   * (GATEWAY_PRESENCE_LIMITED 1<<13, GATEWAY_GUILD_MEMBERS_LIMITED 1<<15, GATEWAY_MESSAGE_CONTENT_LIMITED 1<<19),
   * which allows the intent like the full flag (PROTOCOL.md §14.1).
   */
  privileged_intents: z
    .object({
      presence: z.boolean().default(false),
      guild_members: z.boolean().default(false),
      message_content: z.boolean().default(false),
    })
    .default({ presence: false, guild_members: false, message_content: false }),
  /**
   * Default install params per installation context, as `PATCH /applications/@me` takes them (PROTOCOL.md §14.1).
   * Absent: what the application has (set by PATCH) is kept.
   */
  integration_types_config: integrationTypesConfigSchema.optional(),
  /** SKUs of the application (PROTOCOL.md "Premium apps"): created when no SKU has their slug yet. */
  skus: z.array(createSkuBody).max(MAX_SKUS_PER_APPLICATION).default([]),
  /** The activity proxy's URL mappings in order (PROTOCOL.md §18.2); when given they replace the stored ones. */
  url_mappings: urlMappingsSchema.optional(),
});

export const connectionConfigSchema = z.object({
  type: z.string().min(1).max(32),
  id: z.string().min(1).max(128),
  name: z.string().min(1).max(128),
  verified: z.boolean().default(true),
  visibility: z.union([z.literal(0), z.literal(1)]).default(1),
  /** Application (id or name) of the game publisher that created the connection; such connections are hidden. */
  publisher_application: z.string().min(1).max(64).nullable().default(null),
});

export const userConfigSchema = z.object({
  id: snowflakeSchema.optional(),
  username: z
    .string()
    .regex(/^[a-z0-9_.]{2,32}$/, { message: 'Username must be 2–32 characters of a–z, 0–9, _ and .' }),
  global_name: z.string().min(1).max(32).nullable().default(null),
  email: z.email().max(320).nullable().default(null),
  verified: z.boolean().default(true),
  premium_type: z.number().int().min(0).max(3).default(0),
  locale: z.string().min(2).max(16).default('en-US'),
  avatar: z.string().max(64).nullable().default(null),
  banner: z.string().max(64).nullable().default(null),
  /** Optional consent-page password; users without one log in by username alone. */
  password: z.string().min(1).max(128).optional(),
  /** Guild (id or name) whose tag the user shows as primary_guild. */
  primary_guild: z.string().min(1).max(100).nullable().default(null),
  connections: z.array(connectionConfigSchema).max(50).default([]),
});

export const channelConfigSchema = z.object({
  id: snowflakeSchema.optional(),
  name: z.string().min(1).max(100),
  /** 0 text, 2 voice, 4 category. */
  type: z.union([z.literal(0), z.literal(2), z.literal(4)]).default(0),
  position: z.number().int().min(0).max(1000).optional(),
  /** Category channel name within the same guild. */
  parent: z.string().min(1).max(100).nullable().default(null),
});

export const roleConfigSchema = z.object({
  id: snowflakeSchema.optional(),
  name: z.string().min(1).max(100),
  /** Permission bits as a decimal string. */
  permissions: z
    .string()
    .regex(/^\d{1,16}$/)
    .default('0'),
  color: z.number().int().min(0).max(0xffffff).default(0),
  hoist: z.boolean().default(false),
  mentionable: z.boolean().default(false),
  /** Members (id, username, or application name for its bot) holding the role. */
  members: z.array(z.string().min(1).max(64)).max(1000).default([]),
});

export const guildConfigSchema = z.object({
  id: snowflakeSchema.optional(),
  name: z.string().min(2).max(100),
  icon: z.string().max(64).nullable().default(null),
  banner: z.string().max(64).nullable().default(null),
  /** Guild tag, 1 to 4 characters (spec, Limits). */
  tag: z.string().min(1).max(4).nullable().default(null),
  features: z.array(z.string().min(1).max(64)).max(50).default([]),
  owner: z.string().min(1).max(32).nullable().default(null),
  /** Members by id or username. */
  members: z.array(z.string().min(1).max(32)).max(1000).default([]),
  /** Applications (id or name) whose bot users are members: bot usernames are generated, so they are named this way. */
  bots: z.array(z.string().min(1).max(64)).max(1000).default([]),
  channels: z.array(channelConfigSchema).max(500).default([]),
  /** Roles above @everyone, lowest first (PROTOCOL.md §14.2). */
  roles: z.array(roleConfigSchema).max(250).default([]),
  /** @everyone's permissions (default: the published default set). */
  everyone_permissions: z
    .string()
    .regex(/^\d{1,16}$/)
    .optional(),
});

/** The developer portal's account (PROTOCOL.md §15): a name and a scrypt hash, never the password itself. */
export const developerAccountSchema = z.object({
  username: z
    .string()
    .regex(/^[a-z0-9_.]{2,32}$/, { message: 'Username must be 2–32 characters of a–z, 0–9, _ and .' }),
  password_hash: z
    .string()
    .regex(/^scrypt\$[0-9a-f]{32}\$[0-9a-f]{64}$/, { message: 'Must be scrypt$<32 hex salt>$<64 hex hash>.' }),
});

export const platformConfigSchema = z.object({
  applications: z.array(applicationConfigSchema).default([]),
  users: z.array(userConfigSchema).default([]),
  guilds: z.array(guildConfigSchema).default([]),
  developer_account: developerAccountSchema.optional(),
});

export type ApplicationConfig = z.output<typeof applicationConfigSchema>;
export type UserConfig = z.output<typeof userConfigSchema>;
export type GuildConfig = z.output<typeof guildConfigSchema>;
export type DeveloperAccountConfig = z.output<typeof developerAccountSchema>;
/** The config as written (defaults optional). */
export type PlatformConfig = z.input<typeof platformConfigSchema>;
