import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { PlatformContext } from '../../context.js';
import { requireBearer } from '../../http/auth.js';
import { jsonBody } from '../../http/body.js';
import { parseBody } from '../../http/validation.js';
import { API, limited, pathUser } from '../http.js';
import { INVITE_JOIN, INVITE_JOIN_REQUEST, type InviteService } from './service.js';

const SCOPE = 'dm_channels.read';

/** PROTOCOL.md §10.3: send an invite (or join request), accept one. Sending counts against `dm.send`. */
export function registerInviteRoutes(app: FastifyInstance, ctx: PlatformContext, invites: InviteService): void {
  const sendSchema = z.object({
    type: z.literal([INVITE_JOIN, INVITE_JOIN_REQUEST]),
    content: z.string().max(ctx.options.socialLimits.inviteContentMax).default(''),
  });

  app.post<{ Params: { userId: string } }>(`${API}/users/:userId/activity-invites`, async (request, reply) => {
    const principal = requireBearer(ctx, request, SCOPE);
    const recipient = pathUser(ctx, request.params.userId);
    const body = parseBody(sendSchema, jsonBody(request));
    if (limited(ctx, reply, 'dm.send', `user:${principal.user.id}:app:${principal.app.id}`)) return reply;
    return reply.code(201).send(invites.send(principal.app, principal.user, recipient, body.type, body.content));
  });

  app.post<{ Params: { messageId: string } }>(`${API}/users/@me/activity-invites/:messageId/accept`, async (request) => {
    const principal = requireBearer(ctx, request, SCOPE);
    return invites.accept(principal.app, principal.user, request.params.messageId);
  });
}
