/**
 * Guild channel messages (PROTOCOL.md §14.4): create (replies, forwards with snapshots, enforce_nonce, files), edit,
 * delete, bulk delete, pins; each change goes out as a gateway event routed by intent, with MESSAGE_CONTENT blanking
 * for bots that lack it.
 */
import type { AutoModService } from '../guilds/automod/service.js';
import type { ReadsUrls } from '../../http/urls.js';
import type { PlatformKernel } from '../../kernel.js';
import { memberJson } from '../guilds/bot-serialize.js';
import { GuildErrors } from '../guilds/errors.js';
import { AuditAction } from '../guilds/audit.js';
import { has, Permission } from '../guilds/permissions.js';
import { Intent, type GuildService } from '../guilds/service.js';
import type { Principal } from '../../http/auth.js';
import { fieldError } from '../../http/errors.js';
import type { UploadedFile } from '../../http/multipart.js';
import type { MessageRecord } from '../../store/bot-types.js';
import type { ChannelRecord, GuildRecord } from '../../store/types.js';
import {
  checkComponents,
  embedsTotal,
  MAX_EMBED_TOTAL,
  MessageFlags,
  SETTABLE_FLAGS,
  type CreateMessageBody,
  type EditMessageBody,
} from './schemas.js';
import { isActiveSku } from '../../interactions/premium.js';
import { checkUploads, storeAttachment } from './attachments.js';
import { premiumButtonProblem } from './premium-buttons.js';
import { messageReactionsJson } from './reaction-json.js';
import {
  ATTACHMENT_IS_SPOILER,
  appReadsContent,
  blanked,
  messageJson,
  type MessageJson,
  type StoredAttachment,
} from './serialize.js';
import { publishedError } from '../../http/published-errors.js';
import { requireById } from '../../ids/snowflake.js';

/** enforce_nonce: the same author and nonce within this window returns the earlier message. */
const NONCE_WINDOW_MS = 5 * 60_000;
const MAX_PINS = 250;
const BULK_DELETE_MAX_AGE_MS = 14 * 86_400_000;
const TEXT_CHANNEL_TYPES = new Set([0, 2, 5]);
/** Message types a forward may carry (published: default, reply, chat input, context menu command). */
const FORWARDABLE_TYPES = new Set([0, 19, 20, 23]);
const MessageType = { DEFAULT: 0, CHANNEL_PINNED_MESSAGE: 6, REPLY: 19 } as const;

/** Embeds as stored and sent: `type` rich and every field's `inline` explicit (the published object has both). */
function normaliseEmbeds(embeds: NonNullable<CreateMessageBody['embeds']>): unknown[] {
  return embeds.map((embed) => ({
    type: 'rich',
    ...embed,
    ...(embed.fields && { fields: embed.fields.map((f) => ({ inline: false, ...f })) }),
  }));
}

export interface ChannelContext {
  guild: GuildRecord;
  channel: ChannelRecord;
  permissions: bigint;
}

export class MessageService {
  constructor(
    private readonly ctx: PlatformKernel & ReadsUrls,
    private readonly guilds: GuildService,
    private readonly automod: AutoModService,
  ) {}

  /** The channel with the caller's permissions in it; VIEW_CHANNEL is always required (50001 without it). */
  channelFor(caller: Principal, channelId: string, ...required: bigint[]): ChannelContext {
    const { guild, channel } = this.guilds.channel(channelId);
    if (!TEXT_CHANNEL_TYPES.has(channel.type)) throw GuildErrors.wrongChannelType();
    const permissions = this.guilds.requireChannelPermissions(
      guild,
      channel,
      caller.user.id,
      Permission.VIEW_CHANNEL,
      ...required,
    );
    return { guild, channel, permissions };
  }

  find(channelId: string, messageId: string): MessageRecord {
    const message = requireById(
      messageId,
      (messageId) => this.ctx.store.botGuilds.getMessage(channelId, messageId),
      GuildErrors.unknownMessage,
    );
    return message;
  }

