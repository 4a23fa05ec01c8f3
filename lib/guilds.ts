// Guild snapshots: the native GuildMinimal / GuildChannel values of a GetUserGuilds / GetGuildChannels answer read
// once into plain data; the handles are dropped right away (see snapshot.ts).
import type { NativeApi, NativeHandle } from './generated/native-api.js';
import type { GuildChannelSnapshot } from './generated/snapshots.js';
import type { GuildSnapshot } from './generated/snapshots.js';
export type { GuildSnapshot } from './generated/snapshots.js';
export type { GuildChannelSnapshot, LinkedLobbySnapshot } from './generated/snapshots.js';

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
