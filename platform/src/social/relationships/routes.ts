import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { PlatformContext } from '../../context.js';
import { requireBearer } from '../../http/auth.js';
import { jsonBody } from '../../http/body.js';
import { parseBody } from '../../http/validation.js';
import { SocialErrors } from '../errors.js';
import { API, limited, parseQuery, pathUser, queryBoolean } from '../http.js';
import { relationshipsJson } from './serialize.js';
import type { RelationshipService } from './service.js';

const SCOPE = 'relationships.read';

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

/** PROTOCOL.md §10.1: list, request by username, request/accept/block by id, reject/cancel/remove/unblock. */
export function registerRelationshipRoutes(app: FastifyInstance, ctx: PlatformContext, service: RelationshipService): void {
  app.get(`${API}/users/@me/relationships`, async (request, reply) => {
    const principal = requireBearer(ctx, request, SCOPE);
    if (limited(ctx, reply, 'relationships', `user:${principal.user.id}`)) return reply;
    return relationshipsJson(ctx, principal.user.id, principal.app);
  });

  app.post(`${API}/users/@me/relationships`, async (request, reply) => {
    const principal = requireBearer(ctx, request, SCOPE);
    if (limited(ctx, reply, 'relationships', `user:${principal.user.id}`)) return reply;
    const body = parseBody(byUsernameSchema, jsonBody(request));
    const target = ctx.store.users.findByUsername(body.username.toLowerCase());
    if (!target || target.bot) throw SocialErrors.unknownUsername();
    service.request({ app: principal.app, actor: principal.user, target, axis: body.game ? 'game' : 'platform' });
    return reply.code(204).send();
  });

  app.put<{ Params: { userId: string } }>(`${API}/users/@me/relationships/:userId`, async (request, reply) => {
    const principal = requireBearer(ctx, request, SCOPE);
    if (limited(ctx, reply, 'relationships', `user:${principal.user.id}`)) return reply;
    const target = pathUser(ctx, request.params.userId);
    const body = parseBody(putSchema, jsonBody(request));
    if (body.type === 2) service.block(principal.app, principal.user, target);
    else service.request({ app: principal.app, actor: principal.user, target, axis: body.game ? 'game' : 'platform' });
    return reply.code(204).send();
  });

  app.delete<{ Params: { userId: string } }>(`${API}/users/@me/relationships/:userId`, async (request, reply) => {
    const principal = requireBearer(ctx, request, SCOPE);
    if (limited(ctx, reply, 'relationships', `user:${principal.user.id}`)) return reply;
    const target = pathUser(ctx, request.params.userId);
    const query = parseQuery(deleteQuerySchema, request.query);
    service.remove({ app: principal.app, actor: principal.user, target, axis: query.game ? 'game' : 'platform' }, query.action);
    return reply.code(204).send();
  });
}
