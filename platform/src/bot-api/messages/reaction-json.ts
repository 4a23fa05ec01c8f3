/** The published shapes of reactions: the partial emoji, and a message object's `reactions` (PROTOCOL.md §14.4). */
import type { PlatformKernel } from '../../kernel.js';
import { emojiKey, type ReactionEmoji, type ReactionType } from '../../store/reaction-types.js';

export function emojiJson(emoji: ReactionEmoji) {
  return { id: emoji.id, name: emoji.name, ...(emoji.animated && { animated: true }) };
}

/**
 * A message's `reactions` as `viewerId` sees them (`me`, `me_burst` are the viewer's); undefined when there are none.
 */
export function messageReactionsJson(ctx: PlatformKernel, messageId: string, viewerId: string) {
  const summaries = ctx.store.reactions.summaries(messageId);
  if (summaries.length === 0) return undefined;
  const mine = ctx.store.reactions.mine(messageId, viewerId);
  const reacted = (key: string, type: ReactionType) => mine.some((m) => m.emojiKey === key && m.type === type);
  return summaries.map((s) => ({
    emoji: emojiJson(s.emoji),
    count: s.normal + s.burst,
    count_details: { burst: s.burst, normal: s.normal },
    burst_colors: [],
    me_burst: reacted(emojiKey(s.emoji), 1),
    me: reacted(emojiKey(s.emoji), 0),
  }));
}
