import type { LobbyMemberResponse, LobbyMessageResponse, LobbyResponse, MessageResponse } from 'discord-api-spec';
import type { PlatformKernel } from '../kernel.js';
import { channelJson } from '../bot-api/guilds/channels.js';
import type { ChannelMessageRecord, LobbyMemberRecord, LobbyMessageRecord, LobbyRecord } from '../store/lobby-types.js';
import { knownUserJson, type PublicUserJson } from '../users/serialize.js';

export type Json = Record<string, unknown>;

/** Whether the user holds a gateway session for the application (a member's `connected`). */
export type HasSession = (userId: string, applicationId: string) => boolean;

/** The published member plus what the SDK needs (OURS, PROTOCOL.md §10.5): `connected` and the user object. */
export type LobbyMemberJson = LobbyMemberResponse & { connected: boolean; user: PublicUserJson };
/** The published lobby; the application's bot also gets `idle_timeout_seconds` (OURS). */
export type LobbyJson = LobbyResponse & { members: LobbyMemberJson[]; idle_timeout_seconds?: number };
/** The published lobby message plus `timestamp` (OURS: the SDK shows when a message was sent). */
export type LobbyMessageJson = LobbyMessageResponse & { timestamp: string; author: PublicUserJson };
/** A copied lobby message is a published guild message plus `guild_id` and the lobby it came from (OURS). */
export type ChannelMessageJson = MessageResponse & { guild_id: string; lobby_id: string };

/** Member `{id, metadata, flags, additional_name?, connected, user}`; `additional_name` only when set. */
export function memberJson(
  ctx: PlatformKernel,
  hasSession: HasSession,
  lobby: LobbyRecord,
  member: LobbyMemberRecord,
): LobbyMemberJson {
  const json: LobbyMemberJson = {
    id: member.userId,
    metadata: member.metadata,
    flags: member.flags,
    connected: hasSession(member.userId, lobby.applicationId),
    user: knownUserJson(ctx, member.userId),
  };
  if (member.additionalName !== null) json.additional_name = member.additionalName;
  return json;
}

/**
 * Lobby `{id, application_id, metadata, members, linked_channel?, flags}`; `metadata` is always a map (`{}` when
 * none); `linked_channel` (a guild channel object) only while a channel is linked — published as optional, not
 * nullable. The application's bot also sees `override_event_webhooks_url` and `idle_timeout_seconds` (settings it
 * controls).
 */
export function lobbyJson(
  ctx: PlatformKernel,
  hasSession: HasSession,
  lobby: LobbyRecord,
  view: { bot?: boolean } = {},
): LobbyJson {
  const json: LobbyJson = {
    id: lobby.id,
    application_id: lobby.applicationId,
    metadata: lobby.metadata,
    members: ctx.store.lobbies.members(lobby.id).map((member) => memberJson(ctx, hasSession, lobby, member)),
    flags: lobby.flags,
  };
  const linked = lobby.linkedChannelId === null ? undefined : ctx.store.guilds.getChannel(lobby.linkedChannelId);
  if (linked) json.linked_channel = channelJson(linked);
  if (view.bot) {
    json.override_event_webhooks_url = lobby.overrideWebhookUrl;
    json.idle_timeout_seconds = lobby.idleTimeoutSeconds;
  }
  return json;
}

/** Lobby message; `lobby_member` only when the author had an `additional_name` when sending. */
export function lobbyMessageJson(ctx: PlatformKernel, message: LobbyMessageRecord): LobbyMessageJson {
  const json: LobbyMessageJson = {
    id: message.id,
    type: 0,
    content: message.content,
    lobby_id: message.lobbyId,
    channel_id: message.lobbyId,
    author: knownUserJson(ctx, message.authorId),
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
export function channelMessageJson(ctx: PlatformKernel, message: ChannelMessageRecord): ChannelMessageJson {
  return {
    id: message.id,
    type: 0,
    channel_id: message.channelId,
    guild_id: message.guildId,
    content: message.content,
    author: knownUserJson(ctx, message.authorId),
    timestamp: new Date(message.createdAt).toISOString(),
    edited_timestamp: null,
    tts: false,
    mention_everyone: false,
    mentions: [],
    mention_roles: [],
    attachments: [],
    embeds: [],
    components: [],
    pinned: false,
    flags: 0,
    application_id: message.applicationId,
    lobby_id: message.lobbyId,
  };
}
