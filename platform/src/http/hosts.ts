import { isIP } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from './errors.js';

/**
 * Host and Origin checks on every request (PROTOCOL.md §2). Loopback is no boundary against a browser: a page the
 * developer visits can send requests to 127.0.0.1, and with DNS rebinding (its own name resolving to 127.0.0.1)
 * read the answers — the Host header then carries the page's name, so only names we answer to are accepted. An
 * Origin header (sent by browsers on cross-site and WebSocket requests) must be loopback, a name we answer to, or
 * the request's own host (a same-origin page, e.g. the consent form).
 */

/** localhost, 127.0.0.0/8, ::1 — the names and addresses of this machine's loopback interface. */
export function isLoopbackHost(hostname: string): boolean {
  const name = unbracket(hostname).toLowerCase();
  return name === 'localhost' || name === '::1' || (isIP(name) === 4 && name.startsWith('127.'));
}

/**
 * The activity proxy's host form, `<application id>.activities.localhost` (PROTOCOL.md §18.2): a name under
 * `.localhost` that browsers resolve to loopback themselves (RFC 6761 §6.3), giving each application's pages an
 * origin of their own. Accepted as a Host because every request naming it is answered by the proxy alone (never by
 * the platform's other routes), so even a rebound name would reach nothing but the proxy. Other `.localhost` names
 * stay refused, and as an Origin it is not trusted: an activity's page must not drive the platform.
 */
export function isActivityProxyHost(hostname: string): boolean {
  return ACTIVITY_PROXY_HOST.test(hostname);
}
export const ACTIVITY_PROXY_HOST = /^(\d{1,20})\.activities\.localhost$/;

function unbracket(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

/** The hostname of a Host header value (`name`, `name:port`, `[v6]:port`), lower case; undefined when unparsable. */
function hostnameOf(authority: string): string | undefined {
  try {
    const url = new URL(`http://${authority}`);
    return url.username || url.password || url.pathname !== '/' ? undefined : url.hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

const forbidden = (what: 'Host' | 'Origin') =>
  new ApiError(
    403,
    0,
    what === 'Host'
      ? '403: Host not allowed (use an address, localhost or the configured host name)'
      : '403: Origin not allowed (cross-site request)',
  );

/**
 * Refuses requests whose Host names someone else, or whose Origin is a foreign site. `names` are the host names
 * the platform answers to besides loopback and IP addresses (the listen host, the public URL's host); `foreign`
 * are origins refused although loopback would pass: the attachments origin (uploaded files must not drive the API,
 * PROTOCOL.md §14.4).
 */
export function registerHostCheck(
  app: FastifyInstance,
  names: () => Iterable<string>,
  foreign: () => Iterable<string>,
): void {
  app.addHook('onRequest', async (request: FastifyRequest) => {
    const refused = refusal(
      request,
      new Set([...names()].map((name) => unbracket(name).toLowerCase())),
      new Set(foreign()),
    );
    if (refused) throw forbidden(refused);
  });
}

function refusal(
  request: FastifyRequest,
  known: ReadonlySet<string>,
  foreign: ReadonlySet<string>,
): 'Host' | 'Origin' | undefined {
  const host = request.headers.host === undefined ? undefined : hostnameOf(request.headers.host);
  // An IP address cannot be rebound: a page served from it would be this platform itself.
  if (
    host === undefined ||
    !(isIP(unbracket(host)) !== 0 || isLoopbackHost(host) || isActivityProxyHost(host) || known.has(unbracket(host)))
  )
    return 'Host';

  const origin = request.headers.origin;
  if (origin === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(origin);
  } catch {
    return 'Origin';
  }
  if (foreign.has(url.origin)) return 'Origin';
  const sameOrigin = url.host.toLowerCase() === request.headers.host!.toLowerCase();
  return sameOrigin || isLoopbackHost(url.hostname) || known.has(unbracket(url.hostname).toLowerCase())
    ? undefined
    : 'Origin';
}
