// The per-client pump: what makes a client's queued work (events, completions) reach JavaScript over koffi.
import { Socket } from 'node:net';
import type { DeferredDelivery } from './delivery.js';
import { Errc } from './errc.js';
import type { HandleStruct } from './handles.js';
import type { KoffiMarshal } from './marshal.js';
import type { CallbackRegistrations } from './registrations.js';
import { SnapshotReader } from './snapshot_reader.js';

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

/** The C functions of a client's queue. */
export interface PumpFunctions {
  /** Svcpp_Client_OpenWakeupFd: the read end of the client's wakeup pipe. */
  clientOpenWakeupFd(self: HandleStruct, outFd: number[]): number;
  /** Svcpp_Client_DrainEvents: runs queued jobs, writing the recorded events into buffer (size into sizeOut). */
  clientDrainEvents(
    self: HandleStruct,
    maxCallbacks: number,
    buffer: Buffer,
    capacity: number,
    sizeOut: BigUint64Array,
  ): number;
  clientHasPendingCallbacks(self: HandleStruct): boolean;
  clientDrop(self: HandleStruct): number;
}

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

export class ClientPumps {
  private readonly pumps = new Map<HandleStruct, Pump>();
  /** The buffer every drain writes its records into (JS is single-threaded: decoded before the next drain). */
  private readonly records = new SnapshotReader(RECORDS_CAPACITY);

  constructor(
    private readonly fns: PumpFunctions,
    private readonly marshal: KoffiMarshal,
    private readonly delivery: DeferredDelivery,
    private readonly registrations: CallbackRegistrations,
  ) {}

  /** A client was made: its pump starts (unref'd). */
  start(struct: HandleStruct): void {
    const pump: Pump = { delay: PUMP_BUSY_MS, ref: false };
    this.pumps.set(struct, pump);
    pump.wakeup = this.openWakeup(struct, pump);
    if (!pump.wakeup) this.armPump(struct, pump, PUMP_BUSY_MS);
  }

  /** The client's wakeup pipe as a socket whose every 'data' event pumps; undefined where the library has none. */
  private openWakeup(struct: HandleStruct, pump: Pump): Socket | undefined {
    // Windows has no wakeup pipes (Svcpp_Client_OpenWakeupFd answers NotSupported there), so it is not asked: the
    // refusal is a C++ exception caught inside the call, and under Wine one thrown on koffi's stack makes Wine report
    // it as unhandled (and start its debugger) before the library's own handler catches it (docs/platforms.md).
    if (process.platform === 'win32') return undefined;
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
    let more = this.delivery.pumping(() => {
      for (let i = 0; i < DRAINS_PER_TURN; i++) {
        this.drainOnce(struct);
        if (!this.fns.clientHasPendingCallbacks(struct)) return false;
      }
      return true;
    });
    more &&= this.pumps.get(struct) === pump; // a handler may have dropped the client
    this.delivery.rethrowCallbackError();
    return more;
  }

  /**
   * One Svcpp_Client_DrainEvents call. The koffi callbacks it made (the completion that ended it) have queued their JS
   * functions already; the call's records came before them in the queue, so their functions go in first.
   */
  private drainOnce(struct: HandleStruct): void {
    const records = this.records;
    const mark = this.delivery.mark();
    let rc: number;
    // needsRetry: the first record alone did not fit (nothing ran); the buffer has grown to hold it.
    do rc = this.fns.clientDrainEvents(struct, DRAIN_MAX_JOBS, records.buffer, records.capacity, records.sizeOut);
    while (rc === 0 && records.needsRetry());
    this.marshal.check(rc);
    const size = records.size();
    if (size === 0) return;
    const callbacks = this.delivery.takeSince(mark);
    for (let at = 0; at < size;) {
      records.seek(at);
      const recordSize = records.u32();
      records.u32(); // reserved
      const userData = records.u64();
      if (recordSize < RECORD_HEADER_SIZE)
        throw this.marshal.error(Errc.Internal, `malformed event record at byte ${at}`);
      // No decoder: the registration ended before the drain's records were read; its events are not delivered.
      this.registrations.recordDecoder(userData)?.(records, userData);
      at += recordSize;
    }
    if (callbacks) this.delivery.requeue(callbacks);
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
  wake(): void {
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
