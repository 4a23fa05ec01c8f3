import type { PlatformKernel } from '../../kernel.js';
import { z } from 'zod';
import { bearerOf, pathParams, type ApiArea } from '../../http/api.js';
import type { KeyedRateLimit } from '../../http/rate-limit-hooks.js';
import { queryBoolean } from '../../http/validation.js';
import { SocialErrors } from '../errors.js';
import { pathUser } from '../http.js';
import { relationshipsJson } from './serialize.js';
import type { RelationshipService } from './service.js';

const byUsernameSchema = z.object({
  username: z.string().min(1).max(32),
  game: z.boolean().default(false),
});

const putSchema = z
  .object({
    type: z.literal([1, 2]),
    game: z.boolean().default(false),
  })
  .refine((body) => !(body.type === 2 && body.game), {
    path: ['game'],
    message: 'Blocking applies to the platform axis only.',
    params: { code: 'BASE_TYPE_CHOICES' },
  });

const deleteQuerySchema = z.object({
  action: z.enum(['reject', 'cancel', 'remove', 'unblock']),
  game: queryBoolean.default(false),
});

const config = {
  auth: { kind: 'bearer', scope: 'relationships.read' },
  rateLimit: { bucket: 'relationships', per: 'user' } satisfies KeyedRateLimit,
} as const;

/** PROTOCOL.md §10.1: list, request by username, request/accept/block by id, reject/cancel/remove/unblock. */
export function relationshipRoutes(ctx: PlatformKernel, service: RelationshipService): ApiArea {
  return (api) => {
    api.get('/users/@me/relationships', { config }, async (request) => {
      const principal = bearerOf(request);
      return relationshipsJson(ctx, principal.user.id, principal.app);
    });

    api.post('/users/@me/relationships', { config, schema: { body: byUsernameSchema } }, async (request, reply) => {
      const principal = bearerOf(request);
      const target = ctx.store.users.findByUsername(request.body.username.toLowerCase());
      if (!target || target.bot) throw SocialErrors.unknownUsername();
      service.request({
        app: principal.app,
        actor: principal.user,
        target,
        axis: request.body.game ? 'game' : 'platform',
      });
      return reply.code(204).send();
    });

    api.put(
      '/users/@me/relationships/:userId',
      { config, schema: { params: pathParams('userId'), body: putSchema } },
      async (request, reply) => {
        const principal = bearerOf(request);
        const target = pathUser(ctx, request.params.userId);
        const body = request.body;
        if (body.type === 2) service.block(principal.app, principal.user, target);
        else
          service.request({ app: principal.app, actor: principal.user, target, axis: body.game ? 'game' : 'platform' });
        return reply.code(204).send();
      },
    );

    api.delete(
      '/users/@me/relationships/:userId',
      { config, schema: { params: pathParams('userId'), querystring: deleteQuerySchema } },
      async (request, reply) => {
        const principal = bearerOf(request);
        const target = pathUser(ctx, request.params.userId);
        const query = request.query;
        service.remove(
          { app: principal.app, actor: principal.user, target, axis: query.game ? 'game' : 'platform' },
          query.action,
        );
        return reply.code(204).send();
      },
    );
  };
}
