import type { PlatformKernel } from '../kernel.js';
import { z } from 'zod';
import { pathParams, type ApiArea } from '../http/api.js';
import { pathUser } from './http.js';

const spamSchema = z.object({ spammer: z.boolean() });

/** `POST /dev/users/{id}/spam {spammer}` (devMode only): flags a user whose friend requests are then spam. */
export const socialDevRoutes =
  (ctx: PlatformKernel): ApiArea =>
  (app) => {
    app.post(
      '/dev/users/:userId/spam',
      { schema: { params: pathParams('userId'), body: spamSchema } },
      async (request) => {
        const user = pathUser(ctx, request.params.userId);
        ctx.store.relationships.setSpammer(user.id, request.body.spammer);
        return { id: user.id, spammer: ctx.store.relationships.isSpammer(user.id) };
      },
    );
  };
