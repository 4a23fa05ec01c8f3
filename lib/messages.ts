// Message snapshots: native MessageHandle / ChannelHandle / UserMessageSummary objects read once into plain data;
// the handles are dropped right away (see snapshot.ts). Ids are bigint snowflakes; timestamps Unix milliseconds.
import type { NativeApi, NativeHandle } from '../contract/native-api.js';
import type { EventSetters } from './native-events.js';
import type { ChannelSnapshot, MessageSnapshot, UserMessageSummarySnapshot } from '../contract/snapshots.js';
export type {
  AdditionalContentSnapshot,
  ChannelSnapshot,
  MessageSnapshot,
  UserMessageSummarySnapshot,
} from '../contract/snapshots.js';

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
  return api.ChannelHandle_Snapshot(handle, true);
}

/** Reads UserMessageSummary values into snapshots and drops them (one crossing each). */
export function takeSummarySnapshots(
  api: NativeApi,
  handles: NativeHandle<'UserMessageSummary'>[],
): UserMessageSummarySnapshot[] {
  return handles.map((handle) => api.UserMessageSummary_Snapshot(handle, true));
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