  /** The message as this caller may see it (MESSAGE_CONTENT blanking for applications without the grant). */
  view(caller: Principal, message: MessageRecord): MessageJson {
    const reactions = messageReactionsJson(this.ctx, message.id, caller.user.id);
    const json = { ...messageJson(this.ctx, message), ...(reactions && { reactions }) };
    if (caller.kind === 'bot' && !appReadsContent(caller.app.flags, caller.user.id, message)) return blanked(json);
    return json;
  }

  /**
   * Slowmode (PROTOCOL.md §14.4): a user sends at most one message per `rate_limit_per_user` seconds in the channel
   * unless they hold BYPASS_SLOWMODE (since 2026-02-23 the only bypass; MANAGE_MESSAGES and MANAGE_CHANNELS no
   * longer are). Bots are never slowed.
   */
  private checkSlowmode(
    caller: Principal,
    target: { channel: ChannelRecord; guild: GuildRecord; permissions: bigint },
  ): void {
    const seconds = this.guilds.settings(target.channel.id).rateLimitPerUser;
    if (seconds === 0 || caller.user.bot || has(target.permissions, Permission.BYPASS_SLOWMODE)) return;
    const { messages } = this.ctx.store.botGuilds.searchMessages(target.guild.id, {
      channelIds: [target.channel.id],
      authorIds: [caller.user.id],
      ascending: false,
      limit: 1,
      offset: 0,
    });
    const waitMs = messages[0] ? messages[0].createdAt + seconds * 1000 - this.ctx.now() : 0;
    if (waitMs > 0) {
      throw publishedError('SLOWMODE', {}, { 'Retry-After': String(Math.ceil(waitMs / 1000)) });
    }
  }

  create(
    caller: Principal,
    channelId: string,
    body: CreateMessageBody,
    files: UploadedFile[],
  ): { json: MessageJson; created: boolean } {
    const { ctx } = this;
    const target = this.channelFor(caller, channelId, Permission.SEND_MESSAGES);
    const flags = body.flags ?? 0;
    if ((flags & ~SETTABLE_FLAGS) !== 0)
      throw fieldError(
        ['flags'],
        'MESSAGE_FLAGS_INVALID',
        'Only SUPPRESS_EMBEDS, SUPPRESS_NOTIFICATIONS, IS_VOICE_MESSAGE and IS_COMPONENTS_V2 can be set.',
      );
    const v2 = (flags & MessageFlags.IS_COMPONENTS_V2) !== 0;
    this.checkBody(body, v2, caller.kind === 'bot' ? caller.app.id : null);
    if (files.length > 0 && !has(target.permissions, Permission.ATTACH_FILES)) throw GuildErrors.missingPermissions();
    if ((body.embeds?.length ?? 0) > 0 && !has(target.permissions, Permission.EMBED_LINKS))
      throw GuildErrors.missingPermissions();

    const nonce = body.nonce === undefined ? null : String(body.nonce);
    if (body.enforce_nonce && nonce !== null) {
      const earlier = ctx.store.botGuilds.findByNonce(channelId, caller.user.id, nonce, ctx.now() - NONCE_WINDOW_MS);
      if (earlier) return { json: this.view(caller, earlier), created: false };
    }

    // After the nonce check: a retry of a message already sent is answered, not slowed down.
    this.checkSlowmode(caller, target);
    this.automod.check(target.guild, target.channel, caller.user.id, body.content ?? '');
    const reference = body.message_reference;
    const forward = reference?.type === 1;
    const id = ctx.ids.next();
    checkUploads(files.length, files);
    const extra: Record<string, unknown> = {};
    let type: number = MessageType.DEFAULT;
    let messageFlags = flags;

    if (reference && forward) {
      extra.message_snapshots = [
        { message: this.snapshot(caller, reference.channel_id ?? channelId, reference.message_id) },
      ];
      extra.message_reference = {
        type: 1,
        message_id: reference.message_id,
        channel_id: reference.channel_id ?? channelId,
        guild_id: reference.guild_id ?? target.guild.id,
      };
      messageFlags |= MessageFlags.HAS_SNAPSHOT;
    } else if (reference) {
      if (!has(target.permissions, Permission.READ_MESSAGE_HISTORY)) throw GuildErrors.replyWithoutHistory();
      const sourceChannel = reference.channel_id ?? channelId;
      const referenced =
        sourceChannel === channelId ? ctx.store.botGuilds.getMessage(channelId, reference.message_id) : undefined;
      if (!referenced && reference.fail_if_not_exists) {
        throw fieldError(['message_reference'], 'REPLIES_UNKNOWN_MESSAGE', 'Unknown message');
      }
      type = MessageType.REPLY;
      extra.message_reference = {
        type: 0,
        message_id: reference.message_id,
        channel_id: sourceChannel,
        guild_id: target.guild.id,
      };
      if (referenced) extra.referenced_message = messageJson(ctx, referenced);
    }

    const hasContent =
      (body.content ?? '') !== '' ||
      (body.embeds?.length ?? 0) > 0 ||
      (body.components?.length ?? 0) > 0 ||
      (body.sticker_ids?.length ?? 0) > 0 ||
      files.length > 0 ||
      body.poll !== undefined ||
      forward;
    if (!hasContent) throw GuildErrors.emptyMessage();

    // Every check passed: the files and the message are stored together (a refused message leaves no file behind).
    const message = ctx.store.transaction(() => {
      const attachments = this.storeAttachments(target.channel.id, body, files);
      const record: MessageRecord = {
        id,
        channelId: target.channel.id,
        guildId: target.guild.id,
        authorId: caller.user.id,
        type,
        content: forward ? '' : (body.content ?? ''),
        flags: messageFlags,
        nonce,
        body: {
          embeds: forward ? [] : normaliseEmbeds(body.embeds ?? []),
          components: body.components ?? [],
          attachments,
          ...extra,
        },
        pinnedAt: null,
        createdAt: ctx.now(),
        editedAt: null,
      };
      ctx.store.botGuilds.insertMessage(record);
      return record;
    });
    this.publishMessage('MESSAGE_CREATE', message);
    return { json: this.view(caller, message), created: true };
  }

