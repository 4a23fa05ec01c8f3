/**
 * Guild voice channels' calls (PROTOCOL.md §13.8): what is particular to a call keyed by a guild voice channel — who
 * may join (membership, VIEW_CHANNEL, CONNECT, `user_limit` unless MOVE_MEMBERS), the voice state with `guild_id` and
 * `member`, who is told (the guild's bots with GUILD_VOICE_STATES, and the joiner), and the channel's voice start
 * time, which the call drives. Joining, leaving, the voice server, relay and DAVE are the lobby calls' (calls.ts).
 */
import type { PlatformKernel } from '../kernel.js';
import { memberJson } from '../bot-api/guilds/bot-serialize.js';
import { ChannelType } from '../bot-api/guilds/channel-fields.js';
import { has, Permission } from '../bot-api/guilds/permissions.js';
import { Intent, type GuildService } from '../bot-api/guilds/service.js';
import type { VoiceChannelState } from '../bot-api/guilds/voice-channel-state.js';
import { publishedRefusal } from '../http/published-errors.js';
import { sessionFields, type VoiceState, type VoiceStates } from './voice-states.js';

/** The bot API's guild model and the voice channels' ephemeral state (status, start time). */
export interface GuildModel {
  guilds: GuildService;
  voice: VoiceChannelState;
}

export interface Refusal {
  code: number;
  message: string;
}

/** Why op 4 naming a guild channel could not put the user in its call (VOICE_JOIN_REFUSED `code`). */
export const GuildJoinRefusal = {
  unknownGuild: publishedRefusal('UNKNOWN_GUILD'),
  unknownChannel: publishedRefusal('UNKNOWN_CHANNEL'),
  notVoiceChannel: publishedRefusal('WRONG_CHANNEL_TYPE'),
  missingAccess: publishedRefusal('MISSING_ACCESS'),
  missingConnect: publishedRefusal('MISSING_PERMISSIONS'),
  channelFull: publishedRefusal('MAX_CALL_PARTICIPANTS'),
} as const;

export class GuildCalls {
  constructor(
    private readonly ctx: PlatformKernel,
    private readonly model: GuildModel,
    private readonly states: VoiceStates,
  ) {}

  /**
   * Checks op 4 for the guild's channel: the guild and channel exist, the channel is a voice channel, the user is a
   * member with VIEW_CHANNEL and CONNECT on it, and `user_limit` (0 = none) leaves room — unless the user is already
   * in that channel or holds MOVE_MEMBERS (published rule). Returns the refusal, or null when the user may join.
   */
  admit(userId: string, guildId: string, channelId: string): Refusal | null {
    const guild = this.ctx.store.guilds.get(guildId);
    if (!guild) return GuildJoinRefusal.unknownGuild;
    const channel = this.model.guilds.channelInGuild(guild, channelId);
    if (!channel) return GuildJoinRefusal.unknownChannel;
    if (channel.type !== ChannelType.GUILD_VOICE) return GuildJoinRefusal.notVoiceChannel;
    const member = this.model.guilds.member(guild.id, userId);
    if (!member) return GuildJoinRefusal.missingAccess;
    const permissions = this.model.guilds.channelPermissions(guild, channel, member);
    if (!has(permissions, Permission.VIEW_CHANNEL)) return GuildJoinRefusal.missingAccess;
    if (!has(permissions, Permission.CONNECT)) return GuildJoinRefusal.missingConnect;
    const limit = this.model.guilds.settings(channel.id).userLimit;
    const alreadyIn = this.states.get(channel.id, userId) !== undefined;
    if (limit > 0 && !alreadyIn && this.states.count(channel.id) >= limit && !has(permissions, Permission.MOVE_MEMBERS))
      return GuildJoinRefusal.channelFull;
    return null;
  }

  /**
   * The published voice state of a guild call: `guild_id`, `channel_id` (null once left), `member`. `withGuildId`
   * false is GUILD_CREATE's partial form (published: those omit `guild_id`).
   */
  stateJson(state: VoiceState, inCall = true, withGuildId = true): Record<string, unknown> {
    const member = state.guildId ? this.model.guilds.member(state.guildId, state.userId) : undefined;
    return {
      ...(withGuildId && { guild_id: state.guildId }),
      channel_id: inCall ? state.lobbyId : null,
      user_id: state.userId,
      ...(member && { member: memberJson(this.ctx, member) }),
      ...sessionFields(state),
    };
  }

  /**
   * VOICE_STATE_UPDATE to the guild's bots whose sessions have GUILD_VOICE_STATES, and to the joiner's own sessions
   * of the application when it is a user session (a bot is told as one of the guild's bots, with the intent).
   */
  publishState(state: VoiceState, inCall: boolean): void {
    if (!state.guildId) return;
    const d = this.stateJson(state, inCall);
    this.model.guilds.publish(state.guildId, 'VOICE_STATE_UPDATE', d, Intent.GUILD_VOICE_STATES);
    if (!this.ctx.store.botGuilds.botMemberIds(state.guildId).includes(state.userId)) {
      this.ctx.bus.publish({
        t: 'VOICE_STATE_UPDATE',
        d,
        to: { userIds: [state.userId], applicationId: state.applicationId },
      });
    }
  }

  /** The first participant starts the channel's voice session: its start time is now (unix seconds). */
  joined(state: VoiceState): void {
    if (!state.guildId || this.states.count(state.lobbyId) !== 1) return;
    const start = Math.floor(this.ctx.now() / 1000);
    this.model.voice.setStartTime(state.lobbyId, start);
    this.publishStartTime(state.guildId, state.lobbyId, start);
  }

  /** The last participant left: the voice session is over, the start time is cleared. */
  left(state: VoiceState): void {
    if (!state.guildId || this.states.count(state.lobbyId) !== 0) return;
    this.model.voice.setStartTime(state.lobbyId, null);
    this.publishStartTime(state.guildId, state.lobbyId, null);
  }

  /** GUILD_CREATE's `voice_states`: everyone in the guild's voice channels, without `guild_id`. */
  guildCreateVoiceStates(guildId: string): Record<string, unknown>[] {
    return this.states.ofGuild(guildId).map((state) => this.stateJson(state, true, false));
  }

  /** VOICE_CHANNEL_START_TIME_UPDATE (intent GUILDS); `voice_start_time` absent when the session ended. */
  private publishStartTime(guildId: string, channelId: string, start: number | null): void {
    this.model.guilds.publish(
      guildId,
      'VOICE_CHANNEL_START_TIME_UPDATE',
      { id: channelId, guild_id: guildId, ...(start !== null && { voice_start_time: start }) },
      Intent.GUILDS,
    );
  }
}
