// The connection's own reports beyond statusChanged: why connecting failed (ConnectionFailure → the cause of
// SvcppConnectionError) and the 'missedEvents' event after a reconnect that could not resume.
import type { NativeApi, NativeHandle } from '../contract/native-api.js';
import type { EventSetters } from './native-events.js';
import type { ConnectionFailureSnapshot } from '../contract/snapshots.js';
export type { ConnectionFailureSnapshot } from '../contract/snapshots.js';

/** Reads a ConnectionFailure into a snapshot and drops it: one crossing. */
export function takeConnectionFailure(
  api: NativeApi,
  handle: NativeHandle<'ConnectionFailure'>,
): ConnectionFailureSnapshot {
  return api.ConnectionFailure_Snapshot(handle, true);
}

export type ConnectionEvents = {
  /**
   * The client reconnected with a new session (the old one could not be resumed, e.g. after a platform restart):
   * events of the gap were not delivered. The SDK has already rebuilt its caches (users, relationships, lobbies;
   * cached messages dropped); refetch what the game keeps itself, such as message history. Fires before Ready.
   */
  missedEvents: [];
};

export const CONNECTION_EVENT_SETTERS: EventSetters<ConnectionEvents> = {
  missedEvents: (api, client, cb) => api.Client_SetMissedEventsCallback(client, cb),
};
