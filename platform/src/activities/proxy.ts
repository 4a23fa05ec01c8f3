/**
 * The per-application activity proxy (PROTOCOL.md §18.2): `{proxy_base}` is `<platform>/activities/<application
 * id>`, and `{proxy_base}/<path>` and `{proxy_base}/.proxy/<path>` are the same request (published: `/.proxy/` is
 * kept indefinitely, the unprefixed form is allowed too). The path goes to the first of the application's URL
 * mappings that covers it; the request and the answer pass through as they are, except:
 * - hop-by-hop headers (RFC 9110 §7.6.1: Connection and the headers it names, Keep-Alive, Proxy-*, TE, Trailer,
 *   Transfer-Encoding, Upgrade) are not forwarded in either direction; `Host` names the target;
 *   `X-Forwarded-For`, `-Host` and `-Proto` tell the target who asked, `Via` names the platform;
 * - the target passes the outbound guard (outbound/guard.ts) and is connected to at the address it checked;
 * - an application with the stricter policy gets its CSP added to every answer (policy.ts), and every answer of the
 *   path form a sandbox CSP (below);
 * - no mapping covers the path → 404, a `.`/`..` segment → 400 (in every spelling the URL parser or a target reads
 *   as one: `\`, `%5c`, `%2e`, encoded twice — url-mappings.ts `hasDotSegment`), the target unreachable or broken
 *   off → 502, all with the platform's JSON error body.
 * Bodies stream in both directions (no size limit of the platform's own; the target decides).
 */
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { PlatformKernel } from '../kernel.js';
import { ApiError, Errors } from '../http/errors.js';
import { ACTIVITY_PROXY_HOST } from '../http/hosts.js';
import { OUTBOUND_VIA, OutboundGuard, OutboundRefusedError, type ResolvedAddress } from '../outbound/guard.js';
import { ActivityErrors } from './errors.js';
import { hasStrictProxyPolicy, strictProxyPolicy } from './policy.js';
import { hasDotSegment, resolveTarget } from './url-mappings.js';
import { requireById } from '../ids/snowflake.js';

export const PROXY_PREFIX = '/activities';
const PROXY_MARKER = '/.proxy';
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** The application a Host header names in the host form (`<id>.activities.localhost[:port]`), if it does. */
function applicationOfHost(host: string | undefined): string | undefined {
  if (host === undefined) return undefined;
  try {
    return ACTIVITY_PROXY_HOST.exec(new URL(`http://${host}`).hostname)?.[1];
  } catch {
    return undefined;
  }
}

/** What the proxy reads: the kernel (the applications and their URL mappings), and the guard every target passes. */
export interface ActivityProxyServices extends PlatformKernel {
  guard: OutboundGuard;
}

export function registerActivityProxy(app: FastifyInstance, ctx: ActivityProxyServices): void {
  // The host form: every request to `<id>.activities.localhost` is the proxy's, whatever its path. Answered in
  // onRequest, before routing decides anything and before a body parser could read the stream.
  app.addHook('onRequest', async (request, reply) => {
    const applicationId = applicationOfHost(request.headers.host);
    if (applicationId === undefined) return;
    await proxy(
      ctx,
      request,
      reply,
      applicationId,
      request.url,
      `${request.protocol}://${request.headers.host}`,
      'host',
    );
    return reply;
  });
  // The path form: `<platform>/activities/<id>/…`.
  void app.register(
    async (scope) => {
      // The body is the request stream itself, passed on untouched.
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
      scope.route({
        method: METHODS,
        url: '/:applicationId/*',
        handler: async (request, reply) => {
          const { applicationId } = request.params as { applicationId: string };
          const base = `${PROXY_PREFIX}/${applicationId}`;
          await proxy(
            ctx,
            request,
            reply,
            applicationId,
            request.url.slice(base.length),
            `${request.protocol}://${request.headers.host}${base}`,
            'path',
          );
        },
      });
    },
    { prefix: PROXY_PREFIX },
  );
}

/**
 * The path form serves the target's pages under the platform's own origin: sandboxed there (scripts run, with an
 * opaque origin), so they can never read or drive the platform — a CSP's path limits alone do not hold once a
 * target redirects. Pages meant for a browser use the host form, an origin of their own (PROTOCOL.md §18.2).
 */
export const PATH_FORM_SANDBOX = 'sandbox allow-scripts allow-forms allow-popups allow-modals allow-downloads';

