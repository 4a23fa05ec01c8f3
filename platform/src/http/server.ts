import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { registerBodyParsers } from './body.js';
import { ApiError, Errors, OAuthError } from './errors.js';
import { registerHostCheck } from './hosts.js';
import { registerRateLimitHooks } from './rate-limit-hooks.js';
import type { RateLimiter } from './rate-limit.js';
import { useZodSchemas } from './zod-schemas.js';
import { MethodMatcher } from './method-matcher.js';
import { recordRoutes, type RouteEntry } from '../route-table.js';

export interface HttpServerOptions {
  logger: Logger;
  bodyLimitBytes: number;
  tls?: { key: string; cert: string };
  rateLimiter: RateLimiter;
  now: () => number;
  /** Host names the platform answers to besides loopback and IP addresses (see hosts.ts). */
  hostNames: () => Iterable<string>;
  /** Origins refused as an `Origin` although they are loopback (the attachments origin: hosts.ts). */
  foreignOrigins?: () => Iterable<string>;
}

const API_VERSION_PATH = /^\/api\/v(\d+)(\/|$)/;

/**
 * API versions served with v10's routes and behaviour (the published documentation lists v9 as available; where it
 * differs from v10 is in PROTOCOL.md §2 "API versions").
 */
const V10_ALIASES = /^\/api\/v9(?=\/|\?|$)/;
/** One trailing slash of an API path (`/api/v10/users/@me/`), before any query. */
const API_TRAILING_SLASH = /^(\/api\/[^?]*[^/?])\/(\?.*)?$/;

/**
 * The API URL a request is routed by: v9 as v10, and without a trailing slash (libraries join paths that way). The
 * rewrite happens before routing, so every route, convention and test of v10 holds for these forms too. Only API
 * paths: the activity proxy and the pages keep their paths exactly.
 */
function canonicalApiUrl(url: string): string {
  return url.replace(V10_ALIASES, '/api/v10').replace(API_TRAILING_SLASH, '$1$2');
}

/** Router errors fastify would answer with its own body and the whole URL in the message. */
const FRAMEWORK_ERROR_STATUS: Record<string, number> = { FST_ERR_BAD_URL: 400, FST_ERR_MAX_PARAM_LENGTH: 414 };

/**
 * Requests the HTTP parser refuses (bad header bytes, a bad Content-Length or chunk, headers over 16 KiB) never
 * reach fastify's routing: answer them on the socket with our body (fastify's default writes its own).
 */
function answerClientError(error: Error & { code?: string; rawPacket?: unknown }, socket: Duplex): void {
  if (!socket.writable || error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const body = JSON.stringify(Errors.httpStatus(status).body());
  // An answer to HEAD has no body (a client would read one as the start of a broken next response).
  const head = Buffer.isBuffer(error.rawPacket) && error.rawPacket.subarray(0, 5).toString('latin1') === 'HEAD ';
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      `Connection: close\r\n\r\n${head ? '' : body}`,
  );
}

/**
 * A WebSocket upgrade answered in plain HTTP (refused by a hook or by the router before the WebSocket plugin saw it)
 * keeps its raw socket open: nothing else closes it, and closing the server would wait for it forever. Once such an
 * answer is sent, the socket goes. An accepted upgrade never finishes its HTTP response, so it is left alone.
 */
function closeAfterPlainAnswer(request: FastifyRequest, reply: FastifyReply): void {
  if (request.headers.upgrade !== undefined) reply.raw.once('finish', () => request.raw.socket?.destroy());
}

/** What fastify names the type of every object it serializes; the published service sends the bare media type. */
const FASTIFY_JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Every JSON answer goes out as `Content-Type: application/json`, exactly as the published service sends it: several
 * bot libraries parse a body only when the header is exactly that (JSON is UTF-8 by definition, RFC 8259 §8.1, so the
 * parameter adds nothing). One hook for every route, error and 404 instead of a header per route.
 */
function registerExactJsonType(app: FastifyInstance): void {
  app.addHook('onSend', async (_request, reply, payload) => {
    if (reply.getHeader('content-type') === FASTIFY_JSON_TYPE) reply.header('content-type', 'application/json');
    return payload;
  });
}

/**
 * The fastify instance with the platform's HTTP conventions (parsers, error bodies, 404s and 405s, rate limits), and
 * the table of every route registered on it from now on.
 */
export function createHttpServer(options: HttpServerOptions): { app: FastifyInstance; routes: readonly RouteEntry[] } {
  const common = {
    loggerInstance: options.logger,
    bodyLimit: options.bodyLimitBytes,
    // Snowflakes and tokens can be long; the default 100-character param limit would turn them into 404s.
    routerOptions: { maxParamLength: 1024 },
    frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      closeAfterPlainAnswer(request, reply);
      const failure = Errors.httpStatus(FRAMEWORK_ERROR_STATUS[error.code] ?? 400);
      void reply.code(failure.status).send(failure.body());
    },
    clientErrorHandler: answerClientError,
    rewriteUrl: (request: IncomingMessage) => canonicalApiUrl(request.url ?? '/'),
  };
  // requireHostHeader: our host check answers a missing Host with our body (Node's would send an empty 400).
  const app = (options.tls
    ? Fastify({ ...common, https: { key: options.tls.key, cert: options.tls.cert, requireHostHeader: false } })
    : Fastify({ ...common, http: { requireHostHeader: false } })) as unknown as FastifyInstance;

  // An Expect header other than 100-continue: Node answers 417 itself, with an empty body, unless told otherwise.
  const routes = recordRoutes(app);

  app.server.on('checkExpectation', (_request: IncomingMessage, response: ServerResponse) => {
    const body = JSON.stringify(Errors.httpStatus(417).body());
    // With a length, like every other answer of ours (not chunked): simple clients read it whole.
    response
      .writeHead(417, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) })
      .end(body);
  });

  app.addHook('onRequest', async (request, reply) => closeAfterPlainAnswer(request, reply));
  registerExactJsonType(app);
  // Next, so that nothing else runs for a request meant for another host or sent by a foreign page.
  registerHostCheck(app, options.hostNames, options.foreignOrigins ?? (() => []));
  registerBodyParsers(app);
  registerRateLimitHooks(app, options.rateLimiter, options.now);
  useZodSchemas(app);

  app.setErrorHandler((error: FastifyError | ApiError | OAuthError, request, reply) => {
    if (error instanceof ApiError) {
      if (error.headers) reply.headers(error.headers);
      return reply.code(error.status).send(error.body());
    }
    if (error instanceof OAuthError) {
      return reply.code(error.status).header('Cache-Control', 'no-store').send(error.body());
    }
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply.code(413).send(Errors.tooLarge().body());
    }
    const status = error.statusCode ?? 500;
    // The framework's messages may quote the request (a content type, a length): only the status is told.
    if (status < 500) return reply.code(status).send(Errors.httpStatus(status).body());
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send({ code: 0, message: '500: Internal Server Error' });
  });

  const methods = new MethodMatcher(routes);
  app.setNotFoundHandler((request, reply) => {
    const version = API_VERSION_PATH.exec(request.url);
    if (version && version[1] !== '10') return reply.code(400).send(Errors.invalidApiVersion().body());
    // A path served under other methods: 405, as published (a WebSocket upgrade is a GET and never gets here).
    const path = request.url.split('?')[0]!;
    if (methods.servedOtherwise(request.method, path)) return reply.code(405).send(Errors.httpStatus(405).body());
    return reply.code(404).send(Errors.notFound().body());
  });

  return { app, routes };
}
