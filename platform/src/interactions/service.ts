/**
 * Interactions (PROTOCOL.md §17.2–17.3): a user invokes a command, clicks a component or submits a modal; the
 * application gets the interaction (gateway or signed HTTP endpoint) and answers through its token — one response
 * within 3 s, then the original response and follow-ups for 15 min. The token is the only credential of these
 * routes (published: no Authorization header).
 */
import { randomBytes } from 'node:crypto';
import type { ReadsUrls } from '../http/urls.js';
import type { PlatformKernel } from '../kernel.js';
import { ActivityInstances } from '../activities/instances.js';
import { interactionPlace } from '../activities/location.js';
import { CommandType, EntryPointHandler, InteractionContext, IntegrationType } from '../commands/schemas.js';
import type { CommandPermissionService } from '../commands/permissions-service.js';
import { APPLICATION_FLAG_EMBEDDED } from '../commands/service.js';
import { GuildErrors } from '../bot-api/guilds/errors.js';
import { has, Permission } from '../bot-api/guilds/permissions.js';
import type { GuildService } from '../bot-api/guilds/service.js';
import { fieldError } from '../http/errors.js';
import type { UploadedFile } from '../http/multipart.js';
import type { MessageService } from '../bot-api/messages/service.js';
import { storeAttachment } from '../bot-api/messages/attachments.js';
import { attachmentJson, messageJson } from '../bot-api/messages/serialize.js';
import type { MessageRecord } from '../store/bot-types.js';
import type { CommandRecord, InteractionRecord } from '../store/interaction-types.js';
import type { ApplicationRecord, UserRecord } from '../store/types.js';
import { knownUserJson } from '../users/serialize.js';
import type { InteractionDelivery } from './delivery.js';
import { InteractionErrors } from './errors.js';
import { checkModal } from './modal.js';
import { submitModal, type SubmittedValue } from './modal-submit.js';
import { focusedOptionType, parseAutocompleteResult, type DefinedOption } from './autocomplete.js';
import { interactionPayload } from './payload.js';
import { dmAppPermissions, uploadLimitOf } from './permissions.js';
import { InteractionPlaces, type Place } from './places.js';
import { parseCallback, type CallbackBody, type WebhookEditBody, type WebhookMessageBody } from './schemas.js';
import { isSnowflake } from '../ids/snowflake.js';

export const InteractionType = {
  PING: 1,
  APPLICATION_COMMAND: 2,
  MESSAGE_COMPONENT: 3,
  AUTOCOMPLETE: 4,
  MODAL_SUBMIT: 5,
} as const;
export const CallbackType = {
  PONG: 1,
  CHANNEL_MESSAGE_WITH_SOURCE: 4,
  DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE: 5,
  DEFERRED_UPDATE_MESSAGE: 6,
  UPDATE_MESSAGE: 7,
  AUTOCOMPLETE_RESULT: 8,
  MODAL: 9,
  PREMIUM_REQUIRED: 10,
  LAUNCH_ACTIVITY: 12,
} as const;

/** Published windows: the first response within 3 s, then the token works for 15 min. */
export const INITIAL_RESPONSE_MS = 3_000;
export const TOKEN_LIFETIME_MS = 15 * 60_000;
/** Follow-ups of an interaction authorised only by a user install (published). */
export const USER_INSTALL_FOLLOWUP_LIMIT = 5;

const EPHEMERAL = 1 << 6;
const LOADING = 1 << 7;
const MessageType = { DEFAULT: 0, CHAT_INPUT_COMMAND: 20, CONTEXT_MENU_COMMAND: 23 } as const;

/** Which callback types each interaction type accepts (published). */
const ALLOWED_CALLBACKS: Record<number, ReadonlySet<number>> = {
  [InteractionType.APPLICATION_COMMAND]: new Set([4, 5, 9, 10, 12]),
  // Autocomplete is answered with its choices only (published).
  [InteractionType.AUTOCOMPLETE]: new Set([8]),
  [InteractionType.MESSAGE_COMPONENT]: new Set([4, 5, 6, 7, 9, 10, 12]),
  [InteractionType.MODAL_SUBMIT]: new Set([4, 5, 6, 7, 10, 12]),
};

export interface TriggerResult {
  interaction_id: string;
  /** The channel it happened in (for a DM or group DM named by `recipient_ids`, the channel's id). */
  channel_id: string;
  /** Where the interaction went: 'gateway', 'endpoint', or 'platform' (an entry point the platform answers). */
  delivered: 'gateway' | 'endpoint' | 'platform';
  endpoint_error?: string;
  activity_instance_id?: string;
  message?: unknown;
}

