// Hand-written support for the generated koffi binding (generated.ts): handle objects, string and u64
// conversion, callback registration, the Errc -> SvcppError mapping and the per-client pump timer.
// Everything here is about marshalling; the SDK's behaviour lives behind the C ABI.
import { Socket } from 'node:net';
import type { TypeObject } from 'koffi';
import { koffi } from './koffi-module.js';
import { errcError, SvcppError } from '../../lib/errors.js';
import type { NativeHandle } from '../../lib/generated/native-api.js';
import {
  decodeProperties, decodeU64Span, handleSpanIn, utf8At, propertiesIn, u64In, u64SpanIn, type PropertiesIn, type PropertiesOut, type SpanIn,
} from './containers.js';
import { SnapshotReader } from './snapshot_reader.js';

export type { PropertiesOut } from './containers.js';

/** koffi registers type names process-wide; a second load of this module must reuse them, not redeclare. */
export function declareType(name: string, declare: () => TypeObject): TypeObject {
  try {
    return koffi().type(name);
  } catch {
    return declare();
  }
}

/**
 * The C struct every handle is, { void *opaque }, as the 8 bytes of a Buffer allocated once per handle: koffi passes
 * a Buffer's memory as the `Svcpp_<T> *` argument, where a JS object { opaque } was converted to C (and an _Inout_ one
 * back) on every call — half the cost of a getter. Drop zeroes these bytes in place, like it zeroes a C caller's.
 */
export type HandleStruct = Buffer;

/** The struct shape koffi decodes from (or encodes into) C memory: spans of handles. */
interface HandleFields {
  opaque: bigint | number | null;
}

const HANDLE_SIZE = 8; // sizeof(void *) on the 64-bit platforms svcpp ships for
const STRING_SIZE = 16; // sizeof(Svcpp_String): { uint8_t *ptr; size_t size; }
/** Strings up to this many bytes are copied into JS memory in one call (longer ones are decoded, then freed). */
const STRING_BYTES = 4096;

function handleStructOf(fields: HandleFields): HandleStruct {
  const struct = Buffer.alloc(HANDLE_SIZE);
  struct.writeBigUInt64LE(BigInt(fields.opaque ?? 0));
  return struct;
}

/** Input Svcpp_String: koffi encodes `ptr` (a JS string) as UTF-8; `size` is its byte length. */
export interface StringIn {
  ptr: string;
  size: number;
}

/** Output / borrowed Svcpp_String: the raw pointer (to Svcpp_Free) and the byte length. */
export interface StringOut {
  ptr: bigint | null;
  size: number | bigint;
}

/** A Svcpp_<T>Span as koffi delivers it: the address of the element buffer and the element count. */
export interface SpanOut {
  ptr: bigint | null;
  size: number | bigint;
}

/** A handle as JavaScript holds it over koffi: the type it names and the struct passed to C. */
export class KoffiHandle {
  constructor(readonly type: string, readonly struct: HandleStruct) {}
}

export interface RuntimeFunctions {
  free(ptr: bigint | null): void;
  /** Svcpp_FreeProperties (takes the struct by value). */
  freeProperties(props: PropertiesOut): void;
  lastErrorMessage(out: StringOut): number;
  /** Svcpp_TakeStringInto: copies an output string into buffer and frees it. */
  takeStringInto(s: Buffer, buffer: Buffer, capacity: number): number;
  /** Svcpp_Client_OpenWakeupFd: the read end of the client's wakeup pipe. */
  clientOpenWakeupFd(self: HandleStruct, outFd: number[]): number;
  /** Svcpp_<T>_Drop per value type: run by the FinalizationRegistry for handles nobody dropped. */
  drops: Record<string, (self: HandleStruct) => number>;
  /** Svcpp_Client_DrainEvents: runs queued jobs, writing the recorded events into buffer (size into sizeOut). */
  clientDrainEvents(self: HandleStruct, maxCallbacks: number, buffer: Buffer, capacity: number, sizeOut: BigUint64Array): number;
  clientHasPendingCallbacks(self: HandleStruct): boolean;
  clientDrop(self: HandleStruct): number;
}

