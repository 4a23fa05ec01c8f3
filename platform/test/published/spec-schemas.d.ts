/**
 * `discord-api-spec/zod` (the zod schemas generated from the published OpenAPI description) ships without type
 * declarations: its package points TypeScript at the .js file. This declares the schemas the shape test uses, each
 * as a schema of the published type of the same name — the package generates both from the same OpenAPI component,
 * and one pinned version is installed, so they describe the same object.
 */
declare module 'discord-api-spec/zod' {
  import type { ZodMiniType } from 'zod/mini';
  import type * as Spec from 'discord-api-spec';

  export const ConnectedAccountResponseSchema: ZodMiniType<Spec.ConnectedAccountResponse>;
  export const GatewayBotResponseSchema: ZodMiniType<Spec.GatewayBotResponse>;
  export const GatewayResponseSchema: ZodMiniType<Spec.GatewayResponse>;
  export const GuildChannelResponseSchema: ZodMiniType<Spec.GuildChannelResponse>;
  export const LobbyGuildInviteResponseSchema: ZodMiniType<Spec.LobbyGuildInviteResponse>;
  export const LobbyMemberResponseSchema: ZodMiniType<Spec.LobbyMemberResponse>;
  export const LobbyMessageResponseSchema: ZodMiniType<Spec.LobbyMessageResponse>;
  export const LobbyResponseSchema: ZodMiniType<Spec.LobbyResponse>;
  export const MessageResponseSchema: ZodMiniType<Spec.MessageResponse>;
  export const MyGuildResponseSchema: ZodMiniType<Spec.MyGuildResponse>;
  export const OAuth2GetAuthorizationResponseSchema: ZodMiniType<Spec.OAuth2GetAuthorizationResponse>;
  export const OAuth2GetKeysSchema: ZodMiniType<Spec.OAuth2GetKeys>;
  export const OAuth2GetOpenIDConnectUserInfoResponseSchema: ZodMiniType<Spec.OAuth2GetOpenIDConnectUserInfoResponse>;
  export const ProvisionalTokenResponseSchema: ZodMiniType<Spec.ProvisionalTokenResponse>;
  export const UserPIIResponseSchema: ZodMiniType<Spec.UserPIIResponse>;
  export const UserResponseSchema: ZodMiniType<Spec.UserResponse>;
  export const VoiceStateResponseSchema: ZodMiniType<Spec.VoiceStateResponse>;
  export const GuildAuditLogResponseSchema: ZodMiniType<Spec.GuildAuditLogResponse>;
  export const GuildInviteResponseSchema: ZodMiniType<Spec.GuildInviteResponse>;
  export const GuildMemberResponseSchema: ZodMiniType<Spec.GuildMemberResponse>;
  export const GuildPruneResponseSchema: ZodMiniType<Spec.GuildPruneResponse>;
  export const GuildSearchResponseSchema: ZodMiniType<Spec.GuildSearchResponse>;
  export const SearchIndexNotReadyResponseSchema: ZodMiniType<Spec.SearchIndexNotReadyResponse>;
  export const ListApplicationEmojisResponseSchema: ZodMiniType<Spec.ListApplicationEmojisResponse>;
  export const EmojiResponseSchema: ZodMiniType<Spec.EmojiResponse>;
  export const KeywordRuleResponseSchema: ZodMiniType<Spec.KeywordRuleResponse>;
  export const SubscriptionResponseSchema: ZodMiniType<Spec.SubscriptionResponse>;
  export const EmbeddedActivityInstanceSchema: ZodMiniType<Spec.EmbeddedActivityInstance>;
  export const GuildRoleResponseSchema: ZodMiniType<Spec.GuildRoleResponse>;
  export const GuildWithCountsResponseSchema: ZodMiniType<Spec.GuildWithCountsResponse>;
  export const PinnedMessagesResponseSchema: ZodMiniType<Spec.PinnedMessagesResponse>;
  export const PrivateApplicationResponseSchema: ZodMiniType<Spec.PrivateApplicationResponse>;
  export const PrivateGuildMemberResponseSchema: ZodMiniType<Spec.PrivateGuildMemberResponse>;
  export const TargetUsersJobStatusResponseSchema: ZodMiniType<Spec.TargetUsersJobStatusResponse>;
  // Commands and interactions (PROTOCOL.md §17)
  export const ApplicationCommandResponseSchema: ZodMiniType<Spec.ApplicationCommandResponse>;
  export const InteractionCallbackResponseSchema: ZodMiniType<Spec.InteractionCallbackResponse>;
  export const CommandPermissionsResponseSchema: ZodMiniType<Spec.CommandPermissionsResponse>;
}