  edit(
    caller: Principal,
    channelId: string,
    messageId: string,
    body: EditMessageBody,
    files: UploadedFile[],
  ): MessageJson {
    const { ctx } = this;
    const target = this.channelFor(caller, channelId);
    const message = this.find(target.channel.id, messageId);
    const own = message.authorId === caller.user.id;
    const touchesContent =
      body.content !== undefined ||
      body.embeds !== undefined ||
      body.components !== undefined ||
      body.attachments !== undefined ||
      files.length > 0;
    // Others may only toggle SUPPRESS_EMBEDS, with MANAGE_MESSAGES.
    if (!own && (touchesContent || !has(target.permissions, Permission.MANAGE_MESSAGES)))
      throw GuildErrors.cannotEditOthers();
    // An edit that uploads files or adds embeds needs what creating the message with them needs.
    if (files.length > 0 && !has(target.permissions, Permission.ATTACH_FILES)) throw GuildErrors.missingPermissions();
    if ((body.embeds?.length ?? 0) > 0 && !has(target.permissions, Permission.EMBED_LINKS))
      throw GuildErrors.missingPermissions();
    // The new files and the edit are stored together: an edit AutoMod refuses leaves no file behind.
    const updated = ctx.store.transaction(() => {
      const edited = this.applyEdit(message, body, files, caller.kind === 'bot' ? caller.app.id : null);
      if (edited.content !== message.content)
        this.automod.check(target.guild, target.channel, message.authorId, edited.content);
      ctx.store.botGuilds.updateMessage(edited);
      return edited;
    });
    this.publishMessage('MESSAGE_UPDATE', updated);
    return this.view(caller, updated);
  }

