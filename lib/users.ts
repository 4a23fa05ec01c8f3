// User snapshots: a native UserHandle (and its application profiles) read once into plain data (the handles are
// dropped right away, so a snapshot never pins native memory and is safe to keep, log or post to another thread).
import type { NativeApi, NativeHandle } from '../contract/native-api.js';
import type { UserSnapshot } from '../contract/snapshots.js';
export type { UserApplicationProfileSnapshot, UserSnapshot } from '../contract/snapshots.js';

/** Reads a UserHandle into a snapshot and drops the handle: one crossing (UserHandle_Snapshot). */
export function takeUserSnapshot(api: NativeApi, handle: NativeHandle<'UserHandle'>): UserSnapshot {
  return api.UserHandle_Snapshot(handle, true);
}
