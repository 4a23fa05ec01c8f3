import { callerOf, type ApiScope, pathParams } from '../http/api.js';
import type { PlatformKernel } from '../kernel.js';
import type { Principal } from '../http/auth.js';
import type { ChannelRecord, GuildRecord } from '../store/types.js';
import type { LobbyRecord } from '../store/lobby-types.js';
import { findLobby, lobbyConfig, requireMember } from './access.js';
import { LobbyErrors } from './errors.js';
import type { LobbySchemas } from './schemas.js';
import { CAN_LINK_LOBBY, type Lobbies } from './service.js';

const GUILD_TEXT = 0;

/**
 * Who may link a guild's channels: a user who owns the guild (roles are not modelled, so only owners hold
 * MANAGE_CHANNELS, PROTOCOL.md §4); the application's bot when the guild belongs to the application's owner or to
 * the bot user itself.
 */
function managesGuild(principal: Principal, guild: GuildRecord): boolean {
  if (guild.ownerId === null) return false;
  if (principal.kind === 'bearer') return guild.ownerId === principal.user.id;
  return guild.ownerId === principal.app.ownerUserId || guild.ownerId === principal.app.botUserId;
}

/**
 * A linkable channel (§4): guild text channel (never nsfw here), of a guild the caller manages, not linked elsewhere.
 */
function linkableChannel(
  ctx: PlatformKernel,
  principal: Principal,
  lobby: LobbyRecord,
  channelId: string,
): ChannelRecord {
  const channel = ctx.store.guilds.getChannel(channelId);
  const guild = channel ? ctx.store.guilds.get(channel.guildId) : undefined;
  if (!channel || !guild) throw LobbyErrors.unknownChannel();
  if (channel.type !== GUILD_TEXT || !managesGuild(principal, guild)) throw LobbyErrors.missingPermissions();
  const holder = ctx.store.lobbies.findByLinkedChannel(channel.id);
  if (holder && holder.id !== lobby.id) throw LobbyErrors.missingPermissions();
  return channel;
}

/** `PATCH /lobbies/{id}/channel-linking {channel_id | null}`: link, relink or unlink; members get LOBBY_UPDATE. */
export function registerLinkingRoutes(
  app: ApiScope,
  ctx: PlatformKernel,
  lobbies: Lobbies,
  schemas: LobbySchemas,
): void {
  app.patch(
    '/lobbies/:lobbyId/channel-linking',
    { config: lobbyConfig('both', 'lobbies.link'), schema: { params: pathParams('lobbyId'), body: schemas.link } },
    async (request) => {
      const caller = callerOf(request);
      const lobby = findLobby(ctx, caller, request.params.lobbyId);
      if (caller.kind === 'bearer') {
        const member = requireMember(ctx, lobby, caller.user.id);
        if ((member.flags & CAN_LINK_LOBBY) === 0) throw LobbyErrors.missingPermissions();
      }
      const body = request.body;
      const channelId = body.channel_id ?? null;
      if (channelId !== null) linkableChannel(ctx, caller, lobby, channelId);
      const updated = lobbies.run((pending) => {
        const next = lobbies.update(lobby, { ...lobby, linkedChannelId: channelId }, pending);
        // Linked lobbies never idle out; after unlinking, the idle clock starts afresh.
        if (channelId === null && lobby.linkedChannelId !== null && next.idleSince !== null) {
          ctx.store.lobbies.update({ ...next, idleSince: ctx.now() });
        }
        return ctx.store.lobbies.get(lobby.id)!;
      });
      return lobbies.json(updated, { bot: caller.kind === 'bot' });
    },
  );
}