/**
 * How a client's queue is pumped. koffi must never be the native wakeup hook (the hook runs on an SDK thread, and a
 * koffi callback from a foreign thread would make that thread wait for the JS thread, see README), so:
 * - where the library has wakeup pipes (Svcpp_Client_OpenWakeupFd, every POSIX system), the pipe's read end is a
 *   net.Socket on the event loop: the library writes a byte when work is queued, the 'data' event pumps. Nothing runs
 *   while the client is idle, no thread waits for another, and an event reaches JS in one event-loop turn;
 * - elsewhere it polls Svcpp_Client_HasPendingCallbacks: every PUMP_BUSY_MS while work arrives or right after a call
 *   that registered a completion callback, each empty poll doubling the delay up to PUMP_IDLE_MS.
 * Either never keeps the process alive on its own (unref'd unless the client asks for a ref: pending promises,
 * listeners, a live connection).
 */
const PUMP_BUSY_MS = 1;
const PUMP_IDLE_MS = 16;
/**
 * A pump drains the queue with Svcpp_Client_DrainEvents (native/SEMANTICS.md "Event records"): the recorded events of
 * up to DRAIN_MAX_JOBS jobs come back as records in one buffer, so a burst costs one FFI call instead of one koffi
 * callback (a foreign-call trampoline into JavaScript) per event. At most DRAINS_PER_TURN drains per turn of the
 * event loop; while work remains the pump continues on the next turn (setImmediate), so timers and I/O run between.
 */
const DRAIN_MAX_JOBS = 1024;
const DRAINS_PER_TURN = 16;
/**
 * Bytes the records' buffer starts with: about a hundred events with a user payload per drain. A bigger buffer cost
 * more CPU per event in bench/gateway.ts (256 KiB: about 3.6 µs against 2.7 µs per dispatch, a loaded machine), so it
 * only grows for a record that does not fit at all.
 */
const RECORDS_CAPACITY = 16 * 1024;
/** Bytes of an event record's header: u32 record size, u32 0, u64 userData. */
const RECORD_HEADER_SIZE = 16;

/**
 * One client's pump: its wakeup socket, or its polling timer and the delay it was armed with; whether it holds the loop
 * open.
 */
interface Pump {
  wakeup?: Socket;
  timer?: NodeJS.Timeout;
  /** A continuation of a bounded pump is scheduled (see DRAINS_PER_TURN). */
  continuing?: boolean;
  delay: number;
  ref: boolean;
}

/** Reads one event record's arguments (the reader is positioned after its header) and calls deliverRecord. */
export type RecordDecoder = (records: SnapshotReader, userData: bigint) => void;

export class KoffiRuntime {
  /** Registered callbacks by the id passed as userData; userDataFree unregisters them. */
  private readonly registrations = new Map<bigint, bigint>();
  /**
   * The record decoders of the registrations whose events Svcpp_Client_DrainEvents records, by userData: a decoder
   * reads one record's arguments and hands them to deliverRecord. Ended with the registration (endRegistration).
   */
  private readonly recordDecoders = new Map<bigint, RecordDecoder>();
  /** The buffer every drain writes its records into (JS is single-threaded: decoded before the next drain). */
  private readonly records = new SnapshotReader(RECORDS_CAPACITY);
  private nextRegistration = 1n;
  /** The single Svcpp_FreeFn every triple passes: ends the registration named by userData. */
  readonly freeFn: bigint;
  /** First exception thrown by a JS callback during the current pump; rethrown when the pump returns. */
  private callbackError: { error: unknown } | undefined;
  private readonly pumps = new Map<HandleStruct, Pump>();
  /**
   * JS functions of callbacks delivered during a native pump, run once the outermost pump has returned.
   * koffi runs a callback on the native call's stack: JS that calls back into the library from there (an
   * SDK call inside an event handler) overflowed koffi's stack and killed the process ("Maximum call stack
   * size exceeded"). Deferring the JS function — after its borrowed arguments were converted — means user
   * code never runs inside a native frame, so a handler may call anything, including the pump itself.
   */
  private readonly deferred: Array<(() => void) | undefined> = [];
  /** The next entry of `deferred` to run (see runDeferred). */
  private deferredHead = 0;
  private pumpDepth = 0;
  private readonly finalizers: FinalizationRegistry<{ type: string; struct: HandleStruct }>;
  /**
   * The one Svcpp_String out-param every string getter writes into (stringOut), read back by takeStringOut right
   * after the call. Safe to share: JS is single-threaded, and the holder is consumed before any other call is made
   * (callbacks delivered during a call only convert their own borrowed arguments, see `deferred`).
   */
  private readonly sharedStringOut = Buffer.alloc(STRING_SIZE);
  /**
   * The same 16 bytes as { ptr, size } words: an indexed read costs far less than Buffer.readBigUInt64LE, and the
   * ptr word is zeroed as it is taken instead of filling the holder before every call (a getter that succeeds always
   * writes it, native/SEMANTICS.md "Values"), so a pointer is never read, or freed, twice.
   */
  private readonly sharedStringOutWords = new BigUint64Array(this.sharedStringOut.buffer, this.sharedStringOut.byteOffset, 2);
  /**
   * Where Svcpp_TakeStringInto copies a getter's string (and frees it) in one call: decoding library memory with
   * koffi.decode and then calling Svcpp_Free cost two calls more than reading a Buffer of our own.
   */
  private readonly stringBytes = Buffer.alloc(STRING_BYTES);

