/**
 * Message reactions (PROTOCOL.md §14.4 "Reactions"), as published: add (READ_MESSAGE_HISTORY, and ADD_REACTIONS for
 * an emoji nobody used yet on the message; at most 20 emojis per message), remove one's own, remove another user's,
 * remove all or one emoji's (MANAGE_MESSAGES), list who reacted; MESSAGE_REACTION_* gateway events for bots with
 * GUILD_MESSAGE_REACTIONS. The message object's `reactions`: reaction-json.ts.
 */
import type { PlatformKernel } from '../../kernel.js';
import { memberJson } from '../guilds/bot-serialize.js';
import { GuildErrors } from '../guilds/errors.js';
import { has, Permission } from '../guilds/permissions.js';
import { Intent, type GuildService } from '../guilds/service.js';
import type { Principal } from '../../http/auth.js';

import { emojiKey, type ReactionEmoji, type ReactionType } from '../../store/reaction-types.js';
import { knownUserJson } from '../../users/serialize.js';
import { parseEmoji, unknownEmoji } from './emoji.js';
import { emojiJson } from './reaction-json.js';
import type { ChannelContext, MessageService } from './service.js';
import { publishedError } from '../../http/published-errors.js';

/** Published: at most 20 different emojis on one message. */
const MAX_EMOJIS_PER_MESSAGE = 20;

const tooManyReactions = () => publishedError('MAX_REACTIONS');

export class ReactionService {
  constructor(
    private readonly ctx: PlatformKernel,
    private readonly guilds: GuildService,
    private readonly messages: MessageService,
  ) {}

  /** The channel (VIEW_CHANNEL and `required`) and the message in it, or the published errors. */
  private target(caller: Principal, channelId: string, messageId: string, ...required: bigint[]) {
    const target = this.messages.channelFor(caller, channelId, ...required);
    return { target, message: this.messages.find(target.channel.id, messageId) };
  }

  add(caller: Principal, channelId: string, messageId: string, emojiParam: string): void {
    const emoji = parseEmoji(emojiParam);
    const { target, message } = this.target(caller, channelId, messageId, Permission.READ_MESSAGE_HISTORY);
    const present = this.ctx.store.reactions.summaries(message.id);
    const key = emojiKey(emoji);
    const existing = present.find((s) => emojiKey(s.emoji) === key);
    if (!existing) {
      // A new emoji on the message needs ADD_REACTIONS; joining one already there does not (published).
      if (!has(target.permissions, Permission.ADD_REACTIONS)) throw GuildErrors.missingPermissions();
      if (emoji.id !== null && !this.canUseCustom(caller, emoji.id)) throw unknownEmoji();
      if (present.length >= MAX_EMOJIS_PER_MESSAGE) throw tooManyReactions();
    }
    // A custom emoji keeps the name and animation it was registered with, whatever the path said.
    const stored = existing?.emoji ?? emoji;
    const added = this.ctx.store.reactions.add({
      channelId: target.channel.id,
      messageId: message.id,
      emoji: stored,
      userId: caller.user.id,
      type: 0,
      createdAt: this.ctx.now(),
    });
    if (!added) return;
    const member = this.guilds.member(target.guild.id, caller.user.id);
    this.publish(target, 'MESSAGE_REACTION_ADD', {
      user_id: caller.user.id,
      channel_id: target.channel.id,
      message_id: message.id,
      guild_id: target.guild.id,
      ...(member && { member: memberJson(this.ctx, member) }),
      emoji: emojiJson(stored),
      message_author_id: message.authorId,
      burst: false,
      burst_colors: [],
      type: 0,
    });
  }

  /** Delete Own Reaction, or (another user's id) Delete User Reaction with MANAGE_MESSAGES. */
  remove(caller: Principal, channelId: string, messageId: string, emojiParam: string, userId: string | '@me'): void {
    const emoji = parseEmoji(emojiParam);
    const own = userId === '@me' || userId === caller.user.id;
    const { target, message } = own
      ? this.target(caller, channelId, messageId)
      : this.target(caller, channelId, messageId, Permission.MANAGE_MESSAGES);
    const removedUser = own ? caller.user.id : userId;
    const stored = this.storedEmoji(message.id, emoji);
    if (!stored || !this.ctx.store.reactions.remove(message.id, emojiKey(stored), removedUser, 0)) return;
    this.publish(target, 'MESSAGE_REACTION_REMOVE', {
      user_id: removedUser,
      channel_id: target.channel.id,
      message_id: message.id,
      guild_id: target.guild.id,
      emoji: emojiJson(stored),
      burst: false,
      type: 0,
    });
  }

  removeAll(caller: Principal, channelId: string, messageId: string): void {
    const { target, message } = this.target(caller, channelId, messageId, Permission.MANAGE_MESSAGES);
    if (this.ctx.store.reactions.removeAll(message.id) === 0) return;
    this.publish(target, 'MESSAGE_REACTION_REMOVE_ALL', {
      channel_id: target.channel.id,
      message_id: message.id,
      guild_id: target.guild.id,
    });
  }

  removeEmoji(caller: Principal, channelId: string, messageId: string, emojiParam: string): void {
    const emoji = parseEmoji(emojiParam);
    const { target, message } = this.target(caller, channelId, messageId, Permission.MANAGE_MESSAGES);
    const stored = this.storedEmoji(message.id, emoji);
    if (!stored || this.ctx.store.reactions.removeEmoji(message.id, emojiKey(stored)) === 0) return;
    this.publish(target, 'MESSAGE_REACTION_REMOVE_EMOJI', {
      channel_id: target.channel.id,
      guild_id: target.guild.id,
      message_id: message.id,
      emoji: emojiJson(stored),
    });
  }

  /** Get Reactions: the users who reacted with the emoji and type, by id, after `after`. */
  users(
    caller: Principal,
    channelId: string,
    messageId: string,
    emojiParam: string,
    query: { type: ReactionType; after?: string | undefined; limit: number },
  ) {
    const emoji = parseEmoji(emojiParam);
    const { message } = this.target(caller, channelId, messageId, Permission.READ_MESSAGE_HISTORY);
    return this.ctx.store.reactions
      .users(message.id, emojiKey(emoji), query.type, query.after ?? null, query.limit)
      .map((id) => knownUserJson(this.ctx, id));
  }

  /** The emoji as stored on the message (a custom one keeps its registered name), or undefined when absent. */
  private storedEmoji(messageId: string, emoji: ReactionEmoji): ReactionEmoji | undefined {
    const key = emojiKey(emoji);
    return this.ctx.store.reactions.summaries(messageId).find((s) => emojiKey(s.emoji) === key)?.emoji;
  }

  /** A custom emoji is usable by its application's bot (the platform models application emojis, not guild ones). */
  private canUseCustom(caller: Principal, emojiId: string): boolean {
    return caller.kind === 'bot' && this.ctx.store.botGuilds.getEmoji(caller.app.id, emojiId) !== undefined;
  }

  private publish(target: ChannelContext, t: string, d: Record<string, unknown>): void {
    this.guilds.publish(target.guild.id, t, d, Intent.GUILD_MESSAGE_REACTIONS);
  }
}
