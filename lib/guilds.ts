// Guild snapshots: the native GuildMinimal / GuildChannel values of a GetUserGuilds / GetGuildChannels answer read
// once into plain data; the handles are dropped right away (see snapshot.ts). The generated snapshot of each is the
// face's type as it is (GuildMinimalData is GuildSnapshot), so it is handed on, not copied.
import type { NativeApi, NativeHandle } from '../contract/native-api.js';
import type { GuildChannelSnapshot, GuildSnapshot } from '../contract/snapshots.js';
export type { GuildChannelSnapshot, GuildSnapshot, LinkedLobbySnapshot } from '../contract/snapshots.js';

/** Reads GuildMinimal handles into snapshots and drops them (one crossing each). */
export function takeGuildSnapshots(api: NativeApi, handles: NativeHandle<'GuildMinimal'>[]): GuildSnapshot[] {
  return handles.map((handle) => api.GuildMinimal_Snapshot(handle, true));
}

/** Reads GuildChannel handles into snapshots and drops them (one crossing each). */
export function takeGuildChannelSnapshots(
  api: NativeApi,
  handles: NativeHandle<'GuildChannel'>[],
): GuildChannelSnapshot[] {
  return handles.map((handle) => api.GuildChannel_Snapshot(handle, true));
}