export class InteractionService {
  private readonly places: InteractionPlaces;

  constructor(
    private readonly ctx: PlatformKernel & ReadsUrls,
    private readonly guilds: GuildService,
    private readonly messages: MessageService,
    private readonly permissions: CommandPermissionService,
    private readonly delivery: InteractionDelivery,
  ) {
    this.places = new InteractionPlaces(ctx, guilds);
  }

  // ── the user's side (developer route) ──

  async invokeCommand(user: UserRecord, input: CommandTrigger): Promise<TriggerResult> {
    // Checked and recorded in one transaction: a refused trigger leaves nothing behind (not even a new DM channel).
    const prepared = this.ctx.store.transaction(() => {
      const { app, place, command, setup } = this.commandAt(user, input);
      const data: Record<string, unknown> = {
        id: command.id,
        name: command.name,
        type: command.type,
        ...(command.guildId !== null && { guild_id: command.guildId }),
      };
      if (command.type === CommandType.CHAT_INPUT && input.options !== undefined) {
        checkInvocationOptions(['options'], (command.body.options as DefinedOption[] | undefined) ?? [], input.options);
        data.options = input.options;
        const resolved = this.resolvedOptions(app, place, input.options);
        if (resolved) data.resolved = resolved;
      }
      if (command.type === CommandType.USER || command.type === CommandType.MESSAGE) {
        if (input.targetId === undefined)
          throw fieldError(['target_id'], 'BASE_TYPE_REQUIRED', 'This field is required');
        data.target_id = input.targetId;
        data.resolved = this.resolvedTarget(command, place, input.targetId);
      }
      const interaction = this.newInteraction(app, user, InteractionType.APPLICATION_COMMAND, place, setup, null);
      return { app, place, command, setup, data, interaction };
    });
    const { app, place, command, setup, data, interaction } = prepared;
    if (
      command.type === CommandType.PRIMARY_ENTRY_POINT &&
      command.body.handler === EntryPointHandler.DISCORD_LAUNCH_ACTIVITY
    ) {
      return this.launchByPlatform(app, interaction, command);
    }
    return this.deliver(app, user, interaction, place, setup, data, undefined);
  }

  /** APPLICATION_COMMAND_AUTOCOMPLETE: the user is typing into an autocomplete option (PROTOCOL.md §17.10). */
  async autocomplete(user: UserRecord, input: CommandTrigger & { options: unknown[] }): Promise<TriggerResult> {
    const { app, place, setup, data, interaction } = this.ctx.store.transaction(() => {
      const { app, place, command, setup } = this.commandAt(user, input);
      if (command.type !== CommandType.CHAT_INPUT)
        throw fieldError(['command_id'], 'INTERACTION_AUTOCOMPLETE_INVALID', 'Only chat input commands autocomplete.');
      const optionType = focusedOptionType(
        ['options'],
        (command.body.options as DefinedOption[] | undefined) ?? [],
        input.options,
      );
      const data = {
        id: command.id,
        name: command.name,
        type: command.type,
        options: input.options,
        ...(command.guildId !== null && { guild_id: command.guildId }),
      };
      const interaction = this.newInteraction(app, user, InteractionType.AUTOCOMPLETE, place, setup, null, optionType);
      return { app, place, setup, data, interaction };
    });
    return this.deliver(app, user, interaction, place, setup, data, undefined);
  }

  /**
   * The command a user invokes (or autocompletes) and where: a guild channel (`channel_id`) or a DM / group DM
   * (`recipient_ids`, or the `channel_id` of one). The command must be usable there: global, or of this guild; its
   * `contexts` include the place's; in a guild, the member passes `default_member_permissions` and the command's
   * permission overwrites (403 50013 otherwise).
   */
  private commandAt(user: UserRecord, input: CommandTrigger) {
    const app = this.application(input.applicationId);
    const place = this.placeOf(user, app, input);
    const command = this.ctx.store.interactions.getCommand(app.id, input.commandId);
    const guildId = place.kind === 'guild' ? place.guild.id : null;
    if (!command || (command.guildId !== null && command.guildId !== guildId))
      throw fieldError(['command_id'], 'UNKNOWN_COMMAND', 'Unknown application command');
    const context = place.kind === 'guild' ? InteractionContext.GUILD : place.context;
    if (!(command.body.contexts as number[]).includes(context)) {
      throw fieldError(
        [place.kind === 'guild' ? 'channel_id' : 'recipient_ids'],
        'INTERACTION_CONTEXT_NOT_ALLOWED',
        `This command cannot be used in this context (${CONTEXT_NAMES[context]}).`,
      );
    }
    const setup = this.setup(app, user, place, command.body.integration_types as number[]);
    if (place.kind === 'guild' && !this.permissions.mayUse(command, place.guild, place.channel.id, user.id))
      throw GuildErrors.missingPermissions();
    return { app, place, command, setup };
  }

