/**
 * The published interaction object (PROTOCOL.md §17.2) as INTERACTION_CREATE and the HTTP endpoint receive it:
 * `id, application_id, type, data, guild_id, guild, channel, channel_id, member (with permissions) or user, token,
 * version, message?, app_permissions, locale, guild_locale, entitlements, authorizing_integration_owners (string
 * values), context, attachment_size_limit`. In a DM or group DM there is no guild, guild_id, guild_locale or member:
 * the invoking user is `user`, and `channel` is the partial private channel with its other members as `recipients`.
 */
import type { PlatformKernel } from '../kernel.js';
import { fullChannelJson, memberJson } from '../bot-api/guilds/bot-serialize.js';
import type { GuildService } from '../bot-api/guilds/service.js';
import type { InteractionRecord } from '../store/interaction-types.js';
import type { ApplicationRecord, UserRecord } from '../store/types.js';
import { knownUserJson } from '../users/serialize.js';
import type { Place } from './places.js';
import { PrivateChannelType } from './places.js';
import { entitlementsFor } from './premium.js';
import { uploadLimitOf } from './permissions.js';

export interface PayloadParts {
  interaction: InteractionRecord;
  app: ApplicationRecord;
  user: UserRecord;
  place: Place;
  appPermissions: bigint;
  /** The member's permissions in the channel; null outside guilds. */
  userPermissions: bigint | null;
  data: Record<string, unknown>;
  message?: unknown;
}

export function interactionPayload(
  ctx: PlatformKernel,
  guilds: GuildService,
  parts: PayloadParts,
): Record<string, unknown> {
  const { interaction, app, user, place } = parts;
  const common = {
    id: interaction.id,
    application_id: app.id,
    type: interaction.type,
    data: parts.data,
    channel_id: place.channel.id,
    token: interaction.token,
    version: 1,
    ...(parts.message !== undefined && { message: parts.message }),
    app_permissions: parts.appPermissions.toString(),
    locale: 'en-US',
    authorizing_integration_owners: interaction.authorizingOwners,
    context: interaction.context,
    attachment_size_limit: uploadLimitOf(user.premiumType),
  };
  if (place.kind === 'private') {
    const { channel } = place;
    return {
      ...common,
      channel: {
        id: channel.id,
        type: channel.type,
        flags: 0,
        recipients: channel.memberIds.filter((id) => id !== user.id).map((id) => knownUserJson(ctx, id)),
        ...(channel.type === PrivateChannelType.GROUP_DM && { name: null, icon: null }),
      },
      user: knownUserJson(ctx, user.id),
      entitlements: entitlementsFor(ctx, app.id, user.id, null),
    };
  }
  const { guild, channel, member } = place;
  return {
    ...common,
    guild_id: guild.id,
    guild: { id: guild.id, locale: 'en-US', features: [] },
    channel: { ...fullChannelJson(channel, guilds.settings(channel.id)), guild_id: guild.id },
    member: { ...memberJson(ctx, member), permissions: (parts.userPermissions ?? 0n).toString() },
    guild_locale: 'en-US',
    entitlements: entitlementsFor(ctx, app.id, user.id, guild.id),
  };
}
