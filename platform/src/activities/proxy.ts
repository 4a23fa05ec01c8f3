/**
 * The per-application activity proxy (PROTOCOL.md §18.2): `{proxy_base}` is `<platform>/activities/<application
 * id>`, and `{proxy_base}/<path>` and `{proxy_base}/.proxy/<path>` are the same request (published: `/.proxy/` is
 * kept indefinitely, the unprefixed form is allowed too). The path goes to the first of the application's URL
 * mappings that covers it; the request and the answer pass through as they are, except:
 * - hop-by-hop headers (RFC 9110 §7.6.1: Connection and the headers it names, Keep-Alive, Proxy-*, TE, Trailer,
 *   Transfer-Encoding, Upgrade) are not forwarded in either direction; `Host` names the target;
 *   `X-Forwarded-For`, `-Host` and `-Proto` tell the target who asked;
 * - an application with the stricter policy gets its CSP added to every answer (policy.ts);
 * - no mapping covers the path → 404, a `.`/`..` segment → 400, the target unreachable or broken off → 502, all
 *   with the platform's JSON error body.
 * Bodies stream in both directions (no size limit of the platform's own; the target decides).
 */
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { PlatformContext } from '../context.js';
import { ApiError, Errors } from '../http/errors.js';
import { ActivityErrors } from './errors.js';
import { hasStrictProxyPolicy, strictProxyPolicy } from './policy.js';
import { hasDotSegment, resolveTarget } from './url-mappings.js';

export const PROXY_PREFIX = '/activities';
const PROXY_MARKER = '/.proxy';
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

/** `{proxy_base}` of an application as the request reached the platform. */
export function proxyBaseOf(request: FastifyRequest, applicationId: string): string {
  return `${request.protocol}://${request.headers.host}${PROXY_PREFIX}/${applicationId}`;
}

export function registerActivityProxy(app: FastifyInstance, ctx: PlatformContext): void {
  void app.register(
    async (scope) => {
      // The body is the request stream itself, passed on untouched.
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
      scope.route({
        method: METHODS,
        url: '/:applicationId/*',
        handler: async (request, reply) => proxy(ctx, request as FastifyRequest<{ Params: { applicationId: string } }>, reply),
      });
    },
    { prefix: PROXY_PREFIX },
  );
}

async function proxy(ctx: PlatformContext, request: FastifyRequest<{ Params: { applicationId: string } }>, reply: FastifyReply): Promise<void> {
  const applicationId = request.params.applicationId;
  const application = /^\d{1,20}$/.test(applicationId) ? ctx.store.applications.get(applicationId) : undefined;
  if (!application) throw Errors.unknownApplication();
  const { path, query } = pathAfterBase(request.url, applicationId);
  if (hasDotSegment(path)) throw Errors.httpStatus(400);
  const target = resolveTarget(ctx.store.activities.urlMappings(application.id), path, query);
  if (!target) throw ActivityErrors.noMapping();
  const extraHeaders: Record<string, string> = hasStrictProxyPolicy(application.id) ? { 'content-security-policy': strictProxyPolicy(proxyBaseOf(request, application.id)) } : {};

  const upstream = await send(request, target.url);
  if (upstream instanceof ApiError) throw upstream;
  reply.hijack();
  // The target's Date (or none) passes through; the platform adds no Date of its own.
  reply.raw.sendDate = false;
  const headers = responseHeaders(upstream, extraHeaders);
  reply.raw.writeHead(upstream.statusCode ?? 502, upstream.statusMessage, headers);
  upstream.pipe(reply.raw);
  // The target broke off mid-answer: the client must see a broken answer, not a short one that looks whole.
  upstream.once('close', () => {
    if (!upstream.complete) reply.raw.destroy();
  });
  reply.raw.once('close', () => upstream.destroy());
}

/** The raw path after `{proxy_base}` with one leading `/.proxy` removed, and the query as sent. */
function pathAfterBase(url: string, applicationId: string): { path: string; query: string } {
  const queryAt = url.indexOf('?');
  const rawPath = queryAt === -1 ? url : url.slice(0, queryAt);
  const query = queryAt === -1 ? '' : url.slice(queryAt);
  let path = rawPath.slice(`${PROXY_PREFIX}/${applicationId}`.length) || '/';
  if (path === PROXY_MARKER || path.startsWith(`${PROXY_MARKER}/`)) path = path.slice(PROXY_MARKER.length) || '/';
  return { path, query };
}

/** Sends the request to the target; resolves with its answer (headers read) or a 502 when it cannot be reached. */
function send(request: FastifyRequest, url: URL): Promise<IncomingMessage | ApiError> {
  return new Promise((resolve) => {
    const client = url.protocol === 'https:' ? https : http;
    const outgoing = client.request(url, { method: request.method, headers: requestHeaders(request, url) });
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
  const replaced = new Set(['host', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto']);
  return [
    ...endToEnd(request.raw.rawHeaders, replaced),
    'Host',
    url.host,
    'X-Forwarded-For',
    forwardedFor ? `${String(forwardedFor)}, ${request.ip}` : request.ip,
    'X-Forwarded-Host',
    request.headers.host ?? '',
    'X-Forwarded-Proto',
    request.protocol,
  ];
}

/** The target's headers as it sent them (names, order, repeats), without hop-by-hop ones, plus ours. */
function responseHeaders(upstream: IncomingMessage, extra: Record<string, string>): string[] {
  // A CSP of the target's own is kept next to ours: a browser enforces both.
  return [...endToEnd(upstream.rawHeaders, new Set()), ...Object.entries(extra).flat()];
}

/** Raw headers (`[name, value, …]`) without the hop-by-hop ones, those the Connection header names, and `dropped`. */
function endToEnd(raw: readonly string[], dropped: ReadonlySet<string>): string[] {
  const named = new Set<string>();
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.toLowerCase() === 'connection') for (const name of raw[i + 1]!.split(',')) named.add(name.trim().toLowerCase());
  }
  const result: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (HOP_BY_HOP.has(name) || named.has(name) || dropped.has(name)) continue;
    result.push(raw[i]!, raw[i + 1]!);
  }
  return result;
}
