/**
 * Records of activities (PROTOCOL.md §18 "Activities"): running activity instances and each application's URL mappings.
 */

/** Where an instance runs: `gc` a guild channel, `pc` a private channel (DM or group DM). */
export type ActivityLocationKind = 'gc' | 'pc';

export interface ActivityInstanceRecord {
  /** Published form: `i-<launch_id>-<location id>`. */
  instanceId: string;
  applicationId: string;
  /** A snowflake, one per launch. */
  launchId: string;
  /** Published form: `gc-<guild_id>-<channel_id>` or `pc-<channel_id>`. */
  locationId: string;
  kind: ActivityLocationKind;
  channelId: string;
  /** null for a private channel. */
  guildId: string | null;
  /** The users in the instance, in the order they joined. */
  users: string[];
  /**
   * For a private channel: who may join (the channel's participants). Empty for a guild channel (permissions decide).
   */
  participants: string[];
  createdAt: number;
}

/** One URL mapping of the activity proxy: `prefix` (starts with `/`) → `target` (host[:port][/path], no scheme). */
export interface UrlMappingRecord {
  prefix: string;
  target: string;
}

export interface ActivityRepository {
  insertInstance(instance: ActivityInstanceRecord): void;
  updateInstance(instance: ActivityInstanceRecord): void;
  deleteInstance(instanceId: string): void;
  getInstance(instanceId: string): ActivityInstanceRecord | undefined;
  /** The running instance of an application in a location (one at most). */
  findInstanceAt(applicationId: string, locationId: string): ActivityInstanceRecord | undefined;

  /** The application's URL mappings in their configured order (first match wins). */
  urlMappings(applicationId: string): UrlMappingRecord[];
  setUrlMappings(applicationId: string, mappings: readonly UrlMappingRecord[]): void;
}
