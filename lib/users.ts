// User snapshots: a native UserHandle (and its application profiles) read once into plain data (the handles are
// dropped right away, so a snapshot never pins native memory and is safe to keep, log or post to another thread).
import { type ExternalIdentityProviderType, StatusType, UserHandleAvatarType } from './generated/enums.js';
import type { NativeApi, NativeHandle } from './generated/native-api.js';
import { takeActivitySnapshot, type Activity } from './presence.js';
import { takeSnapshot } from './snapshot.js';

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
  /** The user's rich presence activity for this application (only this game's), when they have one. */
  gameActivity: Activity | undefined;
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
  return takeSnapshot(handle, (h) => ({
    id: api.UserHandle_Id(h),
    username: api.UserHandle_Username(h),
    globalName: api.UserHandle_GlobalName(h),
    displayName: api.UserHandle_DisplayName(h),
    avatar: api.UserHandle_Avatar(h),
    avatarUrl: api.UserHandle_AvatarUrl(h, UserHandleAvatarType.Gif, UserHandleAvatarType.Png),
    status: api.UserHandle_Status(h),
    isProvisional: api.UserHandle_IsProvisional(h),
    guildTag: api.UserHandle_GuildTag(h),
    applicationProfiles: api.UserHandle_UserApplicationProfiles(h).map((profile) => takeProfileSnapshot(api, profile)),
    gameActivity: takeGameActivity(api, h),
  }), (h) => api.UserHandle_Drop(h));
}

function takeGameActivity(api: NativeApi, handle: NativeHandle<'UserHandle'>): Activity | undefined {
  const activity = api.UserHandle_GameActivity(handle);
  return activity && takeActivitySnapshot(api, activity);
}

function takeProfileSnapshot(api: NativeApi, handle: NativeHandle<'UserApplicationProfileHandle'>): UserApplicationProfileSnapshot {
  return takeSnapshot(handle, (h) => ({
    providerType: api.UserApplicationProfileHandle_ProviderType(h),
    providerId: api.UserApplicationProfileHandle_ProviderId(h),
    providerIssuedUserId: api.UserApplicationProfileHandle_ProviderIssuedUserId(h),
    username: api.UserApplicationProfileHandle_Username(h),
    avatarHash: api.UserApplicationProfileHandle_AvatarHash(h),
    metadata: api.UserApplicationProfileHandle_Metadata(h),
  }), (h) => api.UserApplicationProfileHandle_Drop(h));
}
