/**
 * Ephemeral voice-channel state (PROTOCOL.md §14.6): the status text set with `PUT /channels/{id}/voice-status` and
 * the voice session's start time (driven by the channel's call, PROTOCOL.md §13.8). Neither is part of the channel
 * object; both are read with gateway op 43 and announced by VOICE_CHANNEL_STATUS_UPDATE /
 * VOICE_CHANNEL_START_TIME_UPDATE. In memory: a restart ends every voice session, which clears both.
 */
/** What the voice area answers about guild calls (it knows who is connected). */
export interface GuildVoiceCalls {
  /** GUILD_CREATE's `voice_states` of a guild (partial voice states, without `guild_id`). */
  voiceStatesOf(guildId: string): Record<string, unknown>[];
  /** Ends the voice connections the guild no longer allows: a deleted channel's call, a removed member's state. */
  disconnect(target: { guildId: string; channelId?: string; userId?: string }): void;
}

export class VoiceChannelState {
  private readonly statuses = new Map<string, string>();
  private readonly startTimes = new Map<string, number>();

  /** `calls` is read at each use: the voice area is built after the bot API (no calls until then). */
  constructor(private readonly calls: () => GuildVoiceCalls | undefined) {}

  /** GUILD_CREATE's `voice_states` of a guild; empty without the voice area. */
  voiceStatesOf(guildId: string): Record<string, unknown>[] {
    return this.calls()?.voiceStatesOf(guildId) ?? [];
  }

  /** Ends the voice connections the guild no longer allows; nothing to end without the voice area. */
  disconnect(target: { guildId: string; channelId?: string; userId?: string }): void {
    this.calls()?.disconnect(target);
  }

  /** Whether the user is connected to the channel's call (Set Voice Channel Status needs less then). */
  connected(guildId: string, channelId: string, userId: string): boolean {
    return this.voiceStatesOf(guildId).some((state) => state.channel_id === channelId && state.user_id === userId);
  }

  status(channelId: string): string | null {
    return this.statuses.get(channelId) ?? null;
  }

  setStatus(channelId: string, status: string | null): void {
    if (status === null || status === '') this.statuses.delete(channelId);
    else this.statuses.set(channelId, status);
  }

  /** Unix seconds, or null while nobody is in the channel's voice session. */
  startTime(channelId: string): number | null {
    return this.startTimes.get(channelId) ?? null;
  }

  setStartTime(channelId: string, seconds: number | null): void {
    if (seconds === null) this.startTimes.delete(channelId);
    else this.startTimes.set(channelId, seconds);
  }
}
