/**
 * The attachments origin (PROTOCOL.md §1, §14.4 "Attachment files"): uploaded files are served by a listener of its
 * own, on its own port — as the published service serves them from its CDN host, not from the API's — so a file a
 * bot or a user uploaded never shares an origin with the API, the consent page or the portal, and nothing it
 * contains can read them. It serves `GET /attachments/{channel}/{attachment}/{filename}` and nothing else, with the
 * headers of serving.ts. The platform's own origin does not serve the files.
 */
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { RateLimiter } from '../http/rate-limit.js';
import type { PlatformKernel } from '../kernel.js';
import type { TlsMaterial } from '../crypto/tls.js';
import { pathParams } from '../http/api.js';
import { Errors } from '../http/errors.js';
import { createHttpServer } from '../http/server.js';
import type { ZodTypeProvider } from '../http/zod-schemas.js';
import { attachmentHeaders } from './serving.js';
import { isSnowflake } from '../ids/snowflake.js';

/** The path of a file on the attachments origin (the `url` of an attachment is this under the origin's base URL). */
export function attachmentPath(channelId: string, attachmentId: string, filename: string): string {
  return `/attachments/${channelId}/${attachmentId}/${encodeURIComponent(filename)}`;
}

export interface AttachmentsServerOptions {
  logger: Logger;
  tls?: TlsMaterial;
  /** Host names it answers to besides loopback and addresses (the listen host, its advertised URL's host). */
  hostNames: () => Iterable<string>;
}

/** The attachments listener: the platform's HTTP conventions (host check, error bodies), one route. */
/** `rateLimiter`: the platform's, so the attachments listener counts against the same buckets. */
export function createAttachmentsServer(
  ctx: PlatformKernel & { rateLimiter: RateLimiter },
  options: AttachmentsServerOptions,
): FastifyInstance {
  const { app } = createHttpServer({
    logger: options.logger,
    // Nothing is uploaded here: GET and HEAD only.
    bodyLimitBytes: 1024,
    rateLimiter: ctx.rateLimiter,
    now: ctx.now,
    hostNames: options.hostNames,
    ...(options.tls ? { tls: options.tls } : {}),
  });
  app
    .withTypeProvider<ZodTypeProvider>()
    .get(
      '/attachments/:channelId/:attachmentId/:filename',
      { schema: { params: pathParams('channelId', 'attachmentId', 'filename') } },
      async (request, reply) => {
        const { channelId, attachmentId, filename } = request.params;
        const file =
          isSnowflake(channelId) && isSnowflake(attachmentId)
            ? ctx.store.botGuilds.attachment(channelId, attachmentId)
            : undefined;
        // The URL names the file exactly (as a CDN's does): another name is another file, which does not exist.
        if (!file || file.filename !== filename) throw Errors.notFound();
        return reply.headers(attachmentHeaders(file.filename, file.contentType)).send(file.data);
      },
    );
  return app;
}