  private placeOf(
    user: UserRecord,
    app: ApplicationRecord,
    input: { channelId?: string | undefined; recipientIds?: string[] | undefined },
  ): Place {
    if (input.recipientIds !== undefined) return this.places.withRecipients(user, app, input.recipientIds);
    if (input.channelId === undefined) throw fieldError(['channel_id'], 'BASE_TYPE_REQUIRED', 'This field is required');
    return this.places.of(input.channelId, user, app);
  }

  async clickComponent(
    user: UserRecord,
    input: { applicationId: string; channelId: string; messageId: string; customId: string; values?: string[] },
  ): Promise<TriggerResult> {
    const app = this.application(input.applicationId);
    const place = this.places.of(input.channelId, user, app);
    const message = this.findMessage(place.channel.id, input.messageId);
    if (!message || message.authorId !== app.botUserId) throw GuildErrors.unknownMessage();
    const component = findComponent(message.body.components as unknown[], input.customId);
    if (!component)
      throw fieldError(['custom_id'], 'COMPONENT_UNKNOWN', 'The message has no component with this custom id.');
    if (component.disabled === true)
      throw fieldError(['custom_id'], 'COMPONENT_DISABLED', 'This component is disabled.');
    const setup = this.setup(app, user, place, [IntegrationType.GUILD_INSTALL, IntegrationType.USER_INSTALL]);
    const data: Record<string, unknown> = {
      custom_id: input.customId,
      component_type: component.type,
      ...(input.values !== undefined && { values: input.values }),
    };
    const interaction = this.newInteraction(app, user, InteractionType.MESSAGE_COMPONENT, place, setup, message.id);
    return this.deliver(app, user, interaction, place, setup, data, messageJson(this.ctx, message));
  }

  /** Submits the modal an interaction opened; files are uploaded by the user (multipart). */
  async submitModal(
    user: UserRecord,
    input: { interactionId: string; values: Record<string, SubmittedValue>; files: UploadedFile[] },
  ): Promise<TriggerResult> {
    const opener = this.ctx.store.interactions.getInteraction(input.interactionId);
    if (!opener || opener.userId !== user.id || opener.modal === null) throw InteractionErrors.unknownInteraction();
    const app = this.application(opener.applicationId);
    const place = this.places.of(opener.channelId, user, app);
    const setup = this.setup(app, user, place, [IntegrationType.GUILD_INSTALL, IntegrationType.USER_INSTALL]);
    const interaction = this.newInteraction(app, user, InteractionType.MODAL_SUBMIT, place, setup, opener.messageId);
    const data = submitModal(opener.modal, {
      values: input.values,
      files: input.files,
      uploadLimit: uploadLimitOf(user.premiumType),
      storeFile: (file) =>
        attachmentJson(this.ctx, opener.channelId, storeAttachment(this.ctx, opener.channelId, file)),
    });
    // A modal is answered once.
    this.ctx.store.interactions.updateInteraction({ ...opener, modal: null });
    const message = opener.messageId ? this.findMessage(opener.channelId, opener.messageId) : undefined;
    return this.deliver(
      app,
      user,
      interaction,
      place,
      setup,
      data,
      message ? messageJson(this.ctx, message) : undefined,
    );
  }

  // ── the application's side (token routes) ──

