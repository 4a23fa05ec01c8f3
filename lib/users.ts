// User snapshots: a native UserHandle (and its application profiles) read once into plain data (the handles are
// dropped right away, so a snapshot never pins native memory and is safe to keep, log or post to another thread).
import { type ExternalIdentityProviderType, StatusType, UserHandleAvatarType } from './generated/enums.js';
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
  /** The user's profiles for this application (known for the signed-in user; empty for others). */
  applicationProfiles: UserApplicationProfileSnapshot[];
}

/** One of the user's profiles for this application: an external identity (e.g. a game account). */
export interface UserApplicationProfileSnapshot {
  providerType: ExternalIdentityProviderType;
  /** The identity provider (the OIDC issuer), when it has one. */
  providerId: string | undefined;
  /** The user id the provider issued. */
  providerIssuedUserId: string;
  username: string;
  /** '' when the profile has no avatar. */
  avatarHash: string;
  /** '' when the profile has no metadata. */
  metadata: string;
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
      applicationProfiles: api.UserHandle_UserApplicationProfiles(handle).map((profile) => takeProfileSnapshot(api, profile)),
    };
  } finally {
    api.UserHandle_Drop(handle);
  }
}

function takeProfileSnapshot(api: NativeApi, handle: NativeHandle<'UserApplicationProfileHandle'>): UserApplicationProfileSnapshot {
  try {
    return {
      providerType: api.UserApplicationProfileHandle_ProviderType(handle),
      providerId: api.UserApplicationProfileHandle_ProviderId(handle),
      providerIssuedUserId: api.UserApplicationProfileHandle_ProviderIssuedUserId(handle),
      username: api.UserApplicationProfileHandle_Username(handle),
      avatarHash: api.UserApplicationProfileHandle_AvatarHash(handle),
      metadata: api.UserApplicationProfileHandle_Metadata(handle),
    };
  } finally {
    api.UserApplicationProfileHandle_Drop(handle);
  }
}
