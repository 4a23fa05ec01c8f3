/**
 * Checks on JSON received from outside (HTTP bodies, gateway and voice gateway payloads, local RPC frames, config,
 * interaction endpoints' answers, ID-token claims), made before any validation:
 * nesting depth, checked on the text so nothing recursive ever walks a hostile value, and unpaired UTF-16
 * surrogates (`"\ud800"`), which are valid JSON escapes but not text: stored and relayed, they make every strict
 * UTF-8 consumer (the SDK's parser, SQLite's UTF-8) reject or mangle the data.
 */

/** Deepest nesting of arrays and objects accepted (a body `{"a": [1]}` has depth 2). */
export const MAX_JSON_DEPTH = 64;

/** True when the JSON text nests arrays/objects deeper than `max`; a linear scan that ignores brackets in strings. */
export function exceedsJsonDepth(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}

const UNPAIRED_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export const INVALID_UNICODE = {
  code: 'STRING_TYPE_INVALID_UNICODE',
  message: 'Must be valid Unicode text (no unpaired surrogate).',
} as const;

/**
 * The path of the first string holding an unpaired surrogate, or undefined. A bad object key cannot be named in
 * an answer, so it is reported at the path of the object that holds it. Iterative: safe on any depth.
 */
export function unpairedSurrogatePath(value: unknown): Array<string | number> | undefined {
  const stack: Array<[unknown, Array<string | number>]> = [[value, []]];
  while (stack.length > 0) {
    const [node, path] = stack.pop()!;
    if (typeof node === 'string') {
      if (UNPAIRED_SURROGATE.test(node)) return path;
    } else if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) stack.push([node[i], [...path, i]]);
    } else if (node !== null && typeof node === 'object') {
      const entries = Object.entries(node);
      if (entries.some(([key]) => UNPAIRED_SURROGATE.test(key))) return path;
      for (let i = entries.length - 1; i >= 0; i--) stack.push([entries[i]![1], [...path, entries[i]![0]]]);
    }
  }
  return undefined;
}

/** What `parseClientJson` made of a text: the value, or why it is refused. */
export type ClientJson =
  | { ok: true; value: unknown }
  | { ok: false; problem: 'invalid-json' }
  /** `value` is what was read, for an answer that names parts of it (never to be stored or relayed). */
  | { ok: false; problem: 'invalid-unicode'; path: Array<string | number>; value: unknown };

/**
 * The one reading of JSON text that came from outside: too deep or not JSON → `invalid-json`; a string (or key)
 * with an unpaired surrogate → `invalid-unicode` at its path. Each input path answers these in its own protocol's
 * words (50109 / a field error over HTTP, a close code over a WebSocket, ERROR 4000 over local RPC).
 */
export function parseClientJson(text: string): ClientJson {
  if (exceedsJsonDepth(text)) return { ok: false, problem: 'invalid-json' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, problem: 'invalid-json' };
  }
  const path = unpairedSurrogatePath(value);
  return path ? { ok: false, problem: 'invalid-unicode', path, value } : { ok: true, value };
}

/** `path` as the dotted name a message shows (`activity.state`, `embeds.0.title`); the top level is `payload`. */
export function dottedPath(path: ReadonlyArray<string | number>): string {
  return path.length === 0 ? 'payload' : path.join('.');
}
