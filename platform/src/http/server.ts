import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { registerBodyParsers } from './body.js';
import { ApiError, Errors, OAuthError } from './errors.js';
import { registerRateLimitHooks } from './rate-limit-hooks.js';
import type { RateLimiter } from './rate-limit.js';

export interface HttpServerOptions {
  logger: Logger;
  bodyLimitBytes: number;
  tls?: { key: string; cert: string };
  rateLimiter: RateLimiter;
  now: () => number;
}

const API_VERSION_PATH = /^\/api\/v(\d+)(\/|$)/;

/** The fastify instance with the platform's HTTP conventions: parsers, error bodies, 404s, rate limits. */
export function createHttpServer(options: HttpServerOptions): FastifyInstance {
  const app = Fastify({
    loggerInstance: options.logger,
    bodyLimit: options.bodyLimitBytes,
    https: options.tls ? { key: options.tls.key, cert: options.tls.cert } : null,
    // Snowflakes and tokens can be long; the default 100-character param limit would turn them into 404s.
    routerOptions: { maxParamLength: 1024 },
  }) as unknown as FastifyInstance;

  registerBodyParsers(app);
  registerRateLimitHooks(app, options.rateLimiter, options.now);

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
    if (status < 500) return reply.code(status).send({ code: 0, message: `${status}: ${error.message}` });
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send({ code: 0, message: '500: Internal Server Error' });
  });

  app.setNotFoundHandler((request, reply) => {
    const version = API_VERSION_PATH.exec(request.url);
    if (version && version[1] !== '10') return reply.code(400).send(Errors.invalidApiVersion().body());
    return reply.code(404).send(Errors.notFound().body());
  });

  return app;
}
