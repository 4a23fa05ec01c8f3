import type { PlatformKernel } from '../../kernel.js';
import type { DmMessageRecord } from '../../store/social-types.js';
import type { UserRecord } from '../../store/types.js';
import { userJson } from '../../users/serialize.js';

/** The channel id as `viewerId` sees it: the shared id of a persistent DM, else the other user's id. */
export function channelIdFor(message: DmMessageRecord, viewerId: string): string {
  if (message.channelId) return message.channelId;
  return viewerId === message.authorId ? message.recipientId : message.authorId;
}

/** The DM message object (PROTOCOL.md §10.4) as one of its two users sees it. */
export function messageJson(
  ctx: PlatformKernel,
  message: DmMessageRecord,
  viewerId: string,
  author?: UserRecord,
): Record<string, unknown> {
  const authorRecord = author ?? ctx.store.users.get(message.authorId);
  const app = ctx.store.applications.get(message.applicationId);
  return {
    id: message.id,
    type: 0,
    content: message.content,
    channel_id: channelIdFor(message, viewerId),
    channel_type: message.channelType,
    author: authorRecord ? userJson(ctx, authorRecord, app ? { app } : {}) : { id: message.authorId },
    recipient_id: message.recipientId,
    timestamp: new Date(message.createdAt).toISOString(),
    edited_timestamp: message.editedAt === null ? null : new Date(message.editedAt).toISOString(),
    metadata: message.metadata,
    moderation_metadata: message.moderationMetadata,
    application_id: message.applicationId,
    sent_from_game: true,
    flags: 0,
  };
}
