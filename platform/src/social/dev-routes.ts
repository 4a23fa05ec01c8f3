import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { PlatformContext } from '../context.js';
import { jsonBody } from '../http/body.js';
import { parseBody } from '../http/validation.js';
import { pathUser } from './http.js';

const spamSchema = z.object({ spammer: z.boolean() });

/** `POST /dev/users/{id}/spam {spammer}` (devMode only): flags a user whose friend requests are then spam. */
export function registerSocialDevRoutes(app: FastifyInstance, ctx: PlatformContext): void {
  app.post<{ Params: { userId: string } }>('/api/v10/dev/users/:userId/spam', async (request) => {
    const user = pathUser(ctx, request.params.userId);
    const body = parseBody(spamSchema, jsonBody(request));
    ctx.store.relationships.setSpammer(user.id, body.spammer);
    return { id: user.id, spammer: ctx.store.relationships.isSpammer(user.id) };
  });
}
