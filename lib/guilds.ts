// Guild snapshots: the native GuildMinimal / GuildChannel values of a GetUserGuilds / GetGuildChannels answer read
// once into plain data; the handles are dropped right away (see snapshot.ts).
import type { ChannelType } from './generated/enums.js';
import type { NativeApi, NativeHandle } from './generated/native-api.js';
import { takeSnapshot } from './snapshot.js';

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

/** Reads GuildMinimal handles into snapshots and drops them. */
export function takeGuildSnapshots(api: NativeApi, handles: NativeHandle<'GuildMinimal'>[]): GuildSnapshot[] {
  return handles.map((handle) => takeSnapshot(handle, (h) => ({ id: api.GuildMinimal_Id(h), name: api.GuildMinimal_Name(h) }),
    (h) => api.GuildMinimal_Drop(h)));
}

/** Reads GuildChannel handles into snapshots and drops them. */
export function takeGuildChannelSnapshots(api: NativeApi, handles: NativeHandle<'GuildChannel'>[]): GuildChannelSnapshot[] {
  return handles.map((handle) => takeSnapshot(handle, (h) => ({
    id: api.GuildChannel_Id(h),
    name: api.GuildChannel_Name(h),
    type: api.GuildChannel_Type(h),
    position: api.GuildChannel_Position(h),
    parentId: api.GuildChannel_ParentId(h),
    isLinkable: api.GuildChannel_IsLinkable(h),
    isViewableAndWriteableByAllMembers: api.GuildChannel_IsViewableAndWriteableByAllMembers(h),
    linkedLobby: takeLinkedLobby(api, api.GuildChannel_LinkedLobby(h)),
  }), (h) => api.GuildChannel_Drop(h)));
}

function takeLinkedLobby(api: NativeApi, handle: NativeHandle<'LinkedLobby'> | undefined): LinkedLobbySnapshot | undefined {
  if (!handle) return undefined;
  return takeSnapshot(handle, (h) => ({ applicationId: api.LinkedLobby_ApplicationId(h), lobbyId: api.LinkedLobby_LobbyId(h) }),
    (h) => api.LinkedLobby_Drop(h));
}
