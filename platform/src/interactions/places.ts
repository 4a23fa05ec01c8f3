/**
 * Where an interaction happens (PROTOCOL.md §17.2): a guild channel, or a private channel — the DM with the app's
 * bot (context BOT_DM 1), a DM with another user or a group DM (context PRIVATE_CHANNEL 2). Private channels are
 * OURS: the development route names their other members (`recipient_ids`) and the platform keeps one channel per set
 * of members; a two-member DM has the id of the pair's DM channel of the social layer (§10.4).
 */
import type { PlatformKernel } from '../kernel.js';
import { InteractionContext } from '../commands/schemas.js';
import type { GuildService } from '../bot-api/guilds/service.js';
import { fieldError } from '../http/errors.js';
import type { MemberRecord } from '../store/bot-types.js';
import type { PrivateChannelRecord } from '../store/interaction-types.js';
import type { ApplicationRecord, ChannelRecord, GuildRecord, UserRecord } from '../store/types.js';
import { GuildErrors } from '../bot-api/guilds/errors.js';
import { isSnowflake } from '../ids/snowflake.js';

export type Place =
  | { kind: 'guild'; guild: GuildRecord; channel: ChannelRecord; member: MemberRecord }
  | { kind: 'private'; channel: PrivateChannelRecord; context: 1 | 2 };

/** Published channel types of private channels. */
export const PrivateChannelType = { DM: 1, GROUP_DM: 3 } as const;
/** A group DM holds at most 10 users (published), so 9 besides the invoking user. */
export const MAX_RECIPIENTS = 9;

export class InteractionPlaces {
  constructor(
    private readonly ctx: PlatformKernel,
    private readonly guilds: GuildService,
  ) {}

  /** The place of a channel id: a private channel the user is in, or a guild channel the user is a member of. */
  of(channelId: string, user: UserRecord, app: ApplicationRecord): Place {
    const privateChannel = isSnowflake(channelId)
      ? this.ctx.store.interactions.getPrivateChannel(channelId)
      : undefined;
    if (privateChannel) {
      if (!privateChannel.memberIds.includes(user.id)) throw GuildErrors.missingAccess();
      return { kind: 'private', channel: privateChannel, context: contextOf(privateChannel, app) };
    }
    const { guild, channel } = this.guilds.channel(channelId);
    return { kind: 'guild', guild, channel, member: this.guilds.requireMember(guild, user.id) };
  }

  /** The private channel of the user and `recipientIds` (created on first use). */
  withRecipients(user: UserRecord, app: ApplicationRecord, recipientIds: string[]): Place {
    for (const [index, id] of recipientIds.entries()) {
      const at = ['recipient_ids', index];
      if (id === user.id)
        throw fieldError(at, 'RECIPIENT_IS_SELF', 'The invoking user is a member already; name the others.');
      if (recipientIds.indexOf(id) !== index) throw fieldError(at, 'RECIPIENT_DUPLICATE', 'Each recipient once.');
      const recipient = this.ctx.store.users.get(id);
      if (!recipient) throw fieldError(at, 'UNKNOWN_USER', 'Unknown User');
      // Bots are never in group DMs (published): a bot is only ever the other side of a DM.
      if (recipient.bot && recipientIds.length > 1)
        throw fieldError(at, 'RECIPIENT_BOT_IN_GROUP', 'A bot cannot be in a group DM.');
    }
    const memberIds = [user.id, ...recipientIds].sort(compareIds);
    const type = memberIds.length === 2 ? PrivateChannelType.DM : PrivateChannelType.GROUP_DM;
    const id =
      type === PrivateChannelType.DM
        ? this.ctx.store.directMessages.channelId(memberIds[0]!, memberIds[1]!, this.ctx.ids.next())
        : this.ctx.ids.next();
    const channel = this.ctx.store.interactions.ensurePrivateChannel({ id, type, memberIds });
    return { kind: 'private', channel, context: contextOf(channel, app) };
  }
}

function contextOf(channel: PrivateChannelRecord, app: ApplicationRecord): 1 | 2 {
  return channel.type === PrivateChannelType.DM && channel.memberIds.includes(app.botUserId)
    ? InteractionContext.BOT_DM
    : InteractionContext.PRIVATE_CHANNEL;
}

/** Snowflakes in numeric order (ids of different lengths compare by length first). */
function compareIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}
