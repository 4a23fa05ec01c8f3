// Message snapshots: native MessageHandle / ChannelHandle / UserMessageSummary objects read once into plain data;
// the handles are dropped right away (see snapshot.ts). Ids are bigint snowflakes; timestamps Unix milliseconds.
import type { AdditionalContentType, ChannelType, DisclosureTypes } from './generated/enums.js';
import type { NativeApi, NativeHandle } from './generated/native-api.js';
import type { EventSetters } from './native-events.js';
import type { UserSnapshot } from './users.js';

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

/** Reads a MessageHandle into a snapshot and drops it: one crossing (MessageHandle_Snapshot). */
export function takeMessageSnapshot(api: NativeApi, handle: NativeHandle<'MessageHandle'>): MessageSnapshot {
  return api.MessageHandle_Snapshot(handle, true);
}

/** Reads MessageHandles into snapshots and drops them. */
export function takeMessageSnapshots(api: NativeApi, handles: NativeHandle<'MessageHandle'>[]): MessageSnapshot[] {
  return handles.map((handle) => takeMessageSnapshot(api, handle));
}

/** Reads a ChannelHandle into a snapshot and drops it: one crossing. */
export function takeChannelSnapshot(api: NativeApi, handle: NativeHandle<'ChannelHandle'>): ChannelSnapshot {
  const d = api.ChannelHandle_Snapshot(handle, true);
  return { id: d.id, name: d.name, recipients: d.recipients, type: d.type };
}

/** Reads UserMessageSummary values into snapshots and drops them (one crossing each). */
export function takeSummarySnapshots(api: NativeApi, handles: NativeHandle<'UserMessageSummary'>[]): UserMessageSummarySnapshot[] {
  return handles.map((handle) => {
    const d = api.UserMessageSummary_Snapshot(handle, true);
    return { userId: d.userId, lastMessageId: d.lastMessageId };
  });
}

/** Message events of the Client. Read the message with getMessage(messageId) inside the listener. */
export type MessageEvents = {
  /**
   * A lobby or direct message arrived (or this user sent one). `message`: the message as the cache holds it when the
   * event is delivered (what getMessage(messageId) would answer in the handler), undefined when it is not cached.
   */
  messageCreated: [messageId: bigint, message: MessageSnapshot | undefined];
  /** A cached message changed (edited, moderation metadata); `message` as for messageCreated. */
  messageUpdated: [messageId: bigint, message: MessageSnapshot | undefined];
  /** A message was deleted; channelId is its DM channel (as this user sees it) or lobby. */
  messageDeleted: [messageId: bigint, channelId: bigint];
};

export const MESSAGE_EVENT_SETTERS: EventSetters<MessageEvents> = {
  // The payload is the face's MessageSnapshot as built: the handler gets it as it is.
  messageCreated: (api, client, cb) => api.Client_SetMessageCreatedCallback(client, cb),
  messageUpdated: (api, client, cb) => api.Client_SetMessageUpdatedCallback(client, cb),
  messageDeleted: (api, client, cb) => api.Client_SetMessageDeletedCallback(client, cb),
};