  constructor(private readonly fns: RuntimeFunctions) {
    this.freeFn = koffi().register((userData: bigint) => this.endRegistration(userData), koffi().pointer(koffi().type('Svcpp_FreeFn')));
    // GC only frees memory: explicit Drop / close() is the contract, this catches handles nobody dropped.
    this.finalizers = new FinalizationRegistry(({ type, struct }) => {
      if (type === 'Client') this.pumping(() => this.dropClient(struct));
      else fns.drops[type]?.(struct);
    });
  }

  // ---- errors ----

  /** Throws the SvcppError of a non-Ok Svcpp_Errc (message from Svcpp_GetLastErrorMessage). */
  check(rc: number): void {
    if (rc === 0) return;
    const out: StringOut = { ptr: null, size: 0 };
    const detail = this.fns.lastErrorMessage(out) === 0 ? this.takeString(out) : '';
    throw errcError(rc, detail);
  }

  invalidHandle(type: string): SvcppError {
    return new SvcppError('ERR_SVCPP_INVALID_HANDLE', `expected a ${type} handle of the koffi backend`);
  }

  // ---- handles ----

  /** The C struct of a handle, after checking it names the expected type. */
  handle(type: string, value: unknown): HandleStruct {
    if (value instanceof KoffiHandle && value.type === type) return value.struct;
    throw this.invalidHandle(type);
  }

  /** Wraps a struct the library just wrote; a Client also gets its pump timer. */
  adopt<T extends string>(type: T, struct: HandleStruct): NativeHandle<T> {
    const handle = new KoffiHandle(type, struct);
    if (type === 'Client') this.startPump(struct);
    this.finalizers.register(handle, { type, struct }, handle);
    return handle as unknown as NativeHandle<T>;
  }

  /** A JS-owned copy (via Svcpp_<T>_Clone) of an object borrowed by a callback for its duration. */
  cloneBorrowed<T extends string>(type: T, borrowed: unknown, clone: (self: HandleStruct, other: unknown) => number): NativeHandle<T> {
    const created = this.newHandleStruct();
    this.check(clone(created, borrowed));
    return this.adopt(type, created);
  }

  /** JS-owned copies of the elements of a span a callback borrows (elementCType: the C handle struct, Svcpp_<T>). */
  cloneSpan<T extends string>(type: T, elementCType: string, borrowed: SpanOut,
    clone: (self: HandleStruct, other: unknown) => number): NativeHandle<T>[] {
    return this.spanElements(elementCType, borrowed).map((element) => this.cloneBorrowed(type, element, clone));
  }

  /**
   * Adopts the elements of a result span (each is then released by its own Drop or finalizer) and frees the
   * buffer with Svcpp_Free — never the span's Drop, which would drop the adopted elements a second time.
   */
  adoptSpan<T extends string>(type: T, elementCType: string, owned: SpanOut): NativeHandle<T>[] {
    try {
      return this.spanElements(elementCType, owned).map((element) => this.adopt(type, element));
    } finally {
      this.fns.free(owned.ptr);
    }
  }

  /** The element structs of a span, copied out of C memory ({NULL, 0} is empty). */
  private spanElements(elementCType: string, span: SpanOut): HandleStruct[] {
    const size = Number(span.size);
    if (!span.ptr || size === 0) return [];
    return (koffi().decode(span.ptr, elementCType, size) as HandleFields[]).map(handleStructOf);
  }

  /** A zeroed handle struct for a call that creates an object (Init, Clone, a getter returning an object). */
  newHandleStruct(): HandleStruct {
    return Buffer.alloc(HANDLE_SIZE);
  }

