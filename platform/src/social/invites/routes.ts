import type { SocialLimits } from '../limits.js';
import type { PlatformKernel } from '../../kernel.js';
import { z } from 'zod';
import { bearerOf, type ApiArea, pathParams } from '../../http/api.js';
import { pathUser } from '../http.js';
import { INVITE_JOIN, INVITE_JOIN_REQUEST, type InviteService } from './service.js';

const bearer = { auth: { kind: 'bearer', scope: 'dm_channels.read' } } as const;

/** PROTOCOL.md §10.3: send an invite (or join request), accept one. Sending counts against `dm.send`. */
export const inviteRoutes =
  (ctx: PlatformKernel, limits: SocialLimits, invites: InviteService): ApiArea =>
  (app) => {
    const sendSchema = z.object({
      type: z.literal([INVITE_JOIN, INVITE_JOIN_REQUEST]),
      content: z.string().max(limits.inviteContentMax).default(''),
    });

    const sendConfig = { ...bearer, rateLimit: { bucket: 'dm.send', per: 'user-application' } } as const;
    app.post(
      '/users/:userId/activity-invites',
      { config: sendConfig, schema: { params: pathParams('userId'), body: sendSchema } },
      async (request, reply) => {
        const principal = bearerOf(request);
        const recipient = pathUser(ctx, request.params.userId);
        return reply
          .code(201)
          .send(invites.send(principal.app, principal.user, recipient, request.body.type, request.body.content));
      },
    );

    app.post(
      '/users/@me/activity-invites/:messageId/accept',
      { config: bearer, schema: { params: pathParams('messageId') } },
      async (request) => {
        const principal = bearerOf(request);
        return invites.accept(principal.app, principal.user, request.params.messageId);
      },
    );
  };
