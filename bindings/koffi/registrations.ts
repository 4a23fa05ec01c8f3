// Callback registrations: each JS trampoline the library may call is a koffi-registered function pointer, named in the
// C call by a userData id; the single Svcpp_FreeFn every callback triple passes ends the registration that id names.
// A registration whose events Svcpp_Client_DrainEvents records also has the decoder of those records (pump.ts).
import type { TypeObject } from 'koffi';
import type { DeferredDelivery } from './delivery.js';
import { koffi } from './koffi-module.js';
import type { SnapshotReader } from './snapshot_reader.js';

/** Reads one event record's arguments (the reader is positioned after its header) and calls deliverRecord. */
export type RecordDecoder = (records: SnapshotReader, userData: bigint) => void;

export class CallbackRegistrations {
  /** Registered callbacks by the id passed as userData; userDataFree unregisters them. */
  private readonly registrations = new Map<bigint, bigint>();
  /**
   * The record decoders of the registrations whose events Svcpp_Client_DrainEvents records, by userData: a decoder
   * reads one record's arguments and hands them to deliverRecord. Ended with the registration (endRegistration).
   */
  private readonly recordDecoders = new Map<bigint, RecordDecoder>();
  private nextRegistration = 1n;
  /** The single Svcpp_FreeFn every triple passes: ends the registration named by userData. */
  readonly freeFn: bigint;

  /** onRegistered: a call is about to wait for a callback (the pumps poll faster, see pump.ts). */
  constructor(
    private readonly delivery: DeferredDelivery,
    private readonly onRegistered: () => void,
  ) {
    this.freeFn = koffi().register(
      (userData: bigint) => this.endRegistration(userData),
      koffi().pointer(koffi().type('Svcpp_FreeFn')),
    );
  }

  /**
   * Registers a JS trampoline for a callback typedef. Returns the C function pointer and the userData
   * that names the registration; Svcpp_FreeFn (freeFn) unregisters it when the library ends it.
   */
  register(
    trampoline: (...args: never[]) => void,
    proto: TypeObject,
    decodeRecord?: RecordDecoder,
  ): { pointer: bigint; userData: bigint } {
    const guarded = (...args: never[]) => {
      try {
        trampoline(...args);
      } catch (error) {
        // Exceptions must not cross the C ABI: keep the first, rethrow after the pump returns.
        this.delivery.recordError(error);
      }
    };
    const pointer = koffi().register(guarded, koffi().pointer(proto));
    const userData = this.nextRegistration++;
    this.registrations.set(userData, pointer);
    if (decodeRecord) this.recordDecoders.set(userData, decodeRecord);
    this.onRegistered();
    return { pointer, userData };
  }

  /** Ends a registration: from Svcpp_FreeFn, or by the caller when the C call rejected the triple. */
  endRegistration(userData: bigint | number): void {
    const key = BigInt(userData);
    const pointer = this.registrations.get(key);
    if (pointer === undefined) return;
    this.registrations.delete(key);
    this.recordDecoders.delete(key);
    koffi().unregister(pointer);
  }

  /** The decoder of a registration's event records; undefined once the registration has ended. */
  recordDecoder(userData: bigint): RecordDecoder | undefined {
    return this.recordDecoders.get(userData);
  }

  /**
   * Queues the JS function of a decoded event record (see delivery.ts); it runs only if the registration is still
   * current then (a handler earlier in the same batch may have replaced it: its events never reach the old function).
   */
  deliverRecord<A extends unknown[]>(userData: bigint, fn: (...args: A) => unknown, ...args: A): void {
    this.delivery.defer(() => {
      if (this.recordDecoders.has(userData)) fn(...args);
    });
  }
}