  /** Create Interaction Response. Returns the `with_response` body (the route sends 204 without it). */
  callback(interactionId: string, token: string, body: CallbackBody, files: UploadedFile[]): Record<string, unknown> {
    const interaction = this.ctx.store.interactions.getInteraction(interactionId);
    if (!interaction || interaction.token !== token) throw InteractionErrors.unknownInteraction();
    if (interaction.responseType !== null) throw InteractionErrors.alreadyAcknowledged();
    // After 3 s without a response the token is dead (published).
    if (this.ctx.now() - interaction.createdAt > INITIAL_RESPONSE_MS) throw InteractionErrors.unknownInteraction();
    if (!ALLOWED_CALLBACKS[interaction.type]?.has(body.type)) {
      throw fieldError(
        ['type'],
        'INTERACTION_CALLBACK_TYPE_INVALID',
        `Callback type ${body.type} is not valid for this interaction.`,
      );
    }
    const app = this.application(interaction.applicationId);
    const updated: InteractionRecord = { ...interaction, responseType: body.type };
    const resource: Record<string, unknown> = { type: body.type };
    let ephemeral = false;
    let activityInstanceId: string | undefined;
    switch (body.type) {
      case CallbackType.CHANNEL_MESSAGE_WITH_SOURCE:
      case CallbackType.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE: {
        const deferred = body.type === CallbackType.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE;
        const data = body.data ?? {};
        // A deferred response takes only the EPHEMERAL flag (published).
        if (deferred && ((data.flags ?? 0) & ~EPHEMERAL) !== 0)
          throw fieldError(
            ['data', 'flags'],
            'INTERACTION_DEFERRED_FLAGS_INVALID',
            'A deferred response accepts only the EPHEMERAL flag.',
          );
        const message = this.post(
          app,
          interaction,
          deferred ? { flags: data.flags } : data,
          deferred ? [] : files,
          deferred,
          null,
        );
        ephemeral = (message.flags & EPHEMERAL) !== 0;
        updated.originalMessageId = message.id;
        resource.message = messageJson(this.ctx, message);
        break;
      }
      case CallbackType.DEFERRED_UPDATE_MESSAGE:
        updated.originalMessageId = interaction.messageId;
        break;
      case CallbackType.UPDATE_MESSAGE: {
        const message = interaction.messageId
          ? this.findMessage(interaction.channelId, interaction.messageId)
          : undefined;
        if (!message) throw GuildErrors.unknownMessage();
        const edited = this.messages.applyEdit(message, body.data ?? {}, files, app.id);
        this.store(edited, false);
        updated.originalMessageId = message.id;
        resource.message = messageJson(this.ctx, edited);
        break;
      }
      case CallbackType.MODAL:
        updated.modal = checkModal(body.rawData);
        break;
      case CallbackType.LAUNCH_ACTIVITY:
        if ((app.flags & APPLICATION_FLAG_EMBEDDED) === 0)
          throw fieldError(
            ['type'],
            'INTERACTION_LAUNCH_ACTIVITY_NOT_ENABLED',
            'The application does not have activities enabled.',
          );
        activityInstanceId = new ActivityInstances(this.ctx).launch(
          app,
          interaction.userId,
          interactionPlace(interaction),
        ).instance.instanceId;
        resource.activity_instance = { id: activityInstanceId };
        break;
      case CallbackType.AUTOCOMPLETE_RESULT:
        // The choices the user is offered (readable with the dev route of PROTOCOL.md §17.7).
        updated.autocompleteChoices = parseAutocompleteResult(
          interaction.autocompleteOptionType ?? 3,
          body.rawData,
        ).choices;
        break;
      case CallbackType.PREMIUM_REQUIRED:
        // Deprecated (published): kept working; premium buttons replace it.
        break;
    }
    this.ctx.store.interactions.updateInteraction(updated);
    return {
      interaction: {
        id: interaction.id,
        type: interaction.type,
        ...(activityInstanceId !== undefined && { activity_instance_id: activityInstanceId }),
        ...(updated.originalMessageId !== null && { response_message_id: updated.originalMessageId }),
        ...(resource.message !== undefined && {
          response_message_loading: body.type === CallbackType.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE,
          response_message_ephemeral: ephemeral,
        }),
      },
      resource,
    };
  }

  /** The interaction behind a webhook token (application id and 15-minute lifetime checked). */
  byToken(applicationId: string, token: string): InteractionRecord {
    const interaction = this.ctx.store.interactions.findInteractionByToken(token);
    if (!interaction || interaction.applicationId !== applicationId) throw InteractionErrors.unknownWebhook();
    if (this.ctx.now() - interaction.createdAt > TOKEN_LIFETIME_MS) throw InteractionErrors.invalidWebhookToken();
    return interaction;
  }

  /** `@original` or a follow-up id of this interaction. */
  message(interaction: InteractionRecord, messageId: string): MessageRecord {
    const id = messageId === '@original' ? interaction.originalMessageId : messageId;
    if (id === null || !isSnowflake(id)) throw GuildErrors.unknownMessage();
    const message =
      this.ctx.store.interactions.getEphemeral(id) ?? this.ctx.store.botGuilds.getMessage(interaction.channelId, id);
    const ours =
      message &&
      (message.id === interaction.originalMessageId ||
        (message.body.interaction_metadata as { id?: string } | undefined)?.id === interaction.id);
    if (!message || !ours) throw GuildErrors.unknownMessage();
    return message;
  }

