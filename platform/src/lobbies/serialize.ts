import type { PlatformContext } from '../context.js';
import type { ChannelMessageRecord, LobbyMemberRecord, LobbyMessageRecord, LobbyRecord } from '../store/lobby-types.js';
import { userJson, type UserJson } from '../users/serialize.js';
import type { LobbyPresence } from './presence.js';

export type Json = Record<string, unknown>;

function authorJson(ctx: PlatformContext, userId: string): UserJson {
  const user = ctx.store.users.get(userId);
  return user ? userJson(ctx, user) : { id: userId };
}

/** Member `{id, metadata, flags, additional_name?, connected, user}`; `additional_name` only when set. */
export function memberJson(ctx: PlatformContext, presence: LobbyPresence, lobby: LobbyRecord, member: LobbyMemberRecord): Json {
  const json: Json = {
    id: member.userId,
    metadata: member.metadata,
    flags: member.flags,
    connected: presence.has(member.userId, lobby.applicationId),
    user: authorJson(ctx, member.userId),
  };
  if (member.additionalName !== null) json.additional_name = member.additionalName;
  return json;
}

function linkedChannelJson(ctx: PlatformContext, channelId: string | null): Json | null {
  if (channelId === null) return null;
  const channel = ctx.store.guilds.getChannel(channelId);
  return channel ? { id: channel.id, name: channel.name, guild_id: channel.guildId } : null;
}

/**
 * Lobby `{id, application_id, metadata, members, linked_channel, flags}`; `metadata` is always a map (`{}` when none).
 * The application's bot also sees `override_event_webhooks_url` and `idle_timeout_seconds` (settings it controls).
 */
export function lobbyJson(ctx: PlatformContext, presence: LobbyPresence, lobby: LobbyRecord, view: { bot?: boolean } = {}): Json {
  const json: Json = {
    id: lobby.id,
    application_id: lobby.applicationId,
    metadata: lobby.metadata,
    members: ctx.store.lobbies.members(lobby.id).map((member) => memberJson(ctx, presence, lobby, member)),
    linked_channel: linkedChannelJson(ctx, lobby.linkedChannelId),
    flags: lobby.flags,
  };
  if (view.bot) {
    json.override_event_webhooks_url = lobby.overrideWebhookUrl;
    json.idle_timeout_seconds = lobby.idleTimeoutSeconds;
  }
  return json;
}

/** Lobby message; `lobby_member` only when the author had an `additional_name` when sending. */
export function lobbyMessageJson(ctx: PlatformContext, message: LobbyMessageRecord): Json {
  const json: Json = {
    id: message.id,
    type: 0,
    content: message.content,
    lobby_id: message.lobbyId,
    channel_id: message.lobbyId,
    author: authorJson(ctx, message.authorId),
    metadata: message.metadata,
    moderation_metadata: message.moderationMetadata,
    timestamp: new Date(message.createdAt).toISOString(),
    flags: message.flags,
    application_id: message.applicationId,
  };
  if (message.additionalName !== null) json.lobby_member = { additional_name: message.additionalName };
  return json;
}

/** A lobby message's copy in a guild channel: a plain guild text message, without the lobby metadata. */
export function channelMessageJson(ctx: PlatformContext, message: ChannelMessageRecord): Json {
  return {
    id: message.id,
    type: 0,
    channel_id: message.channelId,
    guild_id: message.guildId,
    content: message.content,
    author: authorJson(ctx, message.authorId),
    timestamp: new Date(message.createdAt).toISOString(),
    edited_timestamp: null,
    tts: false,
    mention_everyone: false,
    mentions: [],
    attachments: [],
    embeds: [],
    pinned: false,
    flags: 0,
    application_id: message.applicationId,
    lobby_id: message.lobbyId,
  };
}
