/**
 * Where an activity instance runs, in the published forms: a guild channel is `gc-<guild_id>-<channel_id>`, a
 * private channel (DM, group DM) `pc-<channel_id>`; the instance id is `i-<launch_id>-<location id>`.
 */
import type { ActivityInstanceRecord, ActivityLocationKind } from '../store/activity-types.js';

export interface ActivityPlace {
  kind: ActivityLocationKind;
  channelId: string;
  guildId: string | null;
  /** A private channel's participants (who may join); empty for a guild channel. */
  participants: string[];
}

export function locationIdOf(place: ActivityPlace): string {
  return place.kind === 'gc' ? `gc-${place.guildId}-${place.channelId}` : `pc-${place.channelId}`;
}

export function instanceIdOf(launchId: string, locationId: string): string {
  return `i-${launchId}-${locationId}`;
}

/** The published activity instance object (a private channel's location has no `guild_id`). */
export function instanceJson(instance: ActivityInstanceRecord) {
  return {
    application_id: instance.applicationId,
    instance_id: instance.instanceId,
    launch_id: instance.launchId,
    location: {
      id: instance.locationId,
      kind: instance.kind,
      channel_id: instance.channelId,
      ...(instance.guildId !== null && { guild_id: instance.guildId }),
    },
    users: [...instance.users],
  };
}

/** Where an interaction's activity launches: the interaction's channel (a DM's participants join through it). */
export function interactionPlace(interaction: {
  guildId: string | null;
  channelId: string;
  userId: string;
}): ActivityPlace {
  return interaction.guildId
    ? { kind: 'gc', channelId: interaction.channelId, guildId: interaction.guildId, participants: [] }
    : { kind: 'pc', channelId: interaction.channelId, guildId: null, participants: [interaction.userId] };
}
