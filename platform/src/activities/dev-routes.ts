/**
 * Development routes of activities (devMode only, PROTOCOL.md §9 and §18.4): act as a user — launch the
 * application's activity in a guild channel or a DM, join and leave an instance — and set an application's URL
 * mappings (the developer portal's Activities → URL Mappings page; no published route sets them).
 */
import type { OutboundGuard } from '../outbound/guard.js';
import type { PlatformKernel } from '../kernel.js';
import { z } from 'zod';
import { pathParams, type ApiArea } from '../http/api.js';
import { Errors } from '../http/errors.js';
import { snowflakeSchema } from '../http/validation.js';
import type { GuildService } from '../bot-api/guilds/service.js';
import type { ApplicationRecord, UserRecord } from '../store/types.js';
import { checkInstanceAccess, guildChannelPlace } from './access.js';
import type { ActivityInstances } from './instances.js';
import { instanceJson, type ActivityPlace } from './location.js';
import { assertMappingTargets, urlMappingsSchema } from './url-mappings.js';
import { requireById } from '../ids/snowflake.js';

/** Where to launch: a guild channel (`channel_id`) or the DM with `recipient_id` — exactly one of them. */
const launchSchema = z
  .object({
    user_id: snowflakeSchema,
    channel_id: snowflakeSchema.optional(),
    recipient_id: snowflakeSchema.optional(),
  })
  .superRefine((body, check) => {
    if (body.channel_id === undefined && body.recipient_id === undefined) {
      check.addIssue({
        code: 'custom',
        path: ['channel_id'],
        message: 'Give channel_id or recipient_id.',
        params: { code: 'BASE_TYPE_REQUIRED' },
      });
    }
    if (body.channel_id !== undefined && body.recipient_id !== undefined) {
      check.addIssue({
        code: 'custom',
        path: ['recipient_id'],
        message: 'Give channel_id or recipient_id, not both.',
        params: { code: 'ACTIVITY_PLACE_AMBIGUOUS' },
      });
    }
  });

const mappingsBody = z.object({ url_mappings: urlMappingsSchema });

export const activityDevRoutes =
  (ctx: PlatformKernel, guard: OutboundGuard, instances: ActivityInstances, guilds: GuildService): ApiArea =>
  (app) => {
    const application = (id: string): ApplicationRecord => {
      const found = requireById(id, (id) => ctx.store.applications.get(id), Errors.unknownApplication);
      return found;
    };
    const user = (id: string): UserRecord => {
      const found = requireById(id, (id) => ctx.store.users.get(id), Errors.unknownUser);
      return found;
    };
    /** A DM between the user and the recipient (the pair's persistent channel). */
    const privatePlace = (launcher: UserRecord, recipientId: string): ActivityPlace => {
      const recipient = user(recipientId);
      if (recipient.id === launcher.id) throw Errors.unknownUser();
      const channelId = ctx.store.directMessages.channelId(launcher.id, recipient.id, ctx.ids.next());
      return { kind: 'pc', channelId, guildId: null, participants: [launcher.id, recipient.id] };
    };

    app.post(
      '/dev/applications/:applicationId/activity-instances',
      { schema: { params: pathParams('applicationId'), body: launchSchema } },
      async (request, reply) => {
        const app = application(request.params.applicationId);
        const body = request.body;
        const launcher = user(body.user_id);
        const place =
          body.channel_id !== undefined
            ? guildChannelPlace(guilds, body.channel_id, launcher.id)
            : privatePlace(launcher, body.recipient_id!);
        const { instance, created } = instances.launch(app, launcher.id, place);
        return reply.code(created ? 201 : 200).send(instanceJson(instance));
      },
    );

    app.put(
      '/dev/applications/:applicationId/activity-instances/:instanceId/users/:userId',
      { schema: { params: pathParams('applicationId', 'instanceId', 'userId') } },
      async (request) => {
        const app = application(request.params.applicationId);
        const joiner = user(request.params.userId);
        checkInstanceAccess(guilds, instances.get(app.id, request.params.instanceId), joiner.id);
        return instanceJson(instances.join(app.id, request.params.instanceId, joiner.id));
      },
    );

    app.delete(
      '/dev/applications/:applicationId/activity-instances/:instanceId/users/:userId',
      { schema: { params: pathParams('applicationId', 'instanceId', 'userId') } },
      async (request, reply) => {
        const app = application(request.params.applicationId);
        const left = instances.leave(app.id, request.params.instanceId, user(request.params.userId).id);
        // The last user left: the instance ended.
        return left ? instanceJson(left) : reply.code(204).send();
      },
    );

    app.get(
      '/dev/applications/:applicationId/url-mappings',
      { schema: { params: pathParams('applicationId') } },
      async (request) => ({
        url_mappings: ctx.store.activities.urlMappings(application(request.params.applicationId).id),
      }),
    );

    app.put(
      '/dev/applications/:applicationId/url-mappings',
      { schema: { params: pathParams('applicationId'), body: mappingsBody } },
      async (request) => {
        const app = application(request.params.applicationId);
        const mappings = request.body.url_mappings.map(({ prefix, target }) => ({ prefix, target }));
        await assertMappingTargets(guard, mappings);
        ctx.store.activities.setUrlMappings(app.id, mappings);
        return { url_mappings: ctx.store.activities.urlMappings(app.id) };
      },
    );
  };