  /**
   * The edited message (not stored): flags (IS_COMPONENTS_V2 cannot be removed), content, embeds, components and
   * attachments, checked like a new message. Shared by the channel route and interaction responses.
   */
  applyEdit(
    message: MessageRecord,
    body: EditMessageBody,
    files: UploadedFile[],
    applicationId: string | null,
  ): MessageRecord {
    const { ctx } = this;
    const touchesContent =
      body.content !== undefined ||
      body.embeds !== undefined ||
      body.components !== undefined ||
      body.attachments !== undefined ||
      files.length > 0;
    let flags = message.flags;
    if (body.flags !== undefined && body.flags !== null) {
      const wasV2 = (message.flags & MessageFlags.IS_COMPONENTS_V2) !== 0;
      if (wasV2 && (body.flags & MessageFlags.IS_COMPONENTS_V2) === 0) {
        throw fieldError(
          ['flags'],
          'MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG',
          'The IS_COMPONENTS_V2 flag cannot be removed.',
        );
      }
      const editable = MessageFlags.SUPPRESS_EMBEDS | MessageFlags.IS_COMPONENTS_V2;
      flags = (message.flags & ~editable) | (body.flags & editable);
    }
    const v2 = (flags & MessageFlags.IS_COMPONENTS_V2) !== 0;
    const content = body.content === undefined ? message.content : (body.content ?? '');
    const embeds = body.embeds === undefined ? (message.body.embeds as unknown[]) : normaliseEmbeds(body.embeds ?? []);
    const components =
      body.components === undefined
        ? (message.body.components as Array<Record<string, unknown>>)
        : (body.components ?? []);
    this.checkBody(
      {
        content,
        embeds: embeds as CreateMessageBody['embeds'],
        components: components as CreateMessageBody['components'],
      },
      v2,
      applicationId,
    );
    let attachments = (message.body.attachments as StoredAttachment[] | undefined) ?? [];
    if (body.attachments !== undefined) {
      // Listed existing attachments stay (their description and spoiler flag may change); new ones come as files.
      const kept = new Map(attachments.map((a) => [a.id, a]));
      const next: StoredAttachment[] = [];
      for (const meta of body.attachments ?? []) {
        const existing = kept.get(String(meta.id));
        if (existing) {
          const spoiler = meta.is_spoiler ?? existing.spoiler;
          next.push({
            ...existing,
            ...(meta.description !== undefined && { description: meta.description }),
            spoiler,
            flags: spoiler ? existing.flags | ATTACHMENT_IS_SPOILER : existing.flags & ~ATTACHMENT_IS_SPOILER,
          });
        }
      }
      const fresh = this.storeAttachments(
        message.channelId,
        { attachments: (body.attachments ?? []).filter((m) => !kept.has(String(m.id))) },
        files,
        next.length + files.length,
      );
      attachments = [...next, ...fresh];
    } else if (files.length > 0) {
      // Published: files without an `attachments` array are added to the ones the message has.
      attachments = [
        ...attachments,
        ...this.storeAttachments(message.channelId, {}, files, attachments.length + files.length),
      ];
    }
    const updated: MessageRecord = {
      ...message,
      content,
      flags,
      body: { ...message.body, embeds, components, attachments },
      editedAt: touchesContent ? ctx.now() : message.editedAt,
    };
    return updated;
  }

  /**
   * A message an application posts through an interaction token (responses and follow-ups, PROTOCOL.md §17.3):
   * the body rules of `create`, no membership or permission check (the token is the authority, and a
   * user-installed app need not be in the guild). Returned unstored: the caller stores it (channel or ephemeral).
   */
  composeForApplication(input: {
    applicationId: string;
    authorId: string;
    guildId: string;
    channelId: string;
    type: number;
    extraFlags: number;
    body: CreateMessageBody;
    files: UploadedFile[];
    extra: Record<string, unknown>;
  }): MessageRecord {
    const { body } = input;
    const flags = body.flags ?? 0;
    if ((flags & ~SETTABLE_FLAGS) !== 0)
      throw fieldError(
        ['flags'],
        'MESSAGE_FLAGS_INVALID',
        'Only SUPPRESS_EMBEDS, SUPPRESS_NOTIFICATIONS, IS_VOICE_MESSAGE and IS_COMPONENTS_V2 can be set.',
      );
    this.checkBody(body, (flags & MessageFlags.IS_COMPONENTS_V2) !== 0, input.applicationId);
    const attachments = this.storeAttachments(input.channelId, body, input.files);
    return {
      id: this.ctx.ids.next(),
      channelId: input.channelId,
      guildId: input.guildId,
      authorId: input.authorId,
      type: input.type,
      content: body.content ?? '',
      flags: flags | input.extraFlags,
      nonce: null,
      body: {
        embeds: normaliseEmbeds(body.embeds ?? []),
        components: body.components ?? [],
        attachments,
        ...(body.poll !== undefined && { poll: body.poll }),
        ...input.extra,
      },
      pinnedAt: null,
      createdAt: this.ctx.now(),
      editedAt: null,
    };
  }

