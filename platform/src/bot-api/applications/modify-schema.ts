/**
 * The body of `PATCH /applications/@me` (PROTOCOL.md §14.1): every published editable field with its published limit.
 * Rules between fields (install link choices, the webhook status needing a URL, flag bits) are checked by the route,
 * which knows the application's current values.
 */
import { z } from 'zod';
import { ALL_BITS } from '../guilds/permissions.js';
import { imageDataUriSchema } from '../../http/validation.js';
import { SNOWFLAKE_PATTERN } from '../../ids/snowflake.js';

/** Webhook event types an application may subscribe to (published list). */
export const WEBHOOK_EVENT_TYPES = [
  'APPLICATION_AUTHORIZED',
  'APPLICATION_DEAUTHORIZED',
  'ENTITLEMENT_CREATE',
  'QUEST_USER_ENROLLMENT',
  'LOBBY_MESSAGE_CREATE',
  'LOBBY_MESSAGE_UPDATE',
  'LOBBY_MESSAGE_DELETE',
  'GAME_DIRECT_MESSAGE_CREATE',
  'GAME_DIRECT_MESSAGE_UPDATE',
  'GAME_DIRECT_MESSAGE_DELETE',
] as const;

const httpUrl = z
  .string()
  .max(2048)
  .refine(
    (value) => {
      try {
        return ['http:', 'https:'].includes(new URL(value).protocol);
      } catch {
        return false;
      }
    },
    { message: 'Must be an http(s) URL.', params: { code: 'URL_TYPE_INVALID_URL' } },
  );

const unique = <T>(list: T[]) => new Set(list).size === list.length;

/**
 * Permissions as the published API takes them: a decimal string (an integer is accepted too, as the OpenAPI
 * description types it), holding only defined bits. Normalized to the string form.
 */
const permissionsSchema = z
  .union([z.string().regex(SNOWFLAKE_PATTERN, { message: 'Must be a decimal permission set.' }), z.int().min(0)])
  .transform((value) => BigInt(value))
  .refine((bits) => (bits & ~ALL_BITS) === 0n, {
    message: 'Contains undefined permission bits.',
    params: { code: 'PERMISSIONS_INVALID' },
  })
  .transform((bits) => bits.toString());

/**
 * `{scopes, permissions}`: scopes are `applications.commands` and/or `bot`; permissions are the bot role's, so they
 * need `bot`.
 */
export const installParamsSchema = z
  .object({
    scopes: z
      .array(z.enum(['applications.commands', 'bot']))
      .min(1)
      .refine(unique, { message: 'Scopes must be unique.' }),
    permissions: permissionsSchema.default('0'),
  })
  .strict()
  .refine((params) => params.permissions === '0' || params.scopes.includes('bot'), {
    message: 'Permissions need the bot scope.',
    path: ['permissions'],
    params: { code: 'INSTALL_PARAMS_PERMISSIONS_WITHOUT_BOT' },
  });

/**
 * Per installation context: "0" guild install, "1" user install — a user install adds no bot, so only
 * `applications.commands`.
 */
export const integrationTypesConfigSchema = z
  .object({
    '0': z.object({ oauth2_install_params: installParamsSchema.nullish() }).strict().nullish(),
    '1': z
      .object({
        oauth2_install_params: installParamsSchema
          .refine((params) => params.scopes.every((scope) => scope === 'applications.commands'), {
            message: 'A user install only takes the applications.commands scope.',
            path: ['scopes'],
            params: { code: 'USER_INSTALL_SCOPES_INVALID' },
          })
          .nullish(),
      })
      .strict()
      .nullish(),
  })
  .strict();

export const modifyApplicationSchema = z
  .object({
    description: z.string().max(400).optional(),
    icon: imageDataUriSchema.nullish(),
    cover_image: imageDataUriSchema.nullish(),
    tags: z.array(z.string().min(1).max(20)).max(5).refine(unique, { message: 'Tags must be unique.' }).nullish(),
    custom_install_url: httpUrl.nullish(),
    install_params: installParamsSchema.nullish(),
    integration_types_config: integrationTypesConfigSchema.nullish(),
    role_connections_verification_url: httpUrl.nullish(),
    flags: z
      .int()
      .min(0)
      .max(2 ** 31 - 1)
      .optional(),
    interactions_endpoint_url: z
      .url({ protocol: /^https?$/ })
      .max(2048)
      .nullable()
      .optional(),
    event_webhooks_url: httpUrl.nullish(),
    // 3 DISABLED_BY_DISCORD is set by the platform, never by the application.
    event_webhooks_status: z.literal([1, 2]).optional(),
    event_webhooks_types: z
      .array(z.enum(WEBHOOK_EVENT_TYPES))
      .refine(unique, { message: 'Event types must be unique.' })
      .nullish(),
  })
  .strict();

export type ModifyApplicationBody = z.output<typeof modifyApplicationSchema>;
