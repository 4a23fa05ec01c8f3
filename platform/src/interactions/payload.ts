/**
 * The published interaction object (PROTOCOL.md §17.2) as INTERACTION_CREATE and the HTTP endpoint receive it:
 * `id, application_id, type, data, guild_id, guild, channel, channel_id, member (with permissions) or user, token,
 * version, message?, app_permissions, locale, guild_locale, entitlements, authorizing_integration_owners (string
 * values), context, attachment_size_limit`.
 */
import type { PlatformContext } from '../context.js';
import { fullChannelJson, memberJson } from '../guilds/bot-serialize.js';
import type { GuildService } from '../guilds/service.js';
import type { InteractionRecord } from '../store/interaction-types.js';
import type { ApplicationRecord, UserRecord } from '../store/types.js';
import { knownUserJson } from '../users/serialize.js';
import { entitlementsFor } from './premium.js';
import { uploadLimitOf } from './permissions.js';

export interface PayloadParts {
  interaction: InteractionRecord;
  app: ApplicationRecord;
  user: UserRecord;
  appPermissions: bigint;
  userPermissions: bigint;
  data: Record<string, unknown>;
  message?: unknown;
}

export function interactionPayload(ctx: PlatformContext, guilds: GuildService, parts: PayloadParts): Record<string, unknown> {
  const { interaction, app, user } = parts;
  const { channel, guild } = guilds.channel(interaction.channelId);
  const member = guilds.member(guild.id, user.id);
  return {
    id: interaction.id,
    application_id: app.id,
    type: interaction.type,
    data: parts.data,
    guild_id: guild.id,
    guild: { id: guild.id, locale: 'en-US', features: [] },
    channel: { ...fullChannelJson(channel, guilds.settings(channel.id)), guild_id: guild.id },
    channel_id: channel.id,
    ...(member
      ? { member: { ...memberJson(ctx, member), permissions: parts.userPermissions.toString() } }
      : { user: knownUserJson(ctx, user.id) }),
    token: interaction.token,
    version: 1,
    ...(parts.message !== undefined && { message: parts.message }),
    app_permissions: parts.appPermissions.toString(),
    locale: 'en-US',
    guild_locale: 'en-US',
    entitlements: entitlementsFor(ctx, app.id, user.id, guild.id),
    authorizing_integration_owners: interaction.authorizingOwners,
    context: interaction.context,
    attachment_size_limit: uploadLimitOf(user.premiumType),
  };
}
