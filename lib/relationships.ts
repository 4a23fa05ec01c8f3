// Relationship snapshots: a native RelationshipHandle (and its user) read once into plain data; the handles are
// dropped right away (see snapshot.ts). Ids are bigint snowflakes.
import type { NativeApi, NativeHandle } from '../contract/native-api.js';
import type { RelationshipSnapshot } from '../contract/snapshots.js';
import type { EventSetters } from './native-events.js';
export type { RelationshipSnapshot } from '../contract/snapshots.js';

/** Reads a RelationshipHandle into a snapshot and drops the handle: one crossing (RelationshipHandle_Snapshot). */
export function takeRelationshipSnapshot(
  api: NativeApi,
  handle: NativeHandle<'RelationshipHandle'>,
): RelationshipSnapshot {
  return api.RelationshipHandle_Snapshot(handle, true);
}

/** Reads RelationshipHandles into snapshots and drops them (every one, also when a read throws). */
export function takeRelationshipSnapshots(
  api: NativeApi,
  handles: NativeHandle<'RelationshipHandle'>[],
): RelationshipSnapshot[] {
  const out: RelationshipSnapshot[] = [];
  let failure: unknown;
  for (const handle of handles) {
    try {
      out.push(takeRelationshipSnapshot(api, handle));
    } catch (error) {
      failure ??= error;
    }
  }
  if (failure !== undefined) throw failure;
  return out;
}

/** Relationship events of the Client. Read the relationship with getRelationship(userId) inside the listener. */
export type RelationshipEvents = {
  /**
   * A relationship was created or changed type on one axis. `relationship`: the relationship as the cache holds it
   * when the event is delivered (what getRelationship(userId) would answer in the handler), undefined when it is gone.
   */
  relationshipCreated: [
    userId: bigint,
    isPlatformRelationshipUpdate: boolean,
    relationship: RelationshipSnapshot | undefined,
  ];
  /** A relationship ended on one axis. */
  relationshipDeleted: [userId: bigint, isPlatformRelationshipUpdate: boolean];
  /** The user's group in getRelationshipsByGroup() may have changed (relationship or presence): re-query it. */
  relationshipGroupsUpdated: [userId: bigint];
};

export const RELATIONSHIP_EVENT_SETTERS: EventSetters<RelationshipEvents> = {
  // The payload is the face's RelationshipSnapshot as built: the handler gets it as it is.
  relationshipCreated: (api, client, cb) => api.Client_SetRelationshipCreatedCallback(client, cb),
  relationshipDeleted: (api, client, cb) => api.Client_SetRelationshipDeletedCallback(client, cb),
  relationshipGroupsUpdated: (api, client, cb) => api.Client_SetRelationshipGroupsUpdatedCallback(client, cb),
};
