/**
 * URL mappings of the activity proxy (PROTOCOL.md §18.2). Each application has an ordered list of
 * `{prefix, target}`: the prefix is a path (`/api`, `/tiles/{zoom}`), the target a host with an optional port and
 * path and no scheme (published: `example.com/v1`, `{zoom}.tiles.example.com`). `{name}` in a prefix matches one
 * path segment, and the target may use the names its prefix defines. The first mapping whose prefix matches wins.
 */
import { isIP } from 'node:net';
import { z } from 'zod';
import { isLoopbackHost } from '../http/hosts.js';
import type { OutboundGuard } from '../outbound/guard.js';
import { assertOutboundUrl } from '../outbound/url-check.js';
import type { UrlMappingRecord } from '../store/activity-types.js';

/** OURS: mappings per application and the length of a prefix or target. */
export const MAX_URL_MAPPINGS = 50;
export const MAX_MAPPING_LENGTH = 256;

const PLACEHOLDER = /\{([A-Za-z0-9_]{1,32})\}/g;
const LITERAL_SEGMENT = /^[A-Za-z0-9\-._~!$&'()*+,;=:@%]+$/;
/** A placeholder takes one path segment of unreserved characters, so it can stand in a host name or a path. */
const PLACEHOLDER_VALUE = /^[A-Za-z0-9\-._~]+$/;

const names = (text: string) => [...text.matchAll(PLACEHOLDER)].map((match) => match[1]!);

/** A string of 1–256 characters that `problem` accepts; its answer is the message of the field error `code`. */
const checkedString = (problem: (text: string) => string | undefined, code: string) =>
  z
    .string()
    .min(1)
    .max(MAX_MAPPING_LENGTH)
    .superRefine((text, check) => {
      const message = problem(text);
      if (message) check.addIssue({ code: 'custom', message, params: { code } });
    });

const prefixSchema = checkedString(prefixProblem, 'URL_MAPPING_PREFIX_INVALID');
const targetSchema = checkedString(targetProblem, 'URL_MAPPING_TARGET_INVALID');

export const urlMappingSchema = z
  .object({ prefix: prefixSchema, target: targetSchema })
  .superRefine((mapping, check) => {
    const defined = new Set(names(mapping.prefix));
    const unknown = names(mapping.target).find((name) => !defined.has(name));
    if (unknown !== undefined)
      check.addIssue({
        code: 'custom',
        path: ['target'],
        message: `The prefix defines no {${unknown}}.`,
        params: { code: 'URL_MAPPING_TARGET_INVALID' },
      });
  });

export const urlMappingsSchema = z
  .array(urlMappingSchema)
  .max(MAX_URL_MAPPINGS)
  .superRefine((mappings, check) => {
    const seen = new Set<string>();
    mappings.forEach((mapping, index) => {
      if (seen.has(mapping.prefix))
        check.addIssue({
          code: 'custom',
          path: [index, 'prefix'],
          message: 'Another mapping has this prefix.',
          params: { code: 'URL_MAPPING_PREFIX_DUPLICATE' },
        });
      seen.add(mapping.prefix);
    });
  });

function prefixProblem(prefix: string): string | undefined {
  if (!prefix.startsWith('/')) return 'A prefix starts with /.';
  if (prefix === '/') return undefined;
  if (prefix.endsWith('/')) return 'A prefix other than / does not end with /.';
  for (const segment of prefix.slice(1).split('/')) {
    if (segment === '' || segment === '.' || segment === '..') return 'A prefix has no empty, . or .. segment.';
    // `/.proxy` is the proxy's own marker: `{proxy_base}/.proxy/<path>` is `{proxy_base}/<path>`.
    if (segment === '.proxy' && prefix.startsWith('/.proxy'))
      return 'A prefix cannot start with /.proxy (the proxy strips it).';
    const withoutPlaceholders = segment.replace(PLACEHOLDER, '');
    if (segment.replace(PLACEHOLDER, 'x') !== segment && withoutPlaceholders !== '')
      return 'A placeholder takes a whole segment.';
    if (withoutPlaceholders !== '' && !LITERAL_SEGMENT.test(segment))
      return 'A prefix is a plain path (no query, fragment or spaces).';
  }
  const defined = names(prefix);
  if (new Set(defined).size !== defined.length) return 'A placeholder name appears once in a prefix.';
  return undefined;
}

function targetProblem(target: string): string | undefined {
  if (/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(target)) return 'A target has no scheme (example.com/path).';
  if (/[?#\s\\]/.test(target)) return 'A target is a host and a path (no query, fragment, spaces or backslashes).';
  const url = targetUrl(
    target.replace(PLACEHOLDER, (_match, name: string) => `p${name.toLowerCase().replace(/_/g, '-')}`),
  );
  if (!url || url.username || url.password)
    return 'A target is a host name or address, an optional port and an optional path.';
  return undefined;
}

/** The URL a target (placeholders filled in) stands for: HTTPS, except plain HTTP for loopback (local servers). */
export function targetUrl(target: string): URL | undefined {
  const slash = target.indexOf('/');
  const authority = slash === -1 ? target : target.slice(0, slash);
  if (authority === '') return undefined;
  let url: URL;
  try {
    url = new URL(`https://${authority}`);
  } catch {
    return undefined;
  }
  // The authority must be what URL read (no userinfo tricks, no percent-encoded host).
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (isIP(host) === 0 && !/^[a-z0-9-]+(\.[a-z0-9-]+)*$/.test(host)) return undefined;
  const scheme = isLoopbackHost(url.hostname) ? 'http' : 'https';
  return new URL(`${scheme}://${authority}${slash === -1 ? '' : target.slice(slash)}`);
}

/**
 * Configuration time: each target the outbound guard would refuse (the platform itself, a private address the
 * operator did not allow) is a field error at `url_mappings.<i>.target`. A target with a `{name}` in its host is
 * checked when a request fills it in (the proxy's send-time check).
 */
export async function assertMappingTargets(
  guard: OutboundGuard,
  mappings: ReadonlyArray<{ target: string }>,
): Promise<void> {
  for (const [index, { target }] of mappings.entries()) {
    const slash = target.indexOf('/');
    if ((slash === -1 ? target : target.slice(0, slash)).includes('{')) continue;
    await assertOutboundUrl(guard, ['url_mappings', index, 'target'], targetUrl(target)?.toString());
  }
}

export interface ProxyTarget {
  mapping: UrlMappingRecord;
  /** The absolute URL to request (path and query of the request appended to the target). */
  url: URL;
}

/**
 * The first mapping covering `path` (a raw, still percent-encoded path without the `.proxy` marker) and the URL the
 * request goes to: the target, then the rest of the path after the prefix, then the query as it came. `'escapes'`
 * when the URL parser would take the request out of the target's path (the caller checked `hasDotSegment` first, so
 * this is the second line, measured on the URL actually sent).
 */
export function resolveTarget(
  mappings: readonly UrlMappingRecord[],
  path: string,
  query: string,
): ProxyTarget | 'escapes' | undefined {
  for (const mapping of mappings) {
    const matched = matchPrefix(mapping.prefix, path);
    if (!matched) continue;
    const target = mapping.target.replace(PLACEHOLDER, (_match, name: string) => matched.values[name]!);
    const base = targetUrl(target);
    if (!base) continue;
    const slash = target.indexOf('/');
    const basePath = slash === -1 ? '' : target.slice(slash);
    const rest = basePath.endsWith('/') && matched.rest.startsWith('/') ? matched.rest.slice(1) : matched.rest;
    const url = new URL(`${base.protocol}//${base.host}${basePath + rest || '/'}${query}`);
    const root = new URL(`${base.protocol}//${base.host}${basePath || '/'}`).pathname;
    const inside = url.pathname === root || url.pathname.startsWith(root.endsWith('/') ? root : `${root}/`);
    return inside ? { mapping, url } : 'escapes';
  }
  return undefined;
}

/**
 * Percent-decodings looked through for a dot segment beyond the URL parser's reading: a target, or a server behind
 * it, may decode the path once or twice more (`%5c` → `\`, `%252e` → `%2e` → `.`).
 */
const DECODING_ROUNDS = 3;

/**
 * A `.` or `..` segment would let a request leave its mapping's path on the target. The path is read the way the
 * WHATWG URL parser reads an http(s) path — `\` separates segments as `/` does, and `.%2e`, `%2e.`, `%2E%2E` … are dot
 * segments (URL Standard, "path state") — and again after each percent-decoding a target might apply: a dot segment
 * in any reading is refused. A path still decoding after DECODING_ROUNDS rounds is refused too (nothing legitimate
 * is encoded that deep).
 */
export function hasDotSegment(path: string): boolean {
  let reading = path;
  for (let round = 0; round <= DECODING_ROUNDS; round++) {
    if (reading.split(/[/\\]/).some((segment) => /^(\.|%2e){1,2}$/i.test(segment))) return true;
    const decoded = reading.replace(/%([0-9a-f]{2})/gi, (_escape, hex: string) =>
      String.fromCharCode(parseInt(hex, 16)),
    );
    if (decoded === reading) return false;
    reading = decoded;
  }
  return true;
}

function matchPrefix(prefix: string, path: string): { rest: string; values: Record<string, string> } | undefined {
  if (prefix === '/') return { rest: path, values: {} };
  const values: Record<string, string> = {};
  let rest = path;
  for (const segment of prefix.slice(1).split('/')) {
    if (!rest.startsWith('/')) return undefined;
    const end = rest.indexOf('/', 1);
    const actual = end === -1 ? rest.slice(1) : rest.slice(1, end);
    const placeholder = /^\{([A-Za-z0-9_]{1,32})\}$/.exec(segment);
    if (placeholder) {
      if (!PLACEHOLDER_VALUE.test(actual)) return undefined;
      values[placeholder[1]!] = actual;
    } else if (actual !== segment) {
      return undefined;
    }
    rest = end === -1 ? '' : rest.slice(end);
  }
  return { rest, values };
}
