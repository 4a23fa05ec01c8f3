// Handles over koffi: the JS object that stands for a Svcpp_<T>, the C struct it carries, and who releases it —
// an explicit Drop, or the FinalizationRegistry for a handle nobody dropped. A Client's pump is started when its
// handle is made and stopped when it is collected (the pump itself is pump.ts).
import type { NativeHandle } from '../../contract/native-api.js';
import { handleSpanIn, type SpanIn } from './containers.js';
import { Errc } from './errc.js';
import { koffi } from './koffi-module.js';
import type { KoffiMarshal, SpanOut } from './marshal.js';

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

function handleStructOf(fields: HandleFields): HandleStruct {
  const struct = Buffer.alloc(HANDLE_SIZE);
  struct.writeBigUInt64LE(BigInt(fields.opaque ?? 0));
  return struct;
}

/** A handle as JavaScript holds it over koffi: the type it names and the struct passed to C. */
export class KoffiHandle {
  constructor(
    readonly type: string,
    readonly struct: HandleStruct,
  ) {}
}

/** The C functions handles need: Svcpp_<T>_Drop per value type, and the allocator for result spans. */
export interface HandleFunctions {
  free(ptr: bigint | null): void;
  /** Svcpp_<T>_Drop per value type: run by the FinalizationRegistry for handles nobody dropped. */
  drops: Record<string, (self: HandleStruct) => number>;
}

/**
 * What happens to a Client beyond its handle: its pump starts with the handle, and a collected one is dropped by it.
 */
export interface ClientLifecycle {
  adopted(struct: HandleStruct): void;
  collected(struct: HandleStruct): void;
}

export class KoffiHandles {
  private readonly finalizers: FinalizationRegistry<{ type: string; struct: HandleStruct }>;

  constructor(
    private readonly fns: HandleFunctions,
    private readonly marshal: KoffiMarshal,
    private readonly clients: ClientLifecycle,
  ) {
    // GC only frees memory: explicit Drop / close() is the contract, this catches handles nobody dropped.
    this.finalizers = new FinalizationRegistry(({ type, struct }) => {
      if (type === 'Client') clients.collected(struct);
      else fns.drops[type]?.(struct);
    });
  }

  /** The C struct of a handle, after checking it names the expected type. */
  handle(type: string, value: unknown): HandleStruct {
    if (value instanceof KoffiHandle && value.type === type) return value.struct;
    throw this.marshal.error(Errc.InvalidHandle, `expected a ${type} handle of the koffi backend`);
  }

  /** A list:obj input: the structs of an array of handles of `type` (the library copies the elements). */
  handleSpan(type: string, value: unknown): SpanIn<HandleFields> {
    // An array of structs is encoded element by element from objects: the elements' fields, not their Buffers.
    return handleSpanIn(value, (element): HandleFields => ({ opaque: this.handle(type, element).readBigUInt64LE(0) }));
  }

  /** Wraps a struct the library just wrote; a Client also gets its pump. */
  adopt<T extends string>(type: T, struct: HandleStruct): NativeHandle<T> {
    const handle = new KoffiHandle(type, struct);
    if (type === 'Client') this.clients.adopted(struct);
    this.finalizers.register(handle, { type, struct }, handle);
    return handle as unknown as NativeHandle<T>;
  }

  /** A JS-owned copy (via Svcpp_<T>_Clone) of an object borrowed by a callback for its duration. */
  cloneBorrowed<T extends string>(
    type: T,
    borrowed: unknown,
    clone: (self: HandleStruct, other: unknown) => number,
  ): NativeHandle<T> {
    const created = this.newHandleStruct();
    this.marshal.check(clone(created, borrowed));
    return this.adopt(type, created);
  }

  /** JS-owned copies of the elements of a span a callback borrows (elementCType: the C handle struct, Svcpp_<T>). */
  cloneSpan<T extends string>(
    type: T,
    elementCType: string,
    borrowed: SpanOut,
    clone: (self: HandleStruct, other: unknown) => number,
  ): NativeHandle<T>[] {
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
}
