// Rich presence and game invites as plain data: an Activity given to updateRichPresence() is built into a native
// Activity for the call and dropped right after; activities and invites read from the SDK are snapshots (the native
// handles are dropped at once, see snapshot.ts). Ids are bigint snowflakes.
import type {
  ActivityGamePlatforms,
  ActivityPartyPrivacy,
  ActivityTypes,
  StatusDisplayTypes,
} from '../contract/enums.js';
import type { NativeApi, NativeHandle } from '../contract/native-api.js';
import type { EventSetters } from './native-events.js';
import { takeSnapshot } from './snapshot.js';
import type { ActivityButton, ActivityInvite } from '../contract/snapshots.js';
export type { ActivityButton, ActivityInvite } from '../contract/snapshots.js';

/** Images of an activity and their hover texts (lengths in characters). */
export interface ActivityAssets {
  /** Asset key or URL, 1–300. */
  largeImage?: string | undefined;
  /** 2–128. */
  largeText?: string | undefined;
  /** Opened when the large image is clicked, 1–256. */
  largeUrl?: string | undefined;
  /** Asset key or URL, 1–300. */
  smallImage?: string | undefined;
  /** 2–128. */
  smallText?: string | undefined;
  /** 1–256. */
  smallUrl?: string | undefined;
  /** Banner of game invites, 1–300. */
  inviteCoverImage?: string | undefined;
}

/** Unix milliseconds (values below 100000000000 are taken as seconds); 0n = unset. `end` shows a countdown. */
export interface ActivityTimestamps {
  start?: bigint;
  end?: bigint;
}

/** The party of an activity; with a join secret and room left it makes the activity joinable (invites). */
export interface ActivityParty {
  /** 2–128 characters. */
  id: string;
  /** ≥ 1. */
  currentSize: number;
  /** ≥ 0 (0 = no maximum shown); when set, ≥ currentSize. */
  maxSize: number;
  privacy?: ActivityPartyPrivacy;
}

/**
 * A rich presence activity: what updateRichPresence() takes (every field optional but `type`) and what
 * `UserSnapshot.gameActivity` holds. Limits are checked locally; a violation rejects with ERR_SVCPP_VALIDATION
 * naming the field (e.g. "activity.state must be 2–128 characters").
 */
export interface Activity {
  /** Displayed name, ≤ 128; empty = the application's name. */
  name?: string;
  /** Playing, Listening, Watching or Competing. */
  type: ActivityTypes;
  statusDisplayType?: StatusDisplayTypes | undefined;
  /** Second line, 2–128. */
  state?: string | undefined;
  /** 2–256. */
  stateUrl?: string | undefined;
  /** First line, 2–128. */
  details?: string | undefined;
  /** 2–256. */
  detailsUrl?: string | undefined;
  /** Set by the platform from the token (ignored by updateRichPresence()). */
  applicationId?: bigint | undefined;
  parentApplicationId?: bigint | undefined;
  assets?: ActivityAssets | undefined;
  timestamps?: ActivityTimestamps | undefined;
  party?: ActivityParty | undefined;
  /** The join secret handed to whoever accepts an invite, 2–128. */
  secrets?: { join: string } | undefined;
  /** Platforms it can be joined from (bitmask; 0 = Desktop). */
  supportedPlatforms?: ActivityGamePlatforms;
  /** At most 2 (more: ERR_SVCPP_VALIDATION). */
  buttons?: ActivityButton[];
}

