/** The published message object (PROTOCOL.md §14.4) and MESSAGE_CONTENT blanking. */
import { attachmentPath } from '../../attachments/server.js';
import type { ReadsUrls } from '../../http/urls.js';
import type { PlatformKernel } from '../../kernel.js';
import type { MessageRecord } from '../../store/bot-types.js';
import { knownUserJson } from '../../users/serialize.js';

export interface StoredAttachment {
  id: string;
  filename: string;
  size: number;
  content_type: string;
  description?: string;
  title?: string;
  flags: number;
  spoiler: boolean;
}

/** Attachment flag IS_SPOILER. */
export const ATTACHMENT_IS_SPOILER = 1 << 3;

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function attachmentJson(ctx: ReadsUrls, channelId: string, attachment: StoredAttachment) {
  // On the attachments origin, never the platform's own (PROTOCOL.md §14.4 "Attachment files").
  const url = `${ctx.urls().attachments}${attachmentPath(channelId, attachment.id, attachment.filename)}`;
  return {
    id: attachment.id,
    filename: attachment.filename,
    size: attachment.size,
    url,
    proxy_url: url,
    content_type: attachment.content_type,
    flags: attachment.flags,
    ...(attachment.description !== undefined && { description: attachment.description }),
    ...(attachment.title !== undefined && { title: attachment.title }),
  };
}

export function messageJson(ctx: PlatformKernel & ReadsUrls, message: MessageRecord) {
  const body = message.body;
  const attachments = ((body.attachments as StoredAttachment[] | undefined) ?? []).map((a) =>
    attachmentJson(ctx, message.channelId, a),
  );
  return {
    id: message.id,
    type: message.type,
    channel_id: message.channelId,
    guild_id: message.guildId,
    author: knownUserJson(ctx, message.authorId),
    content: message.content,
    timestamp: iso(message.createdAt)!,
    edited_timestamp: iso(message.editedAt),
    tts: false,
    mention_everyone: false,
    mentions: [],
    mention_roles: [],
    attachments,
    embeds: (body.embeds as unknown[] | undefined) ?? [],
    components: (body.components as unknown[] | undefined) ?? [],
    sticker_items: [],
    pinned: message.pinnedAt !== null,
    flags: message.flags,
    ...(message.nonce !== null && { nonce: message.nonce }),
    ...(body.message_reference !== undefined && { message_reference: body.message_reference }),
    ...(body.message_snapshots !== undefined && { message_snapshots: body.message_snapshots }),
    ...(body.referenced_message !== undefined && { referenced_message: body.referenced_message }),
    ...(body.poll !== undefined && { poll: body.poll }),
    // Interaction responses and follow-ups (PROTOCOL.md §17.3): posted through the app's interaction webhook.
    ...(body.interaction_metadata !== undefined && {
      interaction_metadata: body.interaction_metadata,
      interaction: body.interaction,
      application_id: body.application_id as string,
      webhook_id: body.webhook_id as string,
    }),
  };
}

export type MessageJson = ReturnType<typeof messageJson>;

/**
 * What an application without the MESSAGE_CONTENT grant sees of a message it did not write: no content, embeds,
 * attachments, components or poll (published intent rule; snapshots of forwards likewise).
 */
export function blanked<T extends MessageJson>(json: T): T {
  return {
    ...json,
    content: '',
    embeds: [],
    attachments: [],
    components: [],
    ...(json.message_snapshots !== undefined && { message_snapshots: [] }),
  };
}

/** Application flags that grant MESSAGE_CONTENT (full or limited). */
export const MESSAGE_CONTENT_FLAGS = (1 << 18) | (1 << 19);

export function appReadsContent(appFlags: number, botUserId: string, message: MessageRecord): boolean {
  return (appFlags & MESSAGE_CONTENT_FLAGS) !== 0 || message.authorId === botUserId;
}