  editMessage(
    interaction: InteractionRecord,
    messageId: string,
    body: WebhookEditBody,
    files: UploadedFile[],
  ): MessageRecord {
    const app = this.application(interaction.applicationId);
    const message = this.message(interaction, messageId);
    const loading = (message.flags & LOADING) !== 0;
    // A poll may be added only when the deferred response is first filled in (published).
    if (body.poll !== undefined && body.poll !== null && !loading)
      throw fieldError(
        ['poll'],
        'POLL_ONLY_ON_DEFERRED_EDIT',
        'A poll can only be added when editing a deferred response.',
      );
    const { poll, ...rest } = body;
    let edited = this.messages.applyEdit(message, rest, files, app.id);
    if (loading)
      edited = {
        ...edited,
        flags: edited.flags & ~LOADING,
        editedAt: null,
        body: { ...edited.body, ...(poll != null && { poll }) },
      };
    this.store(edited, false);
    return edited;
  }

  deleteMessage(interaction: InteractionRecord, messageId: string): void {
    const message = this.message(interaction, messageId);
    if (this.ctx.store.interactions.getEphemeral(message.id)) this.ctx.store.interactions.deleteEphemeral(message.id);
    else this.messages.deleteForApplication(message);
  }

  /** Create Followup Message: the first one after a deferred response fills in the original (published). */
  followup(interaction: InteractionRecord, body: WebhookMessageBody, files: UploadedFile[]): MessageRecord {
    // Autocomplete has no messages: its token carries only the choices (published).
    if (interaction.responseType === null || interaction.type === InteractionType.AUTOCOMPLETE)
      throw InteractionErrors.unknownWebhook();
    const userInstallOnly = Object.keys(interaction.authorizingOwners).every(
      (key) => key === String(IntegrationType.USER_INSTALL),
    );
    if (userInstallOnly && interaction.followups >= USER_INSTALL_FOLLOWUP_LIMIT)
      throw InteractionErrors.followupLimit();
    const app = this.application(interaction.applicationId);
    const original = interaction.originalMessageId ? this.message(interaction, '@original') : undefined;
    let message: MessageRecord;
    if (original && (original.flags & LOADING) !== 0) {
      message = this.editMessage(
        interaction,
        '@original',
        {
          content: body.content,
          embeds: body.embeds,
          components: body.components,
          attachments: body.attachments,
          poll: body.poll,
        },
        files,
      );
    } else {
      message = this.post(app, interaction, body, files, false, interaction.originalMessageId);
    }
    this.ctx.store.interactions.updateInteraction({ ...interaction, followups: interaction.followups + 1 });
    return message;
  }

  json(message: MessageRecord) {
    return messageJson(this.ctx, message);
  }

  // ── internals ──

  private application(id: string): ApplicationRecord {
    const app = this.ctx.store.applications.get(id);
    if (!app) throw fieldError(['application_id'], 'UNKNOWN_APPLICATION', 'Unknown Application');
    return app;
  }

  /**
   * Who authorised the interaction and what each side may do (PROTOCOL.md §17.2), intersected with the command's
   * `integration_types`:
   * - guild channel: GUILD_INSTALL → the guild id when the bot is a member; USER_INSTALL → the user id when the user
   *   authorised the app. Responses become ephemeral when the app is not in the guild and the user lacks
   *   USE_EXTERNAL_APPS there.
   * - the bot's DM: GUILD_INSTALL → "0" when the user shares a guild with the bot; USER_INSTALL as above.
   * - a DM with other users or a group DM: USER_INSTALL only.
   * Neither → 403 50001.
   */
  private setup(app: ApplicationRecord, user: UserRecord, place: Place, integrationTypes: number[]): Setup {
    const owners: Record<string, string> = {};
    const userInstalled =
      this.ctx.store.grants.get(app.id, user.id) !== undefined &&
      integrationTypes.includes(IntegrationType.USER_INSTALL);
    if (place.kind === 'private') {
      if (
        place.context === InteractionContext.BOT_DM &&
        integrationTypes.includes(IntegrationType.GUILD_INSTALL) &&
        this.sharesGuildWithBot(app, user)
      ) {
        owners[String(IntegrationType.GUILD_INSTALL)] = '0';
      }
      if (userInstalled) owners[String(IntegrationType.USER_INSTALL)] = user.id;
      if (Object.keys(owners).length === 0) throw InteractionErrors.notInstalled();
      return {
        owners,
        context: place.context,
        userPermissions: null,
        appPermissions: dmAppPermissions(place.context === InteractionContext.BOT_DM),
        forceEphemeral: false,
      };
    }
    const { guild, channel, member } = place;
    const userPermissions = this.guilds.channelPermissions(guild, channel, member);
    if (!has(userPermissions, Permission.VIEW_CHANNEL)) throw GuildErrors.missingAccess();
    const botMember = this.guilds.member(guild.id, app.botUserId);
    if (botMember && integrationTypes.includes(IntegrationType.GUILD_INSTALL))
      owners[String(IntegrationType.GUILD_INSTALL)] = guild.id;
    if (userInstalled) owners[String(IntegrationType.USER_INSTALL)] = user.id;
    if (Object.keys(owners).length === 0) throw InteractionErrors.notInstalled();
    const everyone = {
      guildId: guild.id,
      userId: app.botUserId,
      nick: null,
      avatar: null,
      banner: null,
      bio: null,
      roles: [],
      joinedAt: 0,
      flags: 0,
      communicationDisabledUntil: null,
    };
    const appPermissions = this.guilds.channelPermissions(guild, channel, botMember ?? everyone);
    const forceEphemeral = !botMember && !has(userPermissions, Permission.USE_EXTERNAL_APPS);
    return { owners, context: InteractionContext.GUILD, userPermissions, appPermissions, forceEphemeral };
  }

