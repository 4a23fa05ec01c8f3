import { callerOf, type ApiScope, pathParams } from '../http/api.js';
import type { LobbyGuildInviteResponse } from 'discord-api-spec';
import type { LobbyServices } from './services.js';
import { randomToken } from '../crypto/tokens.js';
import { Errors } from '../http/errors.js';
import { snowflakeSchema } from '../http/validation.js';
import type { LobbyRecord } from '../store/lobby-types.js';
import type { UserRecord } from '../store/types.js';
import { findGuildInvite, redeemGuildInvite } from '../bot-api/invites/redeem.js';
import { hasScope } from '../oauth/scopes.js';
import { findLobby, LOBBY_SCOPE, lobbyConfig, requireMember } from './access.js';
import { LobbyErrors } from './errors.js';

/** The published `{code}` plus `url` and `expires_at` (OURS: the SDK shows the link and knows when it lapses). */
type LobbyInviteJson = LobbyGuildInviteResponse & { url: string; expires_at: string };

/** A single-use guild invite to the lobby's linked channel, bound to `user` (nobody else can redeem it). */
function createInvite(ctx: LobbyServices, lobby: LobbyRecord, user: UserRecord): LobbyInviteJson {
  // Provisional accounts cannot join guilds: the SDK asks the player to merge first.
  if (user.isProvisional) throw LobbyErrors.mergeRequired();
  const channel = lobby.linkedChannelId === null ? undefined : ctx.store.guilds.getChannel(lobby.linkedChannelId);
  if (!channel) throw LobbyErrors.unknownChannel();
  const code = randomToken(8);
  const expiresAt = ctx.now() + ctx.limits.inviteSeconds * 1000;
  ctx.store.lobbies.insertInvite({
    code,
    lobbyId: lobby.id,
    applicationId: lobby.applicationId,
    guildId: channel.guildId,
    channelId: channel.id,
    userId: user.id,
    expiresAt,
    usedAt: null,
  });
  return { code, url: `${ctx.urls().http}/invite/${code}`, expires_at: new Date(expiresAt).toISOString() };
}

/**
 * Linked-channel invites (platform/PROTOCOL.md §10.5 "Channel invites") and their redemption, `POST /invites/{code}`
 * (OURS).
 */
export function registerInviteRoutes(app: ApiScope, ctx: LobbyServices): void {
  app.post(
    '/lobbies/:lobbyId/members/@me/invites',
    { config: lobbyConfig('bearer', 'lobbies.write'), schema: { params: pathParams('lobbyId') } },
    async (request) => {
      const caller = callerOf(request);
      const lobby = findLobby(ctx, caller, request.params.lobbyId);
      requireMember(ctx, lobby, caller.user.id);
      return createInvite(ctx, lobby, caller.user);
    },
  );

  app.post(
    '/lobbies/:lobbyId/members/:userId/invites',
    { config: lobbyConfig('bot', 'lobbies.write'), schema: { params: pathParams('lobbyId', 'userId') } },
    async (request) => {
      const caller = callerOf(request);
      const lobby = findLobby(ctx, caller, request.params.lobbyId);
      const id = request.params.userId;
      const user = snowflakeSchema.safeParse(id).success ? ctx.store.users.get(id) : undefined;
      if (!user) throw Errors.unknownUser();
      requireMember(ctx, lobby, user.id);
      return createInvite(ctx, lobby, user);
    },
  );

  // Adds the invited user to the guild and uses the invite up. Used, expired, unknown or someone else's → 10006.
  // The same route redeems the bot API's guild invites (§14.7) with `guilds.join`; lobby invites need `lobbies.write`.
  app.post(
    '/invites/:code',
    {
      config: { auth: { kind: 'bearer' }, rateLimit: { bucket: 'lobbies.write', per: 'application' } },
      schema: { params: pathParams('code') },
    },
    async (request) => {
      const caller = callerOf(request);
      if (caller.user.isProvisional) throw LobbyErrors.mergeRequired();
      const scopes = caller.kind === 'bearer' ? caller.token.scopes : [];
      const guildInvite = ctx.store.lobbies.invite(request.params.code)
        ? undefined
        : findGuildInvite(ctx, request.params.code);
      if (guildInvite) {
        if (!hasScope(scopes, 'guilds.join')) throw Errors.missingScope('guilds.join');
        return redeemGuildInvite(ctx, guildInvite, caller.user);
      }
      const invite = ctx.store.lobbies.invite(request.params.code);
      if (invite && !hasScope(scopes, LOBBY_SCOPE)) throw Errors.missingScope(LOBBY_SCOPE);
      const now = ctx.now();
      if (!invite || invite.usedAt !== null || invite.expiresAt <= now || invite.userId !== caller.user.id)
        throw LobbyErrors.unknownInvite();
      const guild = ctx.store.guilds.get(invite.guildId);
      const channel = ctx.store.guilds.getChannel(invite.channelId);
      if (!guild || !channel) throw LobbyErrors.unknownInvite();
      ctx.store.transaction(() => {
        ctx.store.lobbies.markInviteUsed(invite.code, now);
        ctx.store.guilds.addMember(guild.id, caller.user.id);
      });
      return {
        code: invite.code,
        guild: { id: guild.id, name: guild.name, icon: guild.icon },
        channel: { id: channel.id, name: channel.name, type: channel.type, guild_id: guild.id },
      };
    },
  );
}
