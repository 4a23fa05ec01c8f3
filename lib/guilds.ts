// Guild snapshots: the native GuildMinimal / GuildChannel values of a GetUserGuilds / GetGuildChannels answer read
// once into plain data; the handles are dropped right away (see snapshot.ts).
import type { ChannelType } from './generated/enums.js';
import type { NativeApi, NativeHandle } from './generated/native-api.js';

/** A guild the user is a member of. */
export interface GuildSnapshot {
  id: bigint;
  name: string;
}

/** The lobby a guild channel is linked to. */
export interface LinkedLobbySnapshot {
  applicationId: bigint;
  lobbyId: bigint;
}

/** A channel of a guild, with what lobby linking needs to know about it. */
export interface GuildChannelSnapshot {
  id: bigint;
  name: string;
  type: ChannelType;
  /** Sort position within the guild (getGuildChannels() sorts by it). */
  position: number;
  /** The category the channel is in, when it is in one. */
  parentId: bigint | undefined;
  /** A text channel, not NSFW, not linked, where the user may Manage Channels, View Channel and Send Messages. */
  isLinkable: boolean;
  /** Every member may view the channel and send messages in it. */
  isViewableAndWriteableByAllMembers: boolean;
  /** The lobby linked to the channel, when there is one. */
  linkedLobby: LinkedLobbySnapshot | undefined;
}

/** Reads GuildMinimal handles into snapshots and drops them (one crossing each). */
export function takeGuildSnapshots(api: NativeApi, handles: NativeHandle<'GuildMinimal'>[]): GuildSnapshot[] {
  return handles.map((handle) => {
    const d = api.GuildMinimal_Snapshot(handle, true);
    return { id: d.id, name: d.name };
  });
}

/** Reads GuildChannel handles into snapshots and drops them (one crossing each). */
export function takeGuildChannelSnapshots(api: NativeApi, handles: NativeHandle<'GuildChannel'>[]): GuildChannelSnapshot[] {
  return handles.map((handle) => {
    const d = api.GuildChannel_Snapshot(handle, true);
    return {
      id: d.id,
      name: d.name,
      type: d.type,
      position: d.position,
      parentId: d.parentId,
      isLinkable: d.isLinkable,
      isViewableAndWriteableByAllMembers: d.isViewableAndWriteableByAllMembers,
      linkedLobby: d.linkedLobby && { applicationId: d.linkedLobby.applicationId, lobbyId: d.linkedLobby.lobbyId },
    };
  });
}
