/**
 * Development routes of interactions (devMode only, PROTOCOL.md §9 and §17.7): act as a user — invoke a command,
 * autocomplete, click a component, submit a modal (multipart with the files of File Upload components), read what
 * the user was answered — and set an
 * application's interactions endpoint URL (after the PING check), activities and installation contexts.
 */
import type { PlatformKernel } from '../kernel.js';
import { z } from 'zod';
import type { CommandService } from '../commands/service.js';
import { APPLICATION_FLAG_EMBEDDED, commandJson } from '../commands/service.js';
import { pathParams, type ApiArea } from '../http/api.js';
import { Errors } from '../http/errors.js';
import { snowflakeSchema } from '../http/validation.js';
import type { InteractionDelivery } from './delivery.js';
import { InteractionErrors } from './errors.js';
import { MAX_RECIPIENTS } from './places.js';
import type { InteractionService } from './service.js';
import { requireById } from '../ids/snowflake.js';

const submittedValue = z.union([z.string().max(4000), z.array(z.string().max(100)).max(25), z.boolean()]);

/**
 * Where a command is used: a guild channel (or a private channel an earlier trigger created), or a DM / group DM with
 * these other users.
 */
const commandPlace = {
  channel_id: snowflakeSchema.optional(),
  recipient_ids: z.array(snowflakeSchema).min(1).max(MAX_RECIPIENTS).optional(),
};
const onePlace = (body: { channel_id?: string | undefined; recipient_ids?: string[] | undefined }) =>
  (body.channel_id === undefined) !== (body.recipient_ids === undefined);
const onePlaceError = {
  message: 'Give either channel_id or recipient_ids.',
  path: ['channel_id'],
  params: { code: 'INTERACTION_PLACE_INVALID' },
};

const triggerSchema = z.discriminatedUnion('type', [
  z
    .object({
      type: z.literal(2),
      user_id: snowflakeSchema,
      application_id: snowflakeSchema,
      command_id: snowflakeSchema,
      ...commandPlace,
      options: z.array(z.looseObject({})).max(25).optional(),
      target_id: snowflakeSchema.optional(),
    })
    .refine(onePlace, onePlaceError),
  z.object({
    type: z.literal(3),
    user_id: snowflakeSchema,
    application_id: snowflakeSchema,
    channel_id: snowflakeSchema,
    message_id: snowflakeSchema,
    custom_id: z.string().min(1).max(100),
    values: z.array(z.string().max(100)).max(25).optional(),
  }),
  z
    .object({
      type: z.literal(4),
      user_id: snowflakeSchema,
      application_id: snowflakeSchema,
      command_id: snowflakeSchema,
      ...commandPlace,
      options: z.array(z.looseObject({})).min(1).max(25),
    })
    .refine(onePlace, onePlaceError),
  z.object({
    type: z.literal(5),
    user_id: snowflakeSchema,
    interaction_id: snowflakeSchema,
    values: z.record(z.string().max(100), submittedValue).default({}),
  }),
]);

const settingsSchema = z.object({
  interactions_endpoint_url: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .nullable()
    .optional(),
  activities_enabled: z.boolean().optional(),
  install_contexts: z
    .array(z.literal([0, 1]))
    .min(1)
    .max(2)
    .optional(),
});

export const interactionDevRoutes =
  (
    ctx: PlatformKernel,
    interactions: InteractionService,
    commands: CommandService,
    delivery: InteractionDelivery,
  ): ApiArea =>
  (app) => {
    app.post(
      '/dev/interactions',
      {
        config: { bodyKinds: ['json', 'multipart'] },
        bodyLimit: 11 * 10 * 1024 * 1024,
        schema: { body: triggerSchema },
      },
      async (request) => {
        const body = request.body;
        const user = ctx.store.users.get(body.user_id);
        if (!user) throw Errors.unknownUser();
        if (body.type === 2) {
          return interactions.invokeCommand(user, {
            applicationId: body.application_id,
            channelId: body.channel_id,
            recipientIds: body.recipient_ids,
            commandId: body.command_id,
            ...(body.options && { options: body.options }),
            ...(body.target_id && { targetId: body.target_id }),
          });
        }
        if (body.type === 4) {
          return interactions.autocomplete(user, {
            applicationId: body.application_id,
            channelId: body.channel_id,
            recipientIds: body.recipient_ids,
            commandId: body.command_id,
            options: body.options,
          });
        }
        if (body.type === 3) {
          return interactions.clickComponent(user, {
            applicationId: body.application_id,
            channelId: body.channel_id,
            messageId: body.message_id,
            customId: body.custom_id,
            ...(body.values && { values: body.values }),
          });
        }
        return interactions.submitModal(user, {
          interactionId: body.interaction_id,
          values: body.values,
          files: request.files,
        });
      },
    );

    // What the user sees of an interaction's response: its callback type and, for autocomplete, the choices offered.
    app.get(
      '/dev/interactions/:interactionId',
      { schema: { params: pathParams('interactionId') } },
      async (request) => {
        const interaction = requireById(
          request.params.interactionId,
          (id) => ctx.store.interactions.getInteraction(id),
          InteractionErrors.unknownInteraction,
        );
        return {
          id: interaction.id,
          type: interaction.type,
          context: interaction.context,
          channel_id: interaction.channelId,
          response_type: interaction.responseType,
          ...(interaction.autocompleteChoices !== undefined && { choices: interaction.autocompleteChoices }),
        };
      },
    );

    app.patch(
      '/dev/applications/:applicationId/interactions',
      { schema: { params: pathParams('applicationId'), body: settingsSchema } },
      async (request) => {
        const application = ctx.store.applications.get(request.params.applicationId);
        if (!application) throw Errors.unknownApplication();
        const settings = ctx.store.interactions.settings(application.id);
        const body = request.body;
        if (body.interactions_endpoint_url) await delivery.verifyEndpoint(application, body.interactions_endpoint_url);
        const next = {
          ...settings,
          ...(body.interactions_endpoint_url !== undefined && { endpointUrl: body.interactions_endpoint_url }),
          ...(body.install_contexts !== undefined && { installContexts: [...new Set(body.install_contexts)] }),
        };
        let updated = application;
        if (body.activities_enabled !== undefined) {
          const flags = body.activities_enabled
            ? application.flags | APPLICATION_FLAG_EMBEDDED
            : application.flags & ~APPLICATION_FLAG_EMBEDDED;
          updated = { ...application, flags };
        }
        const launch = ctx.store.transaction(() => {
          ctx.store.interactions.setSettings(next);
          if (updated !== application) ctx.store.applications.update(updated);
          return body.activities_enabled ? commands.ensureDefaultEntryPoint(updated) : undefined;
        });
        return {
          interactions_endpoint_url: next.endpointUrl,
          install_contexts: next.installContexts,
          activities_enabled: (updated.flags & APPLICATION_FLAG_EMBEDDED) !== 0,
          ...(launch && { default_entry_point: commandJson(launch) }),
        };
      },
    );
  };
