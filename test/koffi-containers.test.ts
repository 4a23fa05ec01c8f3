// The koffi backend's container conversions (bindings/koffi/containers.ts): JS maps, id lists and handle arrays into
// the structs koffi passes, and maps and id spans decoded out of C memory (built here with koffi.alloc, laid out
// exactly as the library writes them). End-to-end coverage comes with the first SDK methods that use them.
import koffi from 'koffi';
import { afterEach, describe, expect, it } from 'vitest';
import {
  decodeProperties,
  decodeU64Span,
  handleSpanIn,
  propertiesIn,
  u64SpanIn,
} from '../bindings/koffi/containers.js';
import { errcError, SvcppError } from '../lib/errors.js';

// Svcpp_String as the generated declarations spell it (declared once per process, as generated.ts does).
const STRING = 'Svcpp_String';
try {
  koffi.type(STRING);
} catch {
  koffi.struct(STRING, { ptr: 'void *', size: 'size_t' });
}

const allocations: bigint[] = [];
afterEach(() => {
  for (const p of allocations.splice(0)) koffi.free(p);
});

function alloc(type: string, count: number): bigint {
  const p = koffi.alloc(type, Math.max(1, count)) as unknown as bigint;
  allocations.push(p);
  return p;
}

/** An array of Svcpp_String in C memory holding the UTF-8 of each text. */
function cStrings(texts: string[]): bigint {
  const array = alloc(STRING, texts.length);
  const structs = texts.map((text) => {
    const bytes = Buffer.from(text, 'utf8');
    const p = alloc('uint8_t', bytes.length);
    koffi.encode(p, 'uint8_t', Array.from(bytes), bytes.length);
    return { ptr: p, size: bytes.length };
  });
  koffi.encode(array, STRING, structs, texts.length);
  return array;
}

function errorCode(f: () => unknown): string | undefined {
  try {
    f();
  } catch (e) {
    return e instanceof SvcppError ? e.code : `not an SvcppError: ${String(e)}`;
  }
  return undefined;
}

describe('propertiesIn', () => {
  it('takes every own entry with its UTF-8 byte length', () => {
    expect(propertiesIn({ a: '1', clé: 'välue' })).toEqual({
      size: 2,
      keys: [
        { ptr: 'a', size: 1 },
        { ptr: 'clé', size: 4 },
      ],
      values: [
        { ptr: '1', size: 1 },
        { ptr: 'välue', size: 6 },
      ],
    });
  });

  it('an empty object is {0, NULL, NULL}', () => {
    expect(propertiesIn({})).toEqual({ size: 0, keys: null, values: null });
  });

  it('ignores inherited and symbol keys', () => {
    const value = Object.assign(Object.create({ inherited: 'x' }) as object, { own: 'y', [Symbol('s')]: 'z' });
    expect(propertiesIn(value)).toEqual({ size: 1, keys: [{ ptr: 'own', size: 3 }], values: [{ ptr: 'y', size: 1 }] });
  });

  it('rejects non-objects and non-string values with a TypeError', () => {
    for (const bad of [null, undefined, 'a=b', 3, ['x']]) expect(() => propertiesIn(bad)).toThrow(TypeError);
    expect(() => propertiesIn({ ok: 'a', count: 3 })).toThrow(/string value for key "count"/);
    expect(() => propertiesIn({ big: 1n })).toThrow(TypeError);
    expect(() => propertiesIn({ missing: undefined })).toThrow(TypeError);
  });
});

describe('u64SpanIn', () => {
  it('bigints and safe non-negative integers, as bigint', () => {
    expect(u64SpanIn([1n, 2, (1n << 64n) - 1n], errcError)).toEqual({ ptr: [1n, 2n, (1n << 64n) - 1n], size: 3 });
    expect(u64SpanIn([], errcError)).toEqual({ ptr: null, size: 0 });
  });

  it('out-of-range ids are InvalidArgument, a non-array a TypeError', () => {
    expect(errorCode(() => u64SpanIn([1n, -1n], errcError))).toBe('ERR_SVCPP_INVALID_ARGUMENT');
    expect(errorCode(() => u64SpanIn([1n << 64n], errcError))).toBe('ERR_SVCPP_INVALID_ARGUMENT');
    expect(errorCode(() => u64SpanIn([1.5], errcError))).toBe('ERR_SVCPP_INVALID_ARGUMENT');
    expect(errorCode(() => u64SpanIn(['1'], errcError))).toBe('ERR_SVCPP_INVALID_ARGUMENT');
    expect(() => u64SpanIn(1n, errcError)).toThrow(TypeError);
  });
});

describe('handleSpanIn', () => {
  it('checks every element with the given unwrapper', () => {
    const seen: unknown[] = [];
    expect(
      handleSpanIn(['a', 'b'], (e) => {
        seen.push(e);
        return { opaque: 1n };
      }),
    ).toEqual({ ptr: [{ opaque: 1n }, { opaque: 1n }], size: 2 });
    expect(seen).toEqual(['a', 'b']);
    expect(handleSpanIn([], () => ({ opaque: 1n }))).toEqual({ ptr: null, size: 0 });
  });

  it('propagates the unwrapper error and rejects non-arrays', () => {
    const bad = new SvcppError('ERR_SVCPP_INVALID_HANDLE', 'not a handle');
    expect(() =>
      handleSpanIn([{}], () => {
        throw bad;
      }),
    ).toThrow(bad);
    expect(() => handleSpanIn({ length: 0 }, () => ({}))).toThrow(TypeError);
  });
});

describe('decodeProperties', () => {
  it('reads every entry from C memory into a plain object', () => {
    const props = { size: 3, keys: cStrings(['Z', 'a', 'é']), values: cStrings(['1', '', 'ü']) };
    expect(decodeProperties(props, STRING)).toEqual({ Z: '1', a: '', é: 'ü' });
  });

  it('keeps a "__proto__" key as an entry', () => {
    const decoded = decodeProperties({ size: 1, keys: cStrings(['__proto__']), values: cStrings(['x']) }, STRING);
    expect(Object.getPrototypeOf(decoded)).toBe(Object.prototype);
    expect(Object.entries(decoded)).toEqual([['__proto__', 'x']]);
  });

  it('an empty map is {}', () => {
    expect(decodeProperties({ size: 0, keys: null, values: null }, STRING)).toEqual({});
    expect(decodeProperties({ size: 0n, keys: null, values: null }, STRING)).toEqual({});
  });
});

describe('decodeU64Span', () => {
  it('reads ids as bigint', () => {
    const ptr = alloc('uint64_t', 3);
    koffi.encode(ptr, 'uint64_t', [0n, 42n, (1n << 64n) - 1n], 3);
    expect(decodeU64Span({ ptr, size: 3 })).toEqual([0n, 42n, (1n << 64n) - 1n]);
    expect(decodeU64Span({ ptr, size: 1n })).toEqual([0n]);
  });

  it('an empty span is []', () => {
    expect(decodeU64Span({ ptr: null, size: 0 })).toEqual([]);
  });
});
