/**
 * How an uploaded file is answered (PROTOCOL.md §14.4 "Attachment files"): never as active content. The files live
 * on an origin of their own (server.ts), and on top of that:
 * - only passive types are shown inline — raster images, audio, video and plain text, which a browser cannot run;
 *   every other type (HTML, SVG, XML and XHTML, JavaScript, PDF, anything unknown) is a download
 *   (`Content-Disposition: attachment`), so a browser never renders it as a page;
 * - every answer carries `Content-Security-Policy: sandbox` (a page there would get an opaque origin, no script,
 *   no forms, no plugins) and `X-Content-Type-Options: nosniff` (a type is what it says, never sniffed into HTML).
 */

/** Types a browser shows inline without running anything: the prefixes of whole families, then exact types. */
const INLINE_FAMILIES = ['audio/', 'video/'];
const INLINE_TYPES = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/apng',
  'image/bmp',
  'image/x-icon',
  'image/vnd.microsoft.icon',
  'text/plain',
]);

/** `type/subtype` of RFC 9110 tokens, and an optional charset parameter (all an inline text needs). */
const MEDIA_TYPE = /^([!#$%&'*+.^_`|~0-9a-z-]+\/[!#$%&'*+.^_`|~0-9a-z-]+)\s*(?:;.*)?$/i;
const CHARSET = /;\s*charset\s*=\s*"?([!#$%&'*+.^_`|~0-9a-z-]+)"?/i;

export const ATTACHMENT_CSP = 'sandbox';

/** The headers of one attachment's answer (besides its length), from its stored name and type. */
export function attachmentHeaders(filename: string, storedType: string): Record<string, string> {
  const match = MEDIA_TYPE.exec(storedType.trim());
  const essence = match ? match[1]!.toLowerCase() : 'application/octet-stream';
  const charset = match ? CHARSET.exec(storedType)?.[1] : undefined;
  const inline = INLINE_TYPES.has(essence) || INLINE_FAMILIES.some((family) => essence.startsWith(family));
  return {
    'content-type': charset && essence.startsWith('text/') ? `${essence}; charset=${charset.toLowerCase()}` : essence,
    'content-disposition': `${inline ? 'inline' : 'attachment'}; ${filenameParameters(filename)}`,
    'content-security-policy': ATTACHMENT_CSP,
    'x-content-type-options': 'nosniff',
  };
}

/**
 * `filename="…"` (RFC 6266), and `filename*=UTF-8''…` (RFC 8187) when the name is not plain ASCII: names stored
 * since they are sanitised are `[A-Za-z0-9_.-]`, older ones may hold anything.
 */
function filenameParameters(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  if (ascii === filename) return `filename="${ascii}"`;
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