  /** Called after an explicit Drop: the finalizer has nothing left to do. */
  forget(value: unknown): void {
    if (value instanceof KoffiHandle) this.finalizers.unregister(value);
  }

  // ---- strings ----

  str(value: unknown): StringIn {
    if (typeof value !== 'string') throw new TypeError('expected a string');
    return { ptr: value, size: Buffer.byteLength(value, 'utf8') };
  }

  optionalStr(value: unknown): StringIn | null {
    return value === undefined || value === null ? null : this.str(value);
  }

  /** Decodes a borrowed Svcpp_String (callback arguments). */
  borrowString(s: StringOut): string {
    return utf8At(s.ptr, s.size);
  }

  /** The shared Svcpp_String out-param of a string getter (see sharedStringOut; its ptr word is 0 between calls). */
  stringOut(): Buffer {
    return this.sharedStringOut;
  }

  /** Decodes the string a getter wrote into stringOut(), frees it with Svcpp_Free and zeroes the holder's ptr. */
  takeStringOut(out: Buffer): string {
    const words = out === this.sharedStringOut ? this.sharedStringOutWords : new BigUint64Array(out.buffer, out.byteOffset, 2);
    const ptr = words[0]!;
    if (ptr === 0n) return '';
    const size = Number(words[1]!);
    // Copied and freed in one call; the call zeroes the holder (its ptr word is 0 again).
    if (size <= STRING_BYTES && this.fns.takeStringInto(out, this.stringBytes, STRING_BYTES) === 0) {
      return size === 0 ? '' : this.stringBytes.toString('utf8', 0, size);
    }
    words[0] = 0n;
    try {
      return utf8At(ptr, words[1]!);
    } finally {
      this.fns.free(ptr);
    }
  }

  /** Decodes an output Svcpp_String and frees it with Svcpp_Free (never the JS allocator). */
  takeString(s: StringOut): string {
    try {
      return this.borrowString(s);
    } finally {
      this.fns.free(s.ptr);
    }
  }

  // ---- maps and id lists (containers.ts) ----

  /** A map input (Svcpp_PropertiesIn): a plain object of strings. */
  properties(value: unknown): PropertiesIn {
    return propertiesIn(value);
  }

  /** A borrowed map (callback argument) as a plain object. */
  borrowProperties(props: PropertiesOut): Record<string, string> {
    return decodeProperties(props, 'Svcpp_String');
  }

  /** A result map as a plain object; the C map is released with Svcpp_FreeProperties. */
  takeProperties(props: PropertiesOut): Record<string, string> {
    try {
      return this.borrowProperties(props);
    } finally {
      this.fns.freeProperties(props);
    }
  }

  /** A list:u64 input: an array of bigints. */
  u64Span(value: unknown): SpanIn<bigint> {
    return u64SpanIn(value);
  }

  /** A borrowed Svcpp_UInt64Span (callback argument) as bigints. */
  borrowU64Span(span: SpanOut): bigint[] {
    return decodeU64Span(span);
  }

  /** A result Svcpp_UInt64Span as bigints; its buffer is freed with Svcpp_Free. */
  takeU64Span(span: SpanOut): bigint[] {
    try {
      return decodeU64Span(span);
    } finally {
      this.fns.free(span.ptr);
    }
  }

  /** A list:obj input: the structs of an array of handles of `type` (the library copies the elements). */
  handleSpan(type: string, value: unknown): SpanIn<HandleFields> {
    // An array of structs is encoded element by element from objects: the elements' fields, not their Buffers.
    return handleSpanIn(value, (element): HandleFields => ({ opaque: this.handle(type, element).readBigUInt64LE(0) }));
  }

  // ---- integers ----

  /** u64 input: a bigint (or a non-negative safe integer) in [0, 2^64). */
  u64(value: unknown): bigint {
    return u64In(value);
  }

  /** koffi returns small 64-bit values as number; ids are always bigint. */
  u64Out(value: unknown): bigint {
    return typeof value === 'bigint' ? value : BigInt(value as number);
  }

  bool(value: unknown): boolean {
    if (typeof value !== 'boolean') throw new TypeError('expected a boolean');
    return value;
  }

  /** A JS function for a non-nullable callback parameter. */
  fn<F>(value: F): F {
    if (typeof value !== 'function') throw new TypeError('expected a function');
    return value;
  }

