// User snapshots: a native UserHandle read once into plain data (the handle is dropped right away, so a
// snapshot never pins native memory and is safe to keep, log or post to another thread).
import { StatusType, UserHandleAvatarType } from './generated/enums.js';
import type { NativeApi, NativeHandle } from './generated/native-api.js';

/** A user as the SDK's cache knew it when the snapshot was taken. Ids are bigint snowflakes. */
export interface UserSnapshot {
  id: bigint;
  /** Unique username (generated for provisional users). */
  username: string;
  globalName: string | undefined;
  /** globalName when set, else username. */
  displayName: string;
  /** Avatar hash, when the user has one. */
  avatar: string | undefined;
  /** CDN URL of the avatar (PNG, GIF for animated ones) or of the default avatar. */
  avatarUrl: string;
  status: StatusType;
  isProvisional: boolean;
  /** The primary guild tag the user displays, when enabled. */
  guildTag: string | undefined;
}

/** Reads a UserHandle into a snapshot and drops the handle. */
export function takeUserSnapshot(api: NativeApi, handle: NativeHandle<'UserHandle'>): UserSnapshot {
  try {
    return {
      id: api.UserHandle_Id(handle),
      username: api.UserHandle_Username(handle),
      globalName: api.UserHandle_GlobalName(handle),
      displayName: api.UserHandle_DisplayName(handle),
      avatar: api.UserHandle_Avatar(handle),
      avatarUrl: api.UserHandle_AvatarUrl(handle, UserHandleAvatarType.Gif, UserHandleAvatarType.Png),
      status: api.UserHandle_Status(handle),
      isProvisional: api.UserHandle_IsProvisional(handle),
      guildTag: api.UserHandle_GuildTag(handle),
    };
  } finally {
    api.UserHandle_Drop(handle);
  }
}
