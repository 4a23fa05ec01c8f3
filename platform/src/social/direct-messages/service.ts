/**
 * Direct messages (PROTOCOL.md §10.4). A DM between friends of whom at least one is a full account is persistent
 * (one channel id per pair); otherwise it is ephemeral and each side sees the other's id as the channel id.
 * Messages belong to the application they were sent from and are visible to its family (parent and children);
 * every change is dispatched to both users' sessions of those applications and queued as a webhook of the
 * message's application in the same transaction.
 */
import type { PlatformKernel } from '../../kernel.js';
import type { SocialLimits } from '../limits.js';
import type { DmMessageRecord } from '../../store/social-types.js';
import type { ApplicationRecord, UserRecord } from '../../store/types.js';
import { userJson } from '../../users/serialize.js';
import { enqueueWebhookEvent } from '../../webhooks/events.js';
import { SocialErrors } from '../errors.js';
import { transact, type PendingEvents } from '../events.js';
import { applicationFamily, familyOfId } from '../family.js';
import type { RelationshipService } from '../relationships/service.js';
import { channelIdFor, messageJson } from './serialize.js';
import { isSnowflake } from '../../ids/snowflake.js';

export class MessageService {
  constructor(
    private readonly ctx: PlatformKernel,
    private readonly limits: SocialLimits,
    /** Starts webhook delivery of the events a change queued (after its transaction). */
    private readonly wakeWebhooks: () => void,
    private readonly relationships: RelationshipService,
  ) {}

  /** Who may write to whom: not oneself, and nobody blocked either way (403 50007). */
  checkCanMessage(author: UserRecord, recipient: UserRecord): void {
    if (author.id === recipient.id || this.relationships.blockedEitherWay(author.id, recipient.id))
      throw SocialErrors.cannotMessage();
  }

  /** The channel a new message between the two goes to. */
  channelFor(app: ApplicationRecord, a: UserRecord, b: UserRecord): Pick<DmMessageRecord, 'channelType' | 'channelId'> {
    const persistent = this.relationships.areFriends(a.id, b.id, app.id) && !(a.isProvisional && b.isProvisional);
    if (!persistent) return { channelType: 18, channelId: null };
    return { channelType: 1, channelId: this.ctx.store.directMessages.channelId(a.id, b.id, this.ctx.ids.next()) };
  }

  send(
    app: ApplicationRecord,
    author: UserRecord,
    recipient: UserRecord,
    content: string,
    metadata: Record<string, string>,
  ): Record<string, unknown> {
    this.checkCanMessage(author, recipient);
    const message = transact(this.ctx, (events) => {
      const record: DmMessageRecord = {
        id: this.ctx.ids.next(),
        applicationId: app.id,
        authorId: author.id,
        recipientId: recipient.id,
        content,
        metadata,
        moderationMetadata: {},
        ...this.channelFor(app, author, recipient),
        createdAt: this.ctx.now(),
        editedAt: null,
        invite: null,
      };
      this.ctx.store.directMessages.insert(record);
      this.dispatchBoth(events, 'MESSAGE_CREATE', record, (viewer) => messageJson(this.ctx, record, viewer, author));
      this.webhook(app, 'GAME_DIRECT_MESSAGE_CREATE', record, messageJson(this.ctx, record, author.id, author));
      return record;
    });
    this.wakeWebhooks();
    return messageJson(this.ctx, message, author.id, author);
  }

  edit(
    app: ApplicationRecord,
    actor: UserRecord,
    other: UserRecord,
    messageId: string,
    content: string,
  ): Record<string, unknown> {
    const message = this.ownMessage(app, actor, other, messageId);
    const updated = transact(this.ctx, (events) => {
      const record: DmMessageRecord = { ...message, content, editedAt: this.ctx.now() };
      this.ctx.store.directMessages.update(record);
      this.dispatchBoth(events, 'MESSAGE_UPDATE', record, (viewer) => messageJson(this.ctx, record, viewer, actor));
      this.webhookOf(record, 'GAME_DIRECT_MESSAGE_UPDATE', messageJson(this.ctx, record, actor.id, actor));
      return record;
    });
    this.wakeWebhooks();
    return messageJson(this.ctx, updated, actor.id, actor);
  }

  delete(app: ApplicationRecord, actor: UserRecord, other: UserRecord, messageId: string): void {
    const message = this.ownMessage(app, actor, other, messageId);
    transact(this.ctx, (events) => {
      this.ctx.store.directMessages.delete(message.id);
      this.dispatchBoth(events, 'MESSAGE_DELETE', message, (viewer) => ({
        id: message.id,
        channel_id: channelIdFor(message, viewer),
      }));
      this.webhookOf(message, 'GAME_DIRECT_MESSAGE_DELETE', {
        id: message.id,
        channel_id: channelIdFor(message, actor.id),
      });
    });
    this.wakeWebhooks();
  }