  private sharesGuildWithBot(app: ApplicationRecord, user: UserRecord): boolean {
    return this.ctx.store.guilds
      .listForUser(user.id)
      .some((guild) => this.guilds.member(guild.id, app.botUserId) !== undefined);
  }

  /** A message of the channel, or one kept with an interaction (ephemeral, or in a private channel). */
  private findMessage(channelId: string, messageId: string): MessageRecord | undefined {
    if (!isSnowflake(messageId)) return undefined;
    const kept = this.ctx.store.interactions.getEphemeral(messageId);
    if (kept) return kept.channelId === channelId ? kept : undefined;
    return this.ctx.store.botGuilds.getMessage(channelId, messageId);
  }

  private newInteraction(
    app: ApplicationRecord,
    user: UserRecord,
    type: number,
    place: Place,
    setup: Setup,
    messageId: string | null,
    autocompleteOptionType?: number,
  ): InteractionRecord {
    const id = this.ctx.ids.next();
    const interaction: InteractionRecord = {
      id,
      applicationId: app.id,
      // Interaction tokens are bearer secrets for 15 minutes: unguessable, never logged.
      token: `aW50ZXJhY3Rpb24.${id}.${randomBytes(32).toString('base64url')}`,
      type,
      userId: user.id,
      guildId: place.kind === 'guild' ? place.guild.id : null,
      channelId: place.channel.id,
      context: setup.context,
      authorizingOwners: setup.owners,
      forceEphemeral: setup.forceEphemeral,
      createdAt: this.ctx.now(),
      responseType: null,
      originalMessageId: null,
      followups: 0,
      modal: null,
      messageId,
      ...(autocompleteOptionType !== undefined && { autocompleteOptionType }),
    };
    this.ctx.store.interactions.insertInteraction(interaction);
    return interaction;
  }

  private async deliver(
    app: ApplicationRecord,
    user: UserRecord,
    interaction: InteractionRecord,
    place: Place,
    setup: Setup,
    data: Record<string, unknown>,
    message: unknown,
  ): Promise<TriggerResult> {
    const payload = interactionPayload(this.ctx, this.guilds, {
      interaction,
      app,
      user,
      place,
      appPermissions: setup.appPermissions,
      userPermissions: setup.userPermissions,
      data,
      message,
    });
    const ids = { interaction_id: interaction.id, channel_id: interaction.channelId };
    const url = this.delivery.endpointOf(app);
    if (url === null) {
      this.delivery.toGateway(app, payload);
      return { ...ids, delivered: 'gateway' };
    }
    const answer = await this.delivery.toEndpoint(app, url, payload);
    if (!answer.ok) return { ...ids, delivered: 'endpoint', endpoint_error: answer.error };
    try {
      // The endpoint's answer is the interaction response, checked like one sent to the callback route.
      this.callback(interaction.id, interaction.token, parseCallback(answer.body), []);
      return { ...ids, delivered: 'endpoint' };
    } catch (error) {
      return { ...ids, delivered: 'endpoint', endpoint_error: error instanceof Error ? error.message : String(error) };
    }
  }