  /** Stores a composed channel message and sends MESSAGE_CREATE or MESSAGE_UPDATE to the guild's bots. */
  saveForApplication(message: MessageRecord, isNew: boolean): void {
    // Interaction responses and follow-ups are checked too: the published 400 on updating a deferred message.
    const channel = this.ctx.store.guilds.getChannel(message.channelId);
    const guild = channel && this.ctx.store.guilds.get(channel.guildId);
    if (channel && guild) this.automod.check(guild, channel, message.authorId, message.content);
    if (isNew) this.ctx.store.botGuilds.insertMessage(message);
    else this.ctx.store.botGuilds.updateMessage(message);
    this.publishMessage(isNew ? 'MESSAGE_CREATE' : 'MESSAGE_UPDATE', message);
  }

  /** Deletes a channel message an application posted through its interaction token. */
  deleteForApplication(message: MessageRecord): void {
    this.ctx.store.botGuilds.deleteMessage(message.channelId, message.id);
    this.guilds.publish(
      message.guildId,
      'MESSAGE_DELETE',
      { id: message.id, channel_id: message.channelId, guild_id: message.guildId },
      Intent.GUILD_MESSAGES,
    );
  }

  delete(caller: Principal, channelId: string, messageId: string, reason: string | null): void {
    const target = this.channelFor(caller, channelId);
    const message = this.find(target.channel.id, messageId);
    if (message.authorId !== caller.user.id) {
      if (!has(target.permissions, Permission.MANAGE_MESSAGES)) throw GuildErrors.missingPermissions();
      this.guilds.audit({
        guildId: target.guild.id,
        userId: caller.user.id,
        targetId: message.authorId,
        actionType: AuditAction.MESSAGE_DELETE,
        changes: null,
        options: { channel_id: target.channel.id, count: '1' },
        reason,
      });
    }
    this.ctx.store.botGuilds.deleteMessage(target.channel.id, message.id);
    this.guilds.publish(
      target.guild.id,
      'MESSAGE_DELETE',
      { id: message.id, channel_id: target.channel.id, guild_id: target.guild.id },
      Intent.GUILD_MESSAGES,
    );
  }

  /** Trigger Typing Indicator: TYPING_START to the guild's bots with GUILD_MESSAGE_TYPING (`timestamp` in seconds). */
  typing(caller: Principal, channelId: string): void {
    const target = this.channelFor(caller, channelId, Permission.SEND_MESSAGES);
    const member = this.guilds.member(target.guild.id, caller.user.id);
    this.guilds.publish(
      target.guild.id,
      'TYPING_START',
      {
        channel_id: target.channel.id,
        guild_id: target.guild.id,
        user_id: caller.user.id,
        timestamp: Math.floor(this.ctx.now() / 1000),
        ...(member && { member: memberJson(this.ctx, member) }),
      },
      Intent.GUILD_MESSAGE_TYPING,
    );
  }

  bulkDelete(caller: Principal, channelId: string, ids: string[], reason: string | null): void {
    const target = this.channelFor(caller, channelId, Permission.MANAGE_MESSAGES);
    const unique = [...new Set(ids)];
    const messages = unique
      .map((id) => this.ctx.store.botGuilds.getMessage(target.channel.id, id))
      .filter((m): m is MessageRecord => m !== undefined);
    const cutoff = this.ctx.now() - BULK_DELETE_MAX_AGE_MS;
    if (messages.some((m) => m.createdAt < cutoff)) throw publishedError('OLD_BULK_DELETE');
    this.ctx.store.transaction(() => {
      for (const m of messages) this.ctx.store.botGuilds.deleteMessage(target.channel.id, m.id);
      this.guilds.audit({
        guildId: target.guild.id,
        userId: caller.user.id,
        targetId: target.channel.id,
        actionType: AuditAction.MESSAGE_BULK_DELETE,
        changes: null,
        options: { count: String(messages.length) },
        reason,
      });
    });
    this.guilds.publish(
      target.guild.id,
      'MESSAGE_DELETE_BULK',
      { ids: messages.map((m) => m.id), channel_id: target.channel.id, guild_id: target.guild.id },
      Intent.GUILD_MESSAGES,
    );
  }