/** Proxies one request; `rest` is the request target after `{proxy_base}` (path and query, raw). */
async function proxy(
  ctx: ActivityProxyServices,
  request: FastifyRequest,
  reply: FastifyReply,
  applicationId: string,
  rest: string,
  proxyBase: string,
  form: 'host' | 'path',
): Promise<void> {
  const application = requireById(
    applicationId,
    (applicationId) => ctx.store.applications.get(applicationId),
    Errors.unknownApplication,
  );
  const { path, query } = splitProxyPath(rest);
  if (hasDotSegment(path)) throw Errors.httpStatus(400);
  const target = resolveTarget(ctx.store.activities.urlMappings(application.id), path, query);
  if (!target) throw ActivityErrors.noMapping();
  if (target === 'escapes') throw Errors.httpStatus(400);
  const policies = [
    ...(hasStrictProxyPolicy(application.id) ? [strictProxyPolicy(proxyBase)] : []),
    ...(form === 'path' ? [PATH_FORM_SANDBOX] : []),
  ];

  // The outbound guard: no mapping reaches the platform itself, nor a private address the operator did not allow.
  let destination: ResolvedAddress;
  try {
    destination = await ctx.guard.destination(target.url);
  } catch (error) {
    throw error instanceof OutboundRefusedError
      ? ActivityErrors.refusedTarget(error.message)
      : ActivityErrors.badGateway();
  }
  const upstream = await send(request, target.url, destination);
  if (upstream instanceof ApiError) throw upstream;
  reply.hijack();
  // The target's Date (or none) passes through; the platform adds no Date of its own.
  reply.raw.sendDate = false;
  const headers = responseHeaders(upstream, policies);
  reply.raw.writeHead(upstream.statusCode ?? 502, upstream.statusMessage, headers);
  upstream.pipe(reply.raw);
  // The target broke off mid-answer: the client must see a broken answer, not a short one that looks whole.
  upstream.once('close', () => {
    if (!upstream.complete) reply.raw.destroy();
  });
  reply.raw.once('close', () => upstream.destroy());
}

/** The raw path after `{proxy_base}` with one leading `/.proxy` removed, and the query as sent. */
function splitProxyPath(rest: string): { path: string; query: string } {
  const queryAt = rest.indexOf('?');
  const query = queryAt === -1 ? '' : rest.slice(queryAt);
  let path = (queryAt === -1 ? rest : rest.slice(0, queryAt)) || '/';
  if (path === PROXY_MARKER || path.startsWith(`${PROXY_MARKER}/`)) path = path.slice(PROXY_MARKER.length) || '/';
  return { path, query };
}

/** Sends the request to the target; resolves with its answer (headers read) or a 502 when it cannot be reached. */
function send(request: FastifyRequest, url: URL, destination: ResolvedAddress): Promise<IncomingMessage | ApiError> {
  return new Promise((resolve) => {
    const client = url.protocol === 'https:' ? https : http;
    // Connects to the address the guard checked (no second resolution).
    const outgoing = client.request(url, {
      method: request.method,
      headers: requestHeaders(request, url),
      lookup: OutboundGuard.pinnedLookup(destination),
    });
    outgoing.once('response', resolve);
    outgoing.once('error', () => resolve(ActivityErrors.badGateway()));
    // The client gave up: stop asking the target.
    request.raw.once('close', () => {
      if (!request.raw.complete) outgoing.destroy();
    });
    // Whatever body came (none for most GETs) goes on as it came, framed by the forwarded Content-Length or chunked.
    request.raw.pipe(outgoing);
  });
}

function requestHeaders(request: FastifyRequest, url: URL): string[] {
  const forwardedFor = request.headers['x-forwarded-for'];
  const via = request.headers.via;
  const replaced = new Set(['host', 'via', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto']);
  return [
    ...endToEnd(request.raw.rawHeaders, replaced),
    'Host',
    url.host,
    // Ours appended (RFC 9110 §7.6.3): the development routes refuse what the platform sends (outbound/guard.ts).
    'Via',
    via ? `${String(via)}, ${OUTBOUND_VIA}` : OUTBOUND_VIA,
    'X-Forwarded-For',
    forwardedFor ? `${String(forwardedFor)}, ${request.ip}` : request.ip,
    'X-Forwarded-Host',
    request.headers.host ?? '',
    'X-Forwarded-Proto',
    request.protocol,
  ];
}

/** The target's headers as it sent them (names, order, repeats), without hop-by-hop ones, plus our CSPs. */
function responseHeaders(upstream: IncomingMessage, policies: readonly string[]): string[] {
  // A CSP of the target's own is kept next to ours: a browser enforces every one.
  return [
    ...endToEnd(upstream.rawHeaders, new Set()),
    ...policies.flatMap((policy) => ['Content-Security-Policy', policy]),
  ];
}

/** Raw headers (`[name, value, …]`) without the hop-by-hop ones, those the Connection header names, and `dropped`. */
function endToEnd(raw: readonly string[], dropped: ReadonlySet<string>): string[] {
  const named = new Set<string>();
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.toLowerCase() === 'connection')
      for (const name of raw[i + 1]!.split(',')) named.add(name.trim().toLowerCase());
  }
  const result: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (HOP_BY_HOP.has(name) || named.has(name) || dropped.has(name)) continue;
    result.push(raw[i]!, raw[i + 1]!);
  }
  return result;
}