  /** Bot route: replaces the moderation metadata; MESSAGE_UPDATE to both users, no webhook. */
  /** `between`: the published route names the DM's two users; a message of another conversation is unknown. */
  setModerationMetadata(
    app: ApplicationRecord,
    messageId: string,
    metadata: Record<string, string>,
    between?: [string, string],
  ): void {
    const message = this.live(messageId);
    if (!message || message.applicationId !== app.id) throw SocialErrors.unknownMessage();
    if (between) {
      const pair = new Set([message.authorId, message.recipientId]);
      if (!pair.has(between[0]) || !pair.has(between[1]) || between[0] === between[1])
        throw SocialErrors.unknownMessage();
    }
    transact(this.ctx, (events) => {
      const record: DmMessageRecord = { ...message, moderationMetadata: metadata };
      this.ctx.store.directMessages.update(record);
      this.dispatchBoth(events, 'MESSAGE_UPDATE', record, (viewer) => messageJson(this.ctx, record, viewer));
    });
  }

  history(
    app: ApplicationRecord,
    viewer: UserRecord,
    other: UserRecord,
    limit: number,
    before: string | undefined,
  ): Record<string, unknown>[] {
    return this.ctx.store.directMessages
      .history({
        userId: viewer.id,
        otherId: other.id,
        applicationIds: applicationFamily(this.ctx, app),
        since: this.historyStart(),
        ...(before !== undefined && { before }),
        limit,
      })
      .map((message) => messageJson(this.ctx, message, viewer.id));
  }

  summaries(app: ApplicationRecord, viewer: UserRecord): { user_id: string; last_message_id: string }[] {
    return this.ctx.store.directMessages
      .summaries(viewer.id, applicationFamily(this.ctx, app), this.historyStart())
      .map((s) => ({ user_id: s.otherId, last_message_id: s.lastMessageId }));
  }

  /** Sends `d(viewer)` to each user's sessions of every application in the message's family. */
  dispatchBoth(events: PendingEvents, t: string, message: DmMessageRecord, d: (viewerId: string) => unknown): void {
    for (const applicationId of familyOfId(this.ctx, message.applicationId)) {
      for (const userId of [message.authorId, message.recipientId])
        events.add({ t, d: d(userId), to: { userIds: [userId], applicationId } });
    }
  }

  private historyStart(): number {
    return this.ctx.now() - this.limits.historySeconds * 1000;
  }

  /** A message within the history window that is not an invite. */
  private live(messageId: string): DmMessageRecord | undefined {
    if (!isSnowflake(messageId)) return undefined;
    const message = this.ctx.store.directMessages.get(messageId);
    if (!message || message.invite || message.createdAt < this.historyStart()) return undefined;
    return message;
  }

  /** A message of the conversation with `other`, visible to the app's family, written by the actor (else 50005). */
  private ownMessage(app: ApplicationRecord, actor: UserRecord, other: UserRecord, messageId: string): DmMessageRecord {
    const message = this.live(messageId);
    const inConversation =
      message &&
      ((message.authorId === actor.id && message.recipientId === other.id) ||
        (message.authorId === other.id && message.recipientId === actor.id));
    if (!message || !inConversation || !applicationFamily(this.ctx, app).includes(message.applicationId))
      throw SocialErrors.unknownMessage();
    if (message.authorId !== actor.id) throw SocialErrors.notAuthor();
    return message;
  }

  private webhookOf(message: DmMessageRecord, type: string, data: Record<string, unknown>): void {
    const app = this.ctx.store.applications.get(message.applicationId);
    if (app) this.webhook(app, type, message, data);
  }

  /** GAME_DIRECT_MESSAGE_* data: the event's payload plus the channel with both users. */
  private webhook(app: ApplicationRecord, type: string, message: DmMessageRecord, data: Record<string, unknown>): void {
    const users = [message.authorId, message.recipientId].map((id) => this.ctx.store.users.get(id));
    enqueueWebhookEvent(this.ctx, app, type, {
      ...data,
      channel: {
        id: channelIdFor(message, message.authorId),
        type: message.channelType,
        recipients: users.map((user, i) =>
          user ? userJson(this.ctx, user, { app }) : { id: i === 0 ? message.authorId : message.recipientId },
        ),
      },
    });
  }
}
