/**
 * Game invites (PROTOCOL.md §10.3): DM messages with an activity part, tied to the party of the activity that
 * can be joined — the sender's for a join invite (type 1), the recipient's for a join request (type 5). An invite
 * stays valid for `inviteValiditySeconds` and while that activity keeps the party; when it turns invalid the
 * recipient's sessions of the application family get ACTIVITY_INVITE_UPDATE. Invites never produce MESSAGE_CREATE.
 */
import type { PlatformKernel } from '../../kernel.js';
import type { SocialLimits } from '../limits.js';
import type { DmMessageRecord } from '../../store/social-types.js';
import type { ApplicationRecord, UserRecord } from '../../store/types.js';
import { SocialErrors } from '../errors.js';
import { transact, type PendingEvents } from '../events.js';
import { applicationFamily, familyOfId } from '../family.js';
import type { MessageService } from '../direct-messages/service.js';
import { channelIdFor } from '../direct-messages/serialize.js';
import { isJoinable, type Activity } from '../presence/activity.js';
import type { PresenceService } from '../presence/service.js';
import { isSnowflake } from '../../ids/snowflake.js';

export const INVITE_JOIN = 1;
export const INVITE_JOIN_REQUEST = 5;

export class InviteService {
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly ctx: PlatformKernel,
    private readonly limits: SocialLimits,
    private readonly presence: PresenceService,
    private readonly messages: MessageService,
  ) {
    presence.onActivityChange((userId, applicationId, activity) =>
      this.activityChanged(userId, applicationId, activity),
    );
  }

  send(
    app: ApplicationRecord,
    sender: UserRecord,
    recipient: UserRecord,
    type: number,
    content: string,
  ): Record<string, unknown> {
    this.messages.checkCanMessage(sender, recipient);
    const partyOwner = type === INVITE_JOIN ? sender : recipient;
    const activity = this.presence.activity(partyOwner.id, app.id);
    if (!isJoinable(activity)) throw SocialErrors.notJoinable();
    const now = this.ctx.now();
    const record = transact(this.ctx, (events) => {
      const message: DmMessageRecord = {
        id: this.ctx.ids.next(),
        applicationId: app.id,
        authorId: sender.id,
        recipientId: recipient.id,
        content,
        metadata: {},
        moderationMetadata: {},
        ...this.messages.channelFor(app, sender, recipient),
        createdAt: now,
        editedAt: null,
        invite: {
          type,
          partyOwnerId: partyOwner.id,
          partyId: activity.party.id,
          coverImage: activity.assets?.invite_cover_image ?? app.coverImage,
          expiresAt: now + this.limits.inviteValiditySeconds * 1000,
          valid: true,
        },
      };
      this.ctx.store.directMessages.insert(message);
      this.dispatch(events, 'ACTIVITY_INVITE_CREATE', message);
      return message;
    });
    this.schedule();
    return this.inviteJson(record);
  }

  /** The join secret of the party owner's current activity; 80021 when the invite is no longer valid. */
  accept(app: ApplicationRecord, user: UserRecord, messageId: string): { secret: string } {
    const message = isSnowflake(messageId) ? this.ctx.store.directMessages.get(messageId) : undefined;
    const invite = message?.invite;
    if (
      !message ||
      !invite ||
      message.recipientId !== user.id ||
      !applicationFamily(this.ctx, app).includes(message.applicationId)
    ) {
      throw SocialErrors.unknownMessage();
    }
    // A join request is answered with an invite of one's own, not accepted.
    if (invite.type !== INVITE_JOIN || !invite.valid || invite.expiresAt <= this.ctx.now())
      throw SocialErrors.inviteInvalid();
    const activity = this.presence.activity(invite.partyOwnerId, message.applicationId);
    if (activity?.party?.id !== invite.partyId) {
      // The party is gone (e.g. after a restart, presence being in memory): the invite is over.
      this.invalidate([message]);
      throw SocialErrors.inviteInvalid();
    }
    if (!isJoinable(activity)) throw SocialErrors.notJoinable();
    return { secret: activity.secrets.join };
  }

  /** Starts the expiry timer for invites already in the database (a restart). */
  start(): void {
    this.closed = false;
    this.schedule();
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  inviteJson(message: DmMessageRecord): Record<string, unknown> {
    const invite = message.invite!;
    const app = this.ctx.store.applications.get(message.applicationId);
    return {
      message_id: message.id,
      channel_id: channelIdFor(message, message.recipientId),
      sender_id: message.authorId,
      recipient_id: message.recipientId,
      type: invite.type,
      application_id: message.applicationId,
      parent_application_id: app?.parentId ?? null,
      party_id: invite.partyId,
      session_id: null,
      content: message.content,
      cover_image: invite.coverImage,
      created_at: new Date(message.createdAt).toISOString(),
      is_valid: invite.valid && invite.expiresAt > this.ctx.now(),
    };
  }

  private activityChanged(userId: string, applicationId: string, activity: Activity | undefined): void {
    const stale = this.ctx.store.directMessages
      .validInvitesOfPartyOwner(userId, applicationId)
      .filter((message) => activity?.party?.id !== message.invite!.partyId);
    if (stale.length > 0) this.invalidate(stale);
  }

  private invalidate(messages: DmMessageRecord[]): void {
    transact(this.ctx, (events) => {
      for (const message of messages) {
        const record: DmMessageRecord = { ...message, invite: { ...message.invite!, valid: false } };
        this.ctx.store.directMessages.update(record);
        this.dispatch(events, 'ACTIVITY_INVITE_UPDATE', record);
      }
    });
  }

  /** To the recipient's sessions of the invite's application and its siblings. */
  private dispatch(events: PendingEvents, t: string, message: DmMessageRecord): void {
    const d = this.inviteJson(message);
    for (const applicationId of familyOfId(this.ctx, message.applicationId)) {
      events.add({ t, d, to: { userIds: [message.recipientId], applicationId } });
    }
  }

  /** One timer for the earliest expiry; each firing expires what is due and plans the next. */
  private schedule(): void {
    if (this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const next = this.ctx.store.directMessages.nextInviteExpiry();
    if (next === undefined) return;
    // Capped so a far expiry is re-planned (setTimeout overflows past ~24.8 days) and a controlled clock that
    // jumps ahead is noticed within a minute.
    const delay = Math.min(Math.max(0, next - this.ctx.now()), 60_000);
    this.timer = setTimeout(() => this.expireDue(), delay);
    this.timer.unref();
  }

  private expireDue(): void {
    this.timer = undefined;
    try {
      const due = this.ctx.store.directMessages.expiredValidInvites(this.ctx.now());
      if (due.length > 0) this.invalidate(due);
    } catch (error) {
      this.ctx.logger.error({ err: error }, 'invite expiry failed');
    }
    this.schedule();
  }
}