/** Builds a native Activity from plain data; the caller drops it. */
export function toNativeActivity(api: NativeApi, activity: Activity): NativeHandle<'Activity'> {
  const h = api.Activity_Init();
  try {
    if (activity.name !== undefined) api.Activity_SetName(h, activity.name);
    api.Activity_SetType(h, activity.type);
    api.Activity_SetStatusDisplayType(h, activity.statusDisplayType);
    api.Activity_SetState(h, activity.state);
    api.Activity_SetStateUrl(h, activity.stateUrl);
    api.Activity_SetDetails(h, activity.details);
    api.Activity_SetDetailsUrl(h, activity.detailsUrl);
    api.Activity_SetApplicationId(h, activity.applicationId);
    api.Activity_SetParentApplicationId(h, activity.parentApplicationId);
    if (activity.supportedPlatforms !== undefined) api.Activity_SetSupportedPlatforms(h, activity.supportedPlatforms);
    if (activity.assets)
      withPart(
        api.ActivityAssets_Init(),
        (a) => {
          const assets = activity.assets!;
          api.ActivityAssets_SetLargeImage(a, assets.largeImage);
          api.ActivityAssets_SetLargeText(a, assets.largeText);
          api.ActivityAssets_SetLargeUrl(a, assets.largeUrl);
          api.ActivityAssets_SetSmallImage(a, assets.smallImage);
          api.ActivityAssets_SetSmallText(a, assets.smallText);
          api.ActivityAssets_SetSmallUrl(a, assets.smallUrl);
          api.ActivityAssets_SetInviteCoverImage(a, assets.inviteCoverImage);
          api.Activity_SetAssets(h, a);
        },
        (a) => api.ActivityAssets_Drop(a),
      );
    if (activity.timestamps)
      withPart(
        api.ActivityTimestamps_Init(),
        (t) => {
          api.ActivityTimestamps_SetStart(t, activity.timestamps!.start ?? 0n);
          api.ActivityTimestamps_SetEnd(t, activity.timestamps!.end ?? 0n);
          api.Activity_SetTimestamps(h, t);
        },
        (t) => api.ActivityTimestamps_Drop(t),
      );
    if (activity.party)
      withPart(
        api.ActivityParty_Init(),
        (p) => {
          const party = activity.party!;
          api.ActivityParty_SetId(p, party.id);
          api.ActivityParty_SetCurrentSize(p, party.currentSize);
          api.ActivityParty_SetMaxSize(p, party.maxSize);
          if (party.privacy !== undefined) api.ActivityParty_SetPrivacy(p, party.privacy);
          api.Activity_SetParty(h, p);
        },
        (p) => api.ActivityParty_Drop(p),
      );
    for (const button of activity.buttons ?? [])
      withPart(
        api.ActivityButton_Init(),
        (b) => {
          api.ActivityButton_SetLabel(b, button.label);
          api.ActivityButton_SetUrl(b, button.url);
          api.Activity_AddButton(h, b);
        },
        (b) => api.ActivityButton_Drop(b),
      );
    if (activity.secrets)
      withPart(
        api.ActivitySecrets_Init(),
        (s) => {
          api.ActivitySecrets_SetJoin(s, activity.secrets!.join);
          api.Activity_SetSecrets(h, s);
        },
        (s) => api.ActivitySecrets_Drop(s),
      );
    return h;
  } catch (error) {
    api.Activity_Drop(h);
    throw error;
  }
}

/** Setters copy a part into the activity: the part's own handle is dropped right after. */
function withPart<H>(handle: H, fill: (handle: H) => void, drop: (handle: H) => void): void {
  takeSnapshot(handle, fill, drop);
}

/** Reads a native ActivityInvite into plain data and drops the handle: one crossing. */
export function takeInviteSnapshot(api: NativeApi, handle: NativeHandle<'ActivityInvite'>): ActivityInvite {
  return api.ActivityInvite_Snapshot(handle, true);
}

/** Builds a native ActivityInvite from plain data (an invite received earlier); the caller drops it. */
export function toNativeInvite(api: NativeApi, invite: ActivityInvite): NativeHandle<'ActivityInvite'> {
  const h = api.ActivityInvite_Init();
  try {
    api.ActivityInvite_SetSenderId(h, invite.senderId);
    api.ActivityInvite_SetChannelId(h, invite.channelId);
    api.ActivityInvite_SetMessageId(h, invite.messageId);
    api.ActivityInvite_SetType(h, invite.type);
    api.ActivityInvite_SetApplicationId(h, invite.applicationId);
    api.ActivityInvite_SetParentApplicationId(h, invite.parentApplicationId);
    api.ActivityInvite_SetPartyId(h, invite.partyId);
    api.ActivityInvite_SetSessionId(h, invite.sessionId);
    api.ActivityInvite_SetIsValid(h, invite.isValid);
    return h;
  } catch (error) {
    api.ActivityInvite_Drop(h);
    throw error;
  }
}

/** Invite events of the Client: the invite arrives as a snapshot (its native handle is dropped at once). */
export type InviteEvents = {
  /** A game invite or join request was received. */
  activityInviteCreated: [invite: ActivityInvite];
  /** A received invite became invalid (expired, or the sender left the party). */
  activityInviteUpdated: [invite: ActivityInvite];
};

export const INVITE_EVENT_SETTERS: EventSetters<InviteEvents> = {
  activityInviteCreated: (api, client, cb) =>
    api.Client_SetActivityInviteCreatedCallback(client, cb && ((invite) => cb(takeInviteSnapshot(api, invite)))),
  activityInviteUpdated: (api, client, cb) =>
    api.Client_SetActivityInviteUpdatedCallback(client, cb && ((invite) => cb(takeInviteSnapshot(api, invite)))),
};
