/**
 * Lobby chat (PROTOCOL.md §10.5): send, history, delete and moderation metadata. Messages reach every member's
 * sessions of the application and the lobby's webhook; a lobby linked to a guild channel also gets a copy there.
 */
import type { PlatformKernel } from '../kernel.js';
import type { Principal } from '../http/auth.js';
import type { LobbyMessageRecord, LobbyRecord } from '../store/lobby-types.js';
import { requireMember } from './access.js';
import { LobbyErrors } from './errors.js';
import { lobbyMessageJson } from './serialize.js';
import type { Lobbies } from './service.js';
import { requireById } from '../ids/snowflake.js';

export interface NewLobbyMessage {
  content: string;
  metadata?: Record<string, string> | null | undefined;
  flags?: number | undefined;
}

export class LobbyMessages {
  constructor(
    private readonly ctx: PlatformKernel,
    private readonly lobbies: Lobbies,
  ) {}

  /** A member (Bearer) or the application's bot (member or not) posts to the lobby. */
  send(caller: Principal, lobby: LobbyRecord, body: NewLobbyMessage): Record<string, unknown> {
    const { ctx } = this;
    const member =
      caller.kind === 'bearer'
        ? requireMember(ctx, lobby, caller.user.id)
        : ctx.store.lobbies.member(lobby.id, caller.user.id);
    const message: LobbyMessageRecord = {
      id: ctx.ids.next(),
      lobbyId: lobby.id,
      applicationId: lobby.applicationId,
      authorId: caller.user.id,
      content: body.content,
      metadata: body.metadata ?? {},
      moderationMetadata: {},
      flags: body.flags ?? 0,
      additionalName: member?.additionalName ?? null,
      authorWasMember: member !== undefined,
      createdAt: ctx.now(),
    };
    const json = lobbyMessageJson(ctx, message);
    this.lobbies.run((pending) => {
      ctx.store.lobbies.insertMessage(message);
      this.copyToLinkedChannel(lobby, message);
      pending.send(lobby, this.lobbies.memberIds(lobby), 'LOBBY_MESSAGE_CREATE', json);
      this.lobbies.webhook(lobby, 'LOBBY_MESSAGE_CREATE', json, pending);
    });
    return json;
  }

  /** Newest first, within the history window; with `after`, the `limit` messages that follow that id. */
  history(caller: Principal, lobby: LobbyRecord, limit: number, after?: string): Record<string, unknown>[] {
    if (caller.kind === 'bearer') requireMember(this.ctx, lobby, caller.user.id);
    const since = this.ctx.now() - this.lobbies.limits.historySeconds * 1000;
    return this.ctx.store.lobbies
      .listMessages(lobby.id, since, limit, after)
      .map((message) => lobbyMessageJson(this.ctx, message));
  }

  /** The author or the bot (OURS). The copy in a linked channel goes too. */
  delete(caller: Principal, lobby: LobbyRecord, messageId: string): void {
    const { ctx } = this;
    if (caller.kind === 'bearer') requireMember(ctx, lobby, caller.user.id);
    const message = this.find(lobby, messageId);
    if (caller.kind === 'bearer' && message.authorId !== caller.user.id) throw LobbyErrors.notAuthor();
    this.lobbies.run((pending) => {
      ctx.store.lobbies.deleteMessage(message.id);
      ctx.store.lobbies.deleteChannelMessage(message.id);
      const data = { id: message.id, lobby_id: lobby.id };
      pending.send(lobby, this.lobbies.memberIds(lobby), 'LOBBY_MESSAGE_DELETE', data);
      this.lobbies.webhook(lobby, 'LOBBY_MESSAGE_DELETE', data, pending);
    });
  }

  /** Replaces the message's moderation metadata; members see LOBBY_MESSAGE_UPDATE, webhooks get nothing. */
  setModerationMetadata(lobby: LobbyRecord, messageId: string, moderation: Record<string, string>): void {
    const message = this.find(lobby, messageId);
    this.lobbies.run((pending) => {
      const updated = { ...message, moderationMetadata: moderation };
      this.ctx.store.lobbies.updateMessage(updated);
      pending.send(lobby, this.lobbies.memberIds(lobby), 'LOBBY_MESSAGE_UPDATE', lobbyMessageJson(this.ctx, updated));
    });
  }

  private find(lobby: LobbyRecord, id: string): LobbyMessageRecord {
    const message = requireById(id, (id) => this.ctx.store.lobbies.message(lobby.id, id), LobbyErrors.unknownMessage);
    return message;
  }

  /** Copies the message into the linked guild channel (without metadata); the copy outlives the lobby. */
  private copyToLinkedChannel(lobby: LobbyRecord, message: LobbyMessageRecord): void {
    const channel =
      lobby.linkedChannelId === null ? undefined : this.ctx.store.guilds.getChannel(lobby.linkedChannelId);
    if (!channel) return;
    this.ctx.store.lobbies.insertChannelMessage({
      id: message.id,
      channelId: channel.id,
      guildId: channel.guildId,
      authorId: message.authorId,
      applicationId: message.applicationId,
      lobbyId: lobby.id,
      content: message.content,
      createdAt: message.createdAt,
    });
  }
}