  /** Enum and i32 inputs: koffi would silently wrap a non-number, N-API throws; do the same here. */
  int(value: unknown): number {
    if (typeof value !== 'number') throw new TypeError('expected a number');
    return value;
  }

  // ---- callbacks ----

  /**
   * Registers a JS trampoline for a callback typedef. Returns the C function pointer and the userData
   * that names the registration; Svcpp_FreeFn (freeFn) unregisters it when the library ends it.
   */
  register(trampoline: (...args: never[]) => void, proto: TypeObject, decodeRecord?: RecordDecoder): { pointer: bigint; userData: bigint } {
    const guarded = (...args: never[]) => {
      try {
        trampoline(...args);
      } catch (error) {
        // Exceptions must not cross the C ABI: keep the first, rethrow after the pump returns.
        this.callbackError ??= { error };
      }
    };
    const pointer = koffi().register(guarded, koffi().pointer(proto));
    const userData = this.nextRegistration++;
    this.registrations.set(userData, pointer);
    if (decodeRecord) this.recordDecoders.set(userData, decodeRecord);
    this.wakePumps();
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

  /** Runs fn(...args) now, or after the pump that is running returns (see `deferred`). */
  deliver<A extends unknown[]>(fn: (...args: A) => unknown, ...args: A): void {
    if (this.pumpDepth > 0) this.deferred.push(() => void fn(...args));
    else fn(...args);
  }

  /**
   * Queues the JS function of a decoded event record like deliver; it runs only if the registration is still current
   * then (a handler earlier in the same batch may have replaced it: its events never reach the old function).
   */
  deliverRecord<A extends unknown[]>(userData: bigint, fn: (...args: A) => unknown, ...args: A): void {
    this.deferred.push(() => {
      if (this.recordDecoders.has(userData)) fn(...args);
    });
  }

  /** Makes a native call that may run callbacks; their JS functions run after it, in delivery order. */
  pumping<T>(call: () => T): T {
    this.pumpDepth += 1;
    try {
      return call();
    } finally {
      this.pumpDepth -= 1;
      if (this.pumpDepth === 0) this.runDeferred();
    }
  }

  private runDeferred(): void {
    // A function may pump again: its own deliveries join the end of this queue and the nested runDeferred carries
    // on from the shared head, so the order holds. An index walk, not shift(): shift() of a long array moves every
    // element, which cost ~9 µs per event when one pump delivered 20,000 (bench/gateway.ts).
    const queue = this.deferred;
    while (this.deferredHead < queue.length) {
      const next = queue[this.deferredHead]!;
      queue[this.deferredHead] = undefined; // the closure and the arguments it holds are garbage once run
      this.deferredHead += 1;
      try {
        next();
      } catch (error) {
        this.callbackError ??= { error };
      }
    }
    queue.length = 0;
    this.deferredHead = 0;
  }

  /** Rethrows the first exception a JS callback threw during the pump that just returned. */
  rethrowCallbackError(): void {
    const pending = this.callbackError;
    this.callbackError = undefined;
    if (pending) throw pending.error;
  }

  // ---- pump ----

  private startPump(struct: HandleStruct): void {
    const pump: Pump = { delay: PUMP_BUSY_MS, ref: false };
    this.pumps.set(struct, pump);
    pump.wakeup = this.openWakeup(struct, pump);
    if (!pump.wakeup) this.armPump(struct, pump, PUMP_BUSY_MS);
  }

  /** The client's wakeup pipe as a socket whose every 'data' event pumps; undefined where the library has none. */
  private openWakeup(struct: HandleStruct, pump: Pump): Socket | undefined {
    const fd = [-1];
    if (this.fns.clientOpenWakeupFd(struct, fd) !== 0) return undefined;
    const socket = new Socket({ fd: fd[0]!, readable: true, writable: false });
    socket.on('data', () => this.pumpNow(struct, pump));
    // End of file: the client was dropped (the library closed its end). An error can only be the pipe's own.
    socket.on('end', () => socket.destroy());
    socket.on('error', () => socket.destroy());
    socket.unref();
    return socket;
  }

  /** Delivers what the client has queued (the wakeup socket's 'data' handler, and its own continuation). */
  private pumpNow(struct: HandleStruct, pump: Pump): void {
    if (this.pumps.get(struct) !== pump) return; // dropped meanwhile
    if (this.deliverQueued(struct, pump) && !pump.continuing) {
      // Bounded per turn, and the queue never went empty, so no wakeup byte comes for what is left: continue here.
      pump.continuing = true;
      setImmediate(() => {
        pump.continuing = false;
        this.pumpNow(struct, pump);
      });
    }
  }

  /**
   * Up to DRAINS_PER_TURN drains of the client's queue; then the JS functions of everything delivered run, in queue
   * order. Returns whether work is still queued.
   */
  private deliverQueued(struct: HandleStruct, pump: Pump): boolean {
    let more = false;
    this.pumpDepth += 1;
    try {
      for (let i = 0; i < DRAINS_PER_TURN; i++) {
        this.drainOnce(struct);
        more = this.fns.clientHasPendingCallbacks(struct);
        if (!more) break;
      }
    } finally {
      this.pumpDepth -= 1;
      if (this.pumpDepth === 0) this.runDeferred();
    }
    more &&= this.pumps.get(struct) === pump; // a handler may have dropped the client
    this.rethrowCallbackError();
    return more;
  }

  /**
   * One Svcpp_Client_DrainEvents call. The koffi callbacks it made (the completion that ended it) have queued their JS
   * functions already; the call's records came before them in the queue, so their functions go in first.
   */
  private drainOnce(struct: HandleStruct): void {
    const records = this.records;
    const mark = this.deferred.length;
    let rc: number;
    // needsRetry: the first record alone did not fit (nothing ran); the buffer has grown to hold it.
    do rc = this.fns.clientDrainEvents(struct, DRAIN_MAX_JOBS, records.buffer, records.capacity, records.sizeOut);
    while (rc === 0 && records.needsRetry());
    this.check(rc);
    const size = records.size();
    if (size === 0) return;
    const callbacks = this.deferred.length > mark ? this.deferred.splice(mark) : undefined;
    for (let at = 0; at < size;) {
      records.seek(at);
      const recordSize = records.u32();
      records.u32(); // reserved
      const userData = records.u64();
      if (recordSize < RECORD_HEADER_SIZE) throw new SvcppError('ERR_SVCPP_INTERNAL', `malformed event record at byte ${at}`);
      // No decoder: the registration ended before the drain's records were read; its events are not delivered.
      this.recordDecoders.get(userData)?.(records, userData);
      at += recordSize;
    }
    if (callbacks) for (const callback of callbacks) this.deferred.push(callback);
  }

  /** (Re)arms a polling pump's timer to fire after `delay` ms, keeping its ref state. */
  private armPump(struct: HandleStruct, pump: Pump, delay: number): void {
    pump.delay = delay;
    pump.timer = setTimeout(() => this.pumpTick(struct, pump), delay);
    if (!pump.ref) pump.timer.unref();
  }

  private pumpTick(struct: HandleStruct, pump: Pump): void {
    if (this.pumps.get(struct) !== pump) return; // dropped meanwhile
    const fired = pump.timer;
    let busy = false;
    try {
      if (this.fns.clientHasPendingCallbacks(struct)) {
        busy = true;
        this.deliverQueued(struct, pump);
      }
    } finally {
      // A handler may have dropped the client (then its pump is gone) or woken the pump (then it is armed already).
      if (this.pumps.get(struct) === pump && pump.timer === fired) {
        this.armPump(struct, pump, busy ? PUMP_BUSY_MS : Math.min(pump.delay * 2, PUMP_IDLE_MS));
      }
    }
  }

  /** A call registered a completion callback: poll every polling pump at the busy rate until its answer has come. */
  private wakePumps(): void {
    for (const [struct, pump] of this.pumps) {
      if (!pump.timer || pump.delay === PUMP_BUSY_MS) continue;
      clearTimeout(pump.timer);
      this.armPump(struct, pump, PUMP_BUSY_MS);
    }
  }

  setPumpRef(struct: HandleStruct, ref: boolean): void {
    const pump = this.pumps.get(struct);
    if (!pump) return;
    pump.ref = ref;
    const handle = pump.wakeup ?? pump.timer;
    if (ref) handle?.ref();
    else handle?.unref();
  }

  /** Drops a client and stops its pump (the C Drop delivers what is pending and frees every registration). */
  dropClient(struct: HandleStruct): number {
    const rc = this.fns.clientDrop(struct);
    if (rc === 0) {
      const pump = this.pumps.get(struct);
      clearTimeout(pump?.timer);
      pump?.wakeup?.destroy();
      this.pumps.delete(struct);
    }
    return rc;
  }
}