  /** Pin (PIN_MESSAGES; MANAGE_MESSAGES alone is not enough), at most 250 per channel. */
  setPinned(caller: Principal, channelId: string, messageId: string, pinned: boolean, reason: string | null): void {
    const { ctx } = this;
    const target = this.channelFor(caller, channelId, Permission.PIN_MESSAGES);
    const message = this.find(target.channel.id, messageId);
    if ((message.pinnedAt !== null) === pinned) return;
    if (pinned && ctx.store.botGuilds.countPins(target.channel.id) >= MAX_PINS) throw GuildErrors.tooManyPins();
    const now = ctx.now();
    const updated = { ...message, pinnedAt: pinned ? now : null };
    ctx.store.transaction(() => {
      ctx.store.botGuilds.updateMessage(updated);
      this.guilds.audit({
        guildId: target.guild.id,
        userId: caller.user.id,
        targetId: message.authorId,
        actionType: pinned ? AuditAction.MESSAGE_PIN : AuditAction.MESSAGE_UNPIN,
        changes: null,
        options: { channel_id: target.channel.id, message_id: message.id },
        reason,
      });
    });
    this.publishMessage('MESSAGE_UPDATE', updated);
    const latest = ctx.store.botGuilds.listPins(target.channel.id, null, 1)[0];
    this.guilds.publish(
      target.guild.id,
      'CHANNEL_PINS_UPDATE',
      {
        guild_id: target.guild.id,
        channel_id: target.channel.id,
        last_pin_timestamp: latest ? new Date(latest.pinnedAt!).toISOString() : null,
      },
      Intent.GUILDS,
    );
    if (pinned) {
      // The system message "pinned a message" (type 6) that points at the pinned message.
      const notice: MessageRecord = {
        id: ctx.ids.next(),
        channelId: target.channel.id,
        guildId: target.guild.id,
        authorId: caller.user.id,
        type: MessageType.CHANNEL_PINNED_MESSAGE,
        content: '',
        flags: 0,
        nonce: null,
        body: {
          embeds: [],
          components: [],
          attachments: [],
          message_reference: {
            type: 0,
            message_id: message.id,
            channel_id: target.channel.id,
            guild_id: target.guild.id,
          },
        },
        pinnedAt: null,
        createdAt: now,
        editedAt: null,
      };
      ctx.store.botGuilds.insertMessage(notice);
      this.publishMessage('MESSAGE_CREATE', notice);
    }
  }

  /** Without READ_MESSAGE_HISTORY the list is empty (published rule). */
  pins(
    caller: Principal,
    channelId: string,
    before: number | null,
    limit: number,
  ): { items: Array<{ pinned_at: string; message: MessageJson }>; has_more: boolean } {
    const target = this.channelFor(caller, channelId);
    if (!has(target.permissions, Permission.READ_MESSAGE_HISTORY)) return { items: [], has_more: false };
    const rows = this.ctx.store.botGuilds.listPins(target.channel.id, before, limit + 1);
    return {
      items: rows
        .slice(0, limit)
        .map((m) => ({ pinned_at: new Date(m.pinnedAt!).toISOString(), message: this.view(caller, m) })),
      has_more: rows.length > limit,
    };
  }

  // ── internals ──

  /** `applicationId`: the application posting (premium buttons must name one of its active SKUs); null for users. */
  private checkBody(
    body: Pick<CreateMessageBody, 'content' | 'embeds' | 'components' | 'poll' | 'sticker_ids' | 'shared_client_theme'>,
    v2: boolean,
    applicationId: string | null,
  ): void {
    if (v2) {
      // Components V2: only components carry the message (published).
      for (const field of ['content', 'embeds', 'poll', 'sticker_ids', 'shared_client_theme'] as const) {
        const value = body[field];
        const present =
          typeof value === 'string'
            ? value !== ''
            : Array.isArray(value)
              ? value.length > 0
              : value !== undefined && value !== null;
        if (present)
          throw fieldError(
            [field],
            'MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2',
            `The '${field}' field cannot be used when using MessageFlags.IS_COMPONENTS_V2`,
          );
      }
    }
    if (body.embeds && embedsTotal(body.embeds) > MAX_EMBED_TOTAL) {
      throw fieldError(
        ['embeds'],
        'BASE_TYPE_MAX_LENGTH',
        `Embed text must be ${MAX_EMBED_TOTAL} or fewer characters in total.`,
      );
    }
    const problem = checkComponents(body.components ?? [], v2);
    if (problem) throw fieldError(problem.path, problem.code, problem.message);
    if (applicationId !== null) {
      const premium = premiumButtonProblem(body.components ?? [], (sku) => isActiveSku(this.ctx, applicationId, sku));
      if (premium) throw fieldError(premium.path, premium.code, premium.message);
    }
  }

