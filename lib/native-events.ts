// Single-slot native event registrations (Client_Set<X>Callback) described as data, so an area file can list its
// events and the Client registers each one only while it has listeners.
import type { NativeApi, NativeHandle } from '../contract/native-api.js';

/** Registers (cb) or clears (null) one native event slot of a client. */
export type EventSetter<A extends unknown[]> = (
  api: NativeApi,
  client: NativeHandle<'Client'>,
  cb: ((...args: A) => void) | null,
) => void;

/** One setter per event of an event map. */
export type EventSetters<Events extends Record<string, unknown[]>> = { [K in keyof Events]: EventSetter<Events[K]> };