  /** DISCORD_LAUNCH_ACTIVITY: the platform launches the activity and posts the follow-up message itself. */
  private launchByPlatform(
    app: ApplicationRecord,
    interaction: InteractionRecord,
    command: CommandRecord,
  ): TriggerResult {
    const activityInstanceId = new ActivityInstances(this.ctx).launch(
      app,
      interaction.userId,
      interactionPlace(interaction),
    ).instance.instanceId;
    const user = this.ctx.store.users.get(interaction.userId)!;
    const message = this.post(
      app,
      { ...interaction, forceEphemeral: false },
      { content: `${user.globalName ?? user.username} started ${command.name === 'Launch' ? app.name : command.name}` },
      [],
      false,
      null,
    );
    this.ctx.store.interactions.updateInteraction({
      ...interaction,
      responseType: CallbackType.LAUNCH_ACTIVITY,
      originalMessageId: message.id,
    });
    return {
      interaction_id: interaction.id,
      channel_id: interaction.channelId,
      delivered: 'platform',
      activity_instance_id: activityInstanceId,
      message: messageJson(this.ctx, message),
    };
  }

  private post(
    app: ApplicationRecord,
    interaction: InteractionRecord,
    body: WebhookMessageBody,
    files: UploadedFile[],
    loading: boolean,
    originalResponseId: string | null,
  ): MessageRecord {
    const wantsEphemeral = ((body.flags ?? 0) & EPHEMERAL) !== 0 || interaction.forceEphemeral;
    const command = interaction.type === InteractionType.APPLICATION_COMMAND;
    const user = knownUserJson(this.ctx, interaction.userId);
    const metadata = {
      id: interaction.id,
      type: interaction.type,
      user,
      authorizing_integration_owners: interaction.authorizingOwners,
      ...(originalResponseId !== null && { original_response_message_id: originalResponseId }),
      ...(interaction.messageId !== null && { interacted_message_id: interaction.messageId }),
    };
    const message = this.messages.composeForApplication({
      applicationId: app.id,
      authorId: app.botUserId,
      guildId: interaction.guildId ?? '',
      channelId: interaction.channelId,
      type: command ? MessageType.CHAT_INPUT_COMMAND : MessageType.DEFAULT,
      extraFlags: (wantsEphemeral ? EPHEMERAL : 0) | (loading ? LOADING : 0),
      body: { ...body, flags: (body.flags ?? 0) & ~EPHEMERAL },
      files,
      extra: {
        interaction_metadata: metadata,
        interaction: { id: interaction.id, type: interaction.type, name: '', user },
        application_id: app.id,
        webhook_id: app.id,
      },
    });
    this.store(message, true);
    return message;
  }

  /**
   * Ephemeral messages, and every message in a DM or group DM (composed with no guild: the platform keeps no
   * bot-readable history of private channels), stay with the interaction; the others are channel messages.
   */
  private store(message: MessageRecord, isNew: boolean): void {
    if ((message.flags & EPHEMERAL) !== 0 || message.guildId === '') {
      if (isNew) this.ctx.store.interactions.insertEphemeral(message);
      else this.ctx.store.interactions.updateEphemeral(message);
      return;
    }
    this.messages.saveForApplication(message, isNew);
  }

  /**
   * `data.resolved` for CHANNEL (7) and USER (6) option values. A resolved channel carries `app_permissions` (the
   * bot's permissions in it) only when the bot is in the guild (published).
   */
  private resolvedOptions(
    app: ApplicationRecord,
    place: Place,
    options: unknown[],
  ): Record<string, unknown> | undefined {
    const channels: Record<string, unknown> = {};
    const users: Record<string, unknown> = {};
    const visit = (list: unknown[]) => {
      for (const option of list) {
        if (!option || typeof option !== 'object') continue;
        const { type, value, options: nested } = option as { type?: unknown; value?: unknown; options?: unknown };
        if (Array.isArray(nested)) visit(nested);
        if (typeof value !== 'string' || !isSnowflake(value)) continue;
        if (type === 7 && place.kind === 'private') {
          // Outside guilds the only channel a user can pick is the one they are in.
          if (value !== place.channel.id) throw fieldError(['options'], 'UNKNOWN_CHANNEL', 'Unknown Channel');
          channels[value] = { id: value, type: place.channel.type };
        } else if (type === 7 && place.kind === 'guild') {
          const { guild } = place;
          const found = this.ctx.store.guilds.getChannel(value);
          if (!found || found.guildId !== guild.id) throw fieldError(['options'], 'UNKNOWN_CHANNEL', 'Unknown Channel');
          const botMember = this.guilds.member(guild.id, app.botUserId);
          channels[value] = {
            id: found.id,
            name: found.name,
            type: found.type,
            ...(botMember && { app_permissions: this.guilds.channelPermissions(guild, found, botMember).toString() }),
          };
        }
        if (type === 6) {
          if (!this.ctx.store.users.get(value)) throw fieldError(['options'], 'UNKNOWN_USER', 'Unknown User');
          users[value] = knownUserJson(this.ctx, value);
        }
      }
    };
    visit(options);
    if (Object.keys(channels).length === 0 && Object.keys(users).length === 0) return undefined;
    return { ...(Object.keys(channels).length > 0 && { channels }), ...(Object.keys(users).length > 0 && { users }) };
  }

