// Maps, u64 spans and handle arrays between JavaScript and the C structs koffi passes (svcpp.h: Svcpp_Properties,
// Svcpp_UInt64Span, Svcpp_<T>Span). Inputs become structs whose pointer members are JS arrays: koffi copies them
// into call-scoped memory, so nothing here allocates native memory. Outputs are decoded from C memory; freeing
// is the caller's (marshal.ts, handles.ts), which knows whether the memory was borrowed or is the caller's to release.
import { Errc } from './errc.js';
import { koffi } from './koffi-module.js';
import type { ErrcErrorFactory } from './error-factory.js';

/** Input Svcpp_String element of a map (koffi encodes ptr as UTF-8). */
export interface StringInView {
  ptr: string;
  size: number;
}

/** Svcpp_PropertiesIn: the input layout of Svcpp_Properties (keys/values as arrays koffi encodes). */
export interface PropertiesIn {
  size: number;
  keys: StringInView[] | null;
  values: StringInView[] | null;
}

/** Svcpp_Properties as koffi delivers it (an output or a callback argument): addresses of the two arrays. */
export interface PropertiesOut {
  size: number | bigint;
  keys: bigint | null;
  values: bigint | null;
}

/** An input span: the elements as a JS array koffi encodes ({null, 0} when empty). */
export interface SpanIn<T> {
  ptr: T[] | null;
  size: number;
}

const U64_MAX = (1n << 64n) - 1n;

/**
 * A u64 input: a bigint (or a non-negative safe integer) in [0, 2^64); otherwise the error `errors` makes of
 * InvalidArgument (as N-API).
 */
export function u64In(value: unknown, errors: ErrcErrorFactory): bigint {
  const v = typeof value === 'number' && Number.isSafeInteger(value) ? BigInt(value) : value;
  if (typeof v !== 'bigint' || v < 0n || v > U64_MAX) {
    throw errors(Errc.InvalidArgument, 'expected a bigint in [0, 2^64)');
  }
  return v;
}

/**
 * A map input: the own enumerable string keys of a non-array object (Object.entries), every value a string.
 * Keys of a JS object are unique, so the C layer's duplicate-key rule cannot trigger from here.
 */
export function propertiesIn(value: unknown): PropertiesIn {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new TypeError('expected an object of string values');
  const keys: StringInView[] = [];
  const values: StringInView[] = [];
  for (const [k, v] of Object.entries(value)) {
    if (typeof v !== 'string') throw new TypeError(`expected a string value for key ${JSON.stringify(k)}`);
    keys.push({ ptr: k, size: Buffer.byteLength(k, 'utf8') });
    values.push({ ptr: v, size: Buffer.byteLength(v, 'utf8') });
  }
  return keys.length ? { size: keys.length, keys, values } : { size: 0, keys: null, values: null };
}

/** A list:u64 input: an array of u64 values (an element out of range: as u64In). */
export function u64SpanIn(value: unknown, errors: ErrcErrorFactory): SpanIn<bigint> {
  if (!Array.isArray(value)) throw new TypeError('expected an array of bigints');
  const ids = value.map((element) => u64In(element, errors));
  return ids.length ? { ptr: ids, size: ids.length } : { ptr: null, size: 0 };
}

/** A list:obj input: the handle structs of an array of handles (each checked by `handle`). */
export function handleSpanIn<H>(value: unknown, handle: (element: unknown) => H): SpanIn<H> {
  if (!Array.isArray(value)) throw new TypeError('expected an array of handles');
  const handles = value.map(handle);
  return handles.length ? { ptr: handles, size: handles.length } : { ptr: null, size: 0 };
}

/**
 * Decodes `size` bytes of UTF-8 at ptr (NULL or 0 = ''). koffi.decode as a char array: koffi.view made an external
 * ArrayBuffer per string, which cost about 8x more.
 */
export function utf8At(ptr: bigint | null, size: number | bigint): string {
  const n = Number(size);
  if (!ptr || n === 0) return '';
  return koffi().decode(ptr, 'char', n) as string;
}

/**
 * The entries of a Svcpp_Properties in C memory as a plain object (fromEntries: a "__proto__" key stays an entry).
 * stringType names the koffi struct of Svcpp_String ({ptr: void *, size}).
 */
export function decodeProperties(props: PropertiesOut, stringType: string): Record<string, string> {
  const n = Number(props.size);
  if (n === 0 || !props.keys || !props.values) return {};
  const keys = koffi().decode(props.keys, stringType, n) as Array<{ ptr: bigint | null; size: number | bigint }>;
  const values = koffi().decode(props.values, stringType, n) as Array<{ ptr: bigint | null; size: number | bigint }>;
  return Object.fromEntries(keys.map((k, i) => [utf8At(k.ptr, k.size), utf8At(values[i].ptr, values[i].size)]));
}

/** The ids of a Svcpp_UInt64Span in C memory, always as bigint. */
export function decodeU64Span(span: { ptr: bigint | null; size: number | bigint }): bigint[] {
  const n = Number(span.size);
  if (!span.ptr || n === 0) return [];
  return Array.from(koffi().decode(span.ptr, 'uint64_t', n) as ArrayLike<bigint | number>, (v) => BigInt(v));
}
