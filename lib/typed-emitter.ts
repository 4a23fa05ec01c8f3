// A node:events EventEmitter with typed event names and listener signatures.
import { EventEmitter } from 'node:events';

export type EventMap = Record<string, unknown[]>;
type Listener<A extends unknown[]> = (...args: A) => void;

/** What node:events itself emits about listeners. */
interface EmitterEvents {
  newListener: [event: string | symbol, listener: (...args: unknown[]) => void];
  removeListener: [event: string | symbol, listener: (...args: unknown[]) => void];
}

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- the interface below only types emit
export class TypedEventEmitter<
  Events extends EventMap,
  E extends EventMap = Events & EmitterEvents,
> extends EventEmitter {
  override on<K extends keyof E & string>(event: K, listener: Listener<E[K]>): this {
    return super.on(event, listener as Listener<unknown[]>);
  }
  override addListener<K extends keyof E & string>(event: K, listener: Listener<E[K]>): this {
    return super.addListener(event, listener as Listener<unknown[]>);
  }
  override once<K extends keyof E & string>(event: K, listener: Listener<E[K]>): this {
    return super.once(event, listener as Listener<unknown[]>);
  }
  override off<K extends keyof E & string>(event: K, listener: Listener<E[K]>): this {
    return super.off(event, listener as Listener<unknown[]>);
  }
  override removeListener<K extends keyof E & string>(event: K, listener: Listener<E[K]>): this {
    return super.removeListener(event, listener as Listener<unknown[]>);
  }
}

// emit's typed signature, without a method of its own: an override forwarding `...args` to super.emit cost every event
// a copy of its arguments and a spread call on top of EventEmitter's own (docs/gateway-hot-path.md).
export interface TypedEventEmitter<Events extends EventMap, E extends EventMap = Events & EmitterEvents> {
  emit<K extends keyof E & string>(event: K, ...args: E[K]): boolean;
}