  private resolvedTarget(command: CommandRecord, place: Place, targetId: string): Record<string, unknown> {
    if (command.type === CommandType.USER && place.kind === 'private') {
      if (!place.channel.memberIds.includes(targetId)) throw fieldError(['target_id'], 'UNKNOWN_USER', 'Unknown User');
      return { users: { [targetId]: knownUserJson(this.ctx, targetId) } };
    }
    if (command.type === CommandType.USER && place.kind === 'guild') {
      const member = this.guilds.member(place.guild.id, targetId);
      if (!member) throw fieldError(['target_id'], 'UNKNOWN_USER', 'Unknown User');
      const { user, ...rest } = {
        ...(member ? { user: knownUserJson(this.ctx, targetId) } : {}),
        nick: member.nick,
        roles: member.roles,
      };
      return { users: { [targetId]: user }, members: { [targetId]: rest } };
    }
    const message = this.findMessage(place.channel.id, targetId);
    if (!message) throw fieldError(['target_id'], 'UNKNOWN_MESSAGE', 'Unknown Message');
    return { messages: { [targetId]: messageJson(this.ctx, message) } };
  }
}

interface Setup {
  owners: Record<string, string>;
  context: number;
  /** The member's permissions in the channel; null outside guilds. */
  userPermissions: bigint | null;
  appPermissions: bigint;
  forceEphemeral: boolean;
}

export interface CommandTrigger {
  applicationId: string;
  /** A guild channel, or a private channel an earlier trigger created. */
  channelId?: string | undefined;
  /** The other members of a DM or group DM (instead of `channelId`). */
  recipientIds?: string[] | undefined;
  commandId: string;
  options?: unknown[];
  targetId?: string;
}

const CONTEXT_NAMES: Record<number, string> = { 0: 'GUILD', 1: 'BOT_DM', 2: 'PRIVATE_CHANNEL' };

/**
 * The options a user sends must be the command's: known names with their declared type, the required ones present,
 * a declared choice when the option has choices, one subcommand at a time (as a client would enforce).
 */
function checkInvocationOptions(path: Array<string | number>, defined: DefinedOption[], sent: unknown[]): void {
  const byName = new Map(defined.map((option) => [option.name, option]));
  const seen = new Set<string>();
  for (const [index, raw] of sent.entries()) {
    const option = raw as { name?: unknown; type?: unknown; value?: unknown; options?: unknown };
    const definition = typeof option.name === 'string' ? byName.get(option.name) : undefined;
    if (!definition || definition.type !== option.type)
      throw fieldError(
        [...path, index],
        'INTERACTION_OPTION_UNKNOWN',
        'The command has no option of this name and type.',
      );
    seen.add(definition.name);
    if (definition.type === 1 || definition.type === 2) {
      if (sent.length !== 1)
        throw fieldError([...path, index], 'INTERACTION_OPTION_INVALID', 'One subcommand at a time.');
      checkInvocationOptions(
        [...path, index, 'options'],
        definition.options ?? [],
        Array.isArray(option.options) ? option.options : [],
      );
      continue;
    }
    if (
      definition.choices &&
      definition.choices.length > 0 &&
      !definition.choices.some((choice) => choice.value === option.value)
    ) {
      throw fieldError(
        [...path, index, 'value'],
        'INTERACTION_OPTION_INVALID',
        'The value must be one of the choices.',
      );
    }
  }
  const missing = defined.find((option) => option.required && !seen.has(option.name));
  if (missing) throw fieldError(path, 'INTERACTION_OPTION_REQUIRED', `Option ${missing.name} is required.`);
}

/** The component with this custom_id anywhere in a message's component tree. */
function findComponent(components: unknown[], customId: string): Record<string, unknown> | undefined {
  for (const component of components ?? []) {
    if (!component || typeof component !== 'object') continue;
    const node = component as Record<string, unknown>;
    if (node.custom_id === customId) return node;
    const children = [
      ...(Array.isArray(node.components) ? node.components : []),
      ...(node.accessory ? [node.accessory] : []),
    ];
    const found = findComponent(children, customId);
    if (found) return found;
  }
  return undefined;
}
