/** Records of message reactions (PROTOCOL.md §14.4 "Reactions"). */

/** A reaction's emoji: unicode (`id` null, `name` the emoji) or an application's custom emoji. */
export interface ReactionEmoji {
  id: string | null;
  name: string;
  animated: boolean;
}

/** Normal (0) or burst — super — (1) reactions, as published. */
export type ReactionType = 0 | 1;

/** One emoji on a message: its counts by type and when it was first used (the order of `reactions`). */
export interface ReactionSummary {
  emoji: ReactionEmoji;
  normal: number;
  burst: number;
}

export interface ReactionRepository {
  /** Adds the user's reaction; false when it was already there (nothing changes). */
  add(reaction: {
    channelId: string;
    messageId: string;
    emoji: ReactionEmoji;
    userId: string;
    type: ReactionType;
    createdAt: number;
  }): boolean;
  /** Removes one user's reaction of a type; false when there was none. */
  remove(messageId: string, emojiKey: string, userId: string, type: ReactionType): boolean;
  /** Removes every reaction of one emoji; the number removed. */
  removeEmoji(messageId: string, emojiKey: string): number;
  /** Removes every reaction of the message; the number removed. */
  removeAll(messageId: string): number;
  /** The message's emojis in the order they were first used. */
  summaries(messageId: string): ReactionSummary[];
  /** Keys of the emojis this user reacted with, by type. */
  mine(messageId: string, userId: string): Array<{ emojiKey: string; type: ReactionType }>;
  /** Users who reacted with the emoji and type, by id ascending, after `after`. */
  users(messageId: string, emojiKey: string, type: ReactionType, after: string | null, limit: number): string[];
}

/** The key an emoji is stored under: the custom emoji's id, or the unicode emoji itself. */
export function emojiKey(emoji: Pick<ReactionEmoji, 'id' | 'name'>): string {
  return emoji.id ?? emoji.name;
}
