// Values between JavaScript and the C ABI as koffi passes them: strings (in, out, borrowed), u64 and the other
// scalars, maps and id lists (containers.ts), and a non-Ok Svcpp_Errc turned into the error the caller throws.
// Handles are handles.ts; everything here is conversion, nothing is kept between calls but preallocated buffers.
import type { Errc } from './errc.js';
import type { ErrcErrorFactory } from './error-factory.js';
import {
  decodeProperties,
  decodeU64Span,
  utf8At,
  propertiesIn,
  u64In,
  u64SpanIn,
  type PropertiesIn,
  type PropertiesOut,
  type SpanIn,
} from './containers.js';

export type { PropertiesOut } from './containers.js';

const STRING_SIZE = 16; // sizeof(Svcpp_String): { uint8_t *ptr; size_t size; }
/** Strings up to this many bytes are copied into JS memory in one call (longer ones are decoded, then freed). */
const STRING_BYTES = 4096;

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

/** The C functions conversion needs: the library's allocator and its last error. */
export interface MarshalFunctions {
  free(ptr: bigint | null): void;
  /** Svcpp_FreeProperties (takes the struct by value). */
  freeProperties(props: PropertiesOut): void;
  lastErrorMessage(out: StringOut): number;
  /** Svcpp_TakeStringInto: copies an output string into buffer and frees it. */
  takeStringInto(s: Buffer, buffer: Buffer, capacity: number): number;
}

export class KoffiMarshal {
  /**
   * The one Svcpp_String out-param every string getter writes into (stringOut), read back by takeStringOut right
   * after the call. Safe to share: JS is single-threaded, and the holder is consumed before any other call is made
   * (callbacks delivered during a call only convert their own borrowed arguments, see delivery.ts).
   */
  private readonly sharedStringOut = Buffer.alloc(STRING_SIZE);
  /**
   * The same 16 bytes as { ptr, size } words: an indexed read costs far less than Buffer.readBigUInt64LE, and the
   * ptr word is zeroed as it is taken instead of filling the holder before every call (a getter that succeeds always
   * writes it, native/SEMANTICS.md "Values"), so a pointer is never read, or freed, twice.
   */
  private readonly sharedStringOutWords = new BigUint64Array(
    this.sharedStringOut.buffer,
    this.sharedStringOut.byteOffset,
    2,
  );
  /**
   * Where Svcpp_TakeStringInto copies a getter's string (and frees it) in one call: decoding library memory with
   * koffi.decode and then calling Svcpp_Free cost two calls more than reading a Buffer of our own.
   */
  private readonly stringBytes = Buffer.alloc(STRING_BYTES);

  constructor(
    private readonly fns: MarshalFunctions,
    private readonly errors: ErrcErrorFactory,
  ) {}

  // ---- errors ----

  /** Throws the error of a non-Ok Svcpp_Errc (message from Svcpp_GetLastErrorMessage). */
  check(rc: number): void {
    if (rc === 0) return;
    const out: StringOut = { ptr: null, size: 0 };
    const detail = this.fns.lastErrorMessage(out) === 0 ? this.takeString(out) : '';
    throw this.errors(rc, detail);
  }

  /**
   * The error of a misuse the binding finds itself (a wrong handle, a malformed record), as the library would say it.
   */
  error(errc: Errc, detail: string): Error {
    return this.errors(errc, detail);
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
    const words =
      out === this.sharedStringOut ? this.sharedStringOutWords : new BigUint64Array(out.buffer, out.byteOffset, 2);
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
    return u64SpanIn(value, this.errors);
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

  // ---- integers and other scalars ----

  /** u64 input: a bigint (or a non-negative safe integer) in [0, 2^64). */
  u64(value: unknown): bigint {
    return u64In(value, this.errors);
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
}
