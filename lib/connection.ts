// The connection's own reports beyond statusChanged: why connecting failed (ConnectionFailure → the cause of
// SvcppConnectionError) and the 'missedEvents' event after a reconnect that could not resume.
import { ConnectionFailureReason, HttpStatusCode } from './generated/enums.js';
import type { NativeApi, NativeHandle } from './generated/native-api.js';
import type { EventSetters } from './native-events.js';

/** Why connecting failed, as the SDK saw it (SvcppConnectionError.cause). */
export interface ConnectionFailureSnapshot {
  reason: ConnectionFailureReason;
  /** For a person: what failed (e.g. the certificate problem). Never holds a token. */
  message: string;
  /** Whether trying again later may succeed: never for certificate, URL or token failures. */
  retryable: boolean;
  /** The gateway close code (InvalidToken, ClosedByServer), else 0. */
  closeCode: number;
  /** The HTTP status of a failed gateway discovery, else HttpStatusCode.None. */
  httpStatus: HttpStatusCode;
}

/** Reads a ConnectionFailure into a snapshot and drops it: one crossing. */
export function takeConnectionFailure(api: NativeApi, handle: NativeHandle<'ConnectionFailure'>): ConnectionFailureSnapshot {
  const d = api.ConnectionFailure_Snapshot(handle, true);
  return { reason: d.reason, message: d.message, retryable: d.retryable, closeCode: d.closeCode, httpStatus: d.httpStatus };
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
