// Message snapshots: native MessageHandle / ChannelHandle / UserMessageSummary objects read once into plain data;
// the handles are dropped right away (see snapshot.ts). Ids are bigint snowflakes; timestamps Unix milliseconds.
import type { AdditionalContentType, ChannelType, DisclosureTypes } from './generated/enums.js';
import type { NativeApi, NativeHandle } from './generated/native-api.js';
import type { EventSetters } from './native-events.js';
import { takeSnapshot } from './snapshot.js';
import { takeUserSnapshot, type UserSnapshot } from './users.js';

/** What a message carries besides its text (the platform's game messages are text only: never set today). */
export interface AdditionalContentSnapshot {
  type: AdditionalContentType;
  title: string | undefined;
  count: number;
}

/** A lobby or direct message as the SDK knew it when the snapshot was taken. */
export interface MessageSnapshot {
  id: bigint;
  /** The text with user mentions and custom emoji made readable (@name, :emoji:). */
  content: string;
  /** The text as sent. */
  rawContent: string;
  authorId: bigint;
  /** The author, when the SDK's cache knows the user. */
  author: UserSnapshot | undefined;
  /** The DM channel as this user sees it (the other user's id for ephemeral DMs), or the lobby id. */
  channelId: bigint;
  /** The lobby of a lobby message (undefined for DMs). */
  lobbyId: bigint | undefined;
  /** The user a DM was sent to, or the lobby of a lobby message. */
  recipientId: bigint;
  /** Unix milliseconds. */
  sentTimestamp: bigint;
  /** Unix milliseconds; 0n = never edited. */
  editedTimestamp: bigint;
  metadata: Record<string, string>;
  /** Set by the application's server (moderation tools). */
  moderationMetadata: Record<string, string>;
  additionalContent: AdditionalContentSnapshot | undefined;
  disclosureType: DisclosureTypes | undefined;
  applicationId: bigint | undefined;
  /** Sent through the SDK rather than the platform's own client. */
  sentFromGame: boolean;
  /** The server-set display name of the lobby member who sent it, when set. */
  additionalName: string | undefined;
}

/** A channel messages go through: a persistent DM channel or a lobby. */
export interface ChannelSnapshot {
  id: bigint;
  /** Empty for DMs and lobbies. */
  name: string;
  /** DMs: the other participant; lobbies: every member. */
  recipients: bigint[];
  type: ChannelType;
}

/** The latest direct message with one user. */
export interface UserMessageSummarySnapshot {
  userId: bigint;
  lastMessageId: bigint;
}

/** Reads a MessageHandle into a snapshot and drops it. */
export function takeMessageSnapshot(api: NativeApi, handle: NativeHandle<'MessageHandle'>): MessageSnapshot {
  return takeSnapshot(handle, (h) => {
    const author = api.MessageHandle_Author(h);
    const lobby = api.MessageHandle_Lobby(h);
    return {
      id: api.MessageHandle_Id(h),
      content: api.MessageHandle_Content(h),
      rawContent: api.MessageHandle_RawContent(h),
      authorId: api.MessageHandle_AuthorId(h),
      author: author && takeUserSnapshot(api, author),
      channelId: api.MessageHandle_ChannelId(h),
      lobbyId: lobby && takeSnapshot(lobby, (l) => api.LobbyHandle_Id(l), (l) => api.LobbyHandle_Drop(l)),
      recipientId: api.MessageHandle_RecipientId(h),
      sentTimestamp: api.MessageHandle_SentTimestamp(h),
      editedTimestamp: api.MessageHandle_EditedTimestamp(h),
      metadata: api.MessageHandle_Metadata(h),
      moderationMetadata: api.MessageHandle_ModerationMetadata(h),
      additionalContent: takeAdditionalContent(api, api.MessageHandle_AdditionalContent(h)),
      disclosureType: api.MessageHandle_DisclosureType(h),
      applicationId: api.MessageHandle_ApplicationId(h),
      sentFromGame: api.MessageHandle_SentFromGame(h),
      additionalName: api.MessageHandle_AdditionalName(h),
    };
  }, (h) => api.MessageHandle_Drop(h));
}

/** Reads MessageHandles into snapshots and drops them. */
export function takeMessageSnapshots(api: NativeApi, handles: NativeHandle<'MessageHandle'>[]): MessageSnapshot[] {
  return handles.map((handle) => takeMessageSnapshot(api, handle));
}

/** Reads a ChannelHandle into a snapshot and drops it. */
export function takeChannelSnapshot(api: NativeApi, handle: NativeHandle<'ChannelHandle'>): ChannelSnapshot {
  return takeSnapshot(handle, (h) => ({
    id: api.ChannelHandle_Id(h),
    name: api.ChannelHandle_Name(h),
    recipients: api.ChannelHandle_Recipients(h),
    type: api.ChannelHandle_Type(h),
  }), (h) => api.ChannelHandle_Drop(h));
}

/** Reads UserMessageSummary values into snapshots and drops them. */
export function takeSummarySnapshots(api: NativeApi, handles: NativeHandle<'UserMessageSummary'>[]): UserMessageSummarySnapshot[] {
  return handles.map((handle) => takeSnapshot(handle, (h) => ({
    userId: api.UserMessageSummary_UserId(h),
    lastMessageId: api.UserMessageSummary_LastMessageId(h),
  }), (h) => api.UserMessageSummary_Drop(h)));
}

function takeAdditionalContent(api: NativeApi, handle: NativeHandle<'AdditionalContent'> | undefined): AdditionalContentSnapshot | undefined {
  if (!handle) return undefined;
  return takeSnapshot(handle, (h) => ({
    type: api.AdditionalContent_Type(h),
    title: api.AdditionalContent_Title(h),
    count: api.AdditionalContent_Count(h),
  }), (h) => api.AdditionalContent_Drop(h));
}

/** Message events of the Client. Read the message with getMessage(messageId) inside the listener. */
export type MessageEvents = {
  /** A lobby or direct message arrived (or this user sent one). */
  messageCreated: [messageId: bigint];
  /** A cached message changed (edited, moderation metadata). */
  messageUpdated: [messageId: bigint];
  /** A message was deleted; channelId is its DM channel (as this user sees it) or lobby. */
  messageDeleted: [messageId: bigint, channelId: bigint];
};

export const MESSAGE_EVENT_SETTERS: EventSetters<MessageEvents> = {
  messageCreated: (api, client, cb) => api.Client_SetMessageCreatedCallback(client, cb),
  messageUpdated: (api, client, cb) => api.Client_SetMessageUpdatedCallback(client, cb),
  messageDeleted: (api, client, cb) => api.Client_SetMessageDeletedCallback(client, cb),
};
