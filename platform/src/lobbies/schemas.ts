import { z } from 'zod';
import { snowflakeSchema, stringMapSchema } from '../http/validation.js';
import type { LobbyLimits } from './limits.js';

/** Every request body of the lobby routes, built from the configured limits. */
export function lobbySchemas(limits: LobbyLimits) {
  const metadata = stringMapSchema(
    limits.metadataMaxKeys,
    limits.metadataKeyMaxLength,
    limits.metadataValueMaxLength,
  ).nullable();
  const idleTimeout = z.number().int().min(limits.idleTimeoutMinSeconds).max(limits.idleTimeoutMaxSeconds);
  // Lobby flags: the schema admits only 1 (meaning not public: stored and echoed); member flags: CanLinkLobby.
  const lobbyFlags = z.number().int().min(0).max(1);
  const memberFlags = z.number().int().min(0).max(1);
  const webhookUrl = z
    .url({ protocol: /^https?$/ })
    .max(512)
    .nullable();
  const additionalName = z.string().min(1).max(limits.additionalNameMaxLength).nullable();
  // One member shape for every route that sets members (POST/PATCH `members`, PUT member, bulk), so no route drops
  // a field another one honours.
  const memberFields = {
    metadata: metadata.optional(),
    flags: memberFlags.optional(),
    additional_name: additionalName.optional(),
  };
  const members = z.array(z.object({ id: snowflakeSchema, ...memberFields })).max(limits.maxMembersPerCall);

  return {
    create: z.object({
      metadata: metadata.optional(),
      members: members.optional(),
      idle_timeout_seconds: idleTimeout.optional(),
      flags: lobbyFlags.optional(),
      override_event_webhooks_url: webhookUrl.optional(),
    }),
    createOrJoin: z.object({
      secret: z.string().min(1).max(limits.secretMaxLength),
      idle_timeout_seconds: idleTimeout.optional(),
      lobby_metadata: metadata.optional(),
      member_metadata: metadata.optional(),
      flags: lobbyFlags.optional(),
    }),
    patch: z.object({
      metadata: metadata.optional(),
      members: members.optional(),
      idle_timeout_seconds: idleTimeout.optional(),
      flags: lobbyFlags.optional(),
      override_event_webhooks_url: webhookUrl.optional(),
    }),
    member: z.object(memberFields),
    bulk: z
      .array(z.object({ id: snowflakeSchema, ...memberFields, remove_member: z.boolean().optional() }))
      .min(1)
      .max(limits.maxMembersPerCall),
    link: z.object({ channel_id: snowflakeSchema.nullable().optional() }),
    message: z.object({
      content: z.string().min(1).max(limits.messageMaxLength),
      metadata: metadata.optional(),
      flags: z
        .number()
        .int()
        .min(0)
        .max(2 ** 31 - 1)
        .optional(),
    }),
    moderation: stringMapSchema(
      limits.moderationMaxKeys,
      limits.moderationKeyMaxLength,
      limits.moderationValueMaxLength,
    ),
    history: z.object({
      limit: z.coerce.number().int().min(1).max(limits.historyMaxLimit).default(limits.historyDefaultLimit),
      // OURS: the messages that follow this id (how the SDK catches up on a lobby after a new gateway session).
      after: snowflakeSchema.optional(),
    }),
  };
}

export type LobbySchemas = ReturnType<typeof lobbySchemas>;