  /**
   * Files of `files[n]` matched to `attachments[].id = n` (attachments.ts: names, spoilers, titles). `count` is how
   * many attachments the message will carry with them; every limit is checked before the first file is stored.
   */
  private storeAttachments(
    channelId: string,
    body: Pick<CreateMessageBody, 'attachments'>,
    files: UploadedFile[],
    count = files.length,
  ): StoredAttachment[] {
    checkUploads(count, files);
    const metas = new Map((body.attachments ?? []).map((meta) => [String(meta.id), meta]));
    return files.map((file, index) => {
      const slot = /^files\[(\d+)\]$/.exec(file.field)?.[1] ?? String(index);
      return storeAttachment(this.ctx, channelId, file, metas.get(slot));
    });
  }

  /** The immutable copy a forward carries; 160014 when the forwarding application cannot read the source. */
  private snapshot(caller: Principal, channelId: string, messageId: string): Record<string, unknown> {
    const source = this.channelFor(caller, channelId);
    const message = this.find(source.channel.id, messageId);
    if (caller.kind === 'bot' && !appReadsContent(caller.app.flags, caller.user.id, message))
      throw GuildErrors.cannotForward();
    if (!FORWARDABLE_TYPES.has(message.type))
      throw fieldError(['message_reference'], 'MESSAGE_TYPE_CANNOT_BE_FORWARDED', 'This message cannot be forwarded.');
    // One level deep: forwarding a forward carries the original snapshot's content.
    const json = messageJson(this.ctx, message);
    return {
      type: json.type,
      content: json.content,
      embeds: json.embeds,
      attachments: json.attachments,
      timestamp: json.timestamp,
      edited_timestamp: json.edited_timestamp,
      flags: json.flags & ~MessageFlags.HAS_SNAPSHOT,
      mentions: [],
      mention_roles: [],
      stickers: [],
      sticker_items: [],
      components: json.components,
    };
  }

  /**
   * One payload per audience: bots with MESSAGE_CONTENT (and the author) get it whole, the others blanked; both
   * need GUILD_MESSAGES.
   */
  private publishMessage(t: 'MESSAGE_CREATE' | 'MESSAGE_UPDATE', message: MessageRecord): void {
    const userIds = this.ctx.store.botGuilds.botMemberIds(message.guildId);
    if (userIds.length === 0) return;
    const member = this.guilds.member(message.guildId, message.authorId);
    const json = {
      ...messageJson(this.ctx, message),
      ...(member && {
        member: {
          roles: member.roles,
          nick: member.nick,
          joined_at: new Date(member.joinedAt || message.createdAt).toISOString(),
          deaf: false,
          mute: false,
          flags: member.flags,
        },
      }),
    };
    const others = userIds.filter((id) => id !== message.authorId);
    const author = userIds.filter((id) => id === message.authorId);
    if (author.length > 0) this.ctx.bus.publish({ t, d: json, to: { userIds: author, intent: Intent.GUILD_MESSAGES } });
    if (others.length === 0) return;
    this.ctx.bus.publish({
      t,
      d: json,
      to: { userIds: others, intent: Intent.GUILD_MESSAGES | Intent.MESSAGE_CONTENT },
    });
    this.ctx.bus.publish({
      t,
      d: blanked(json),
      to: { userIds: others, intent: Intent.GUILD_MESSAGES, withoutIntent: Intent.MESSAGE_CONTENT },
    });
  }
}
