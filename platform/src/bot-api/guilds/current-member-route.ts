/**
 * Get Current User Guild Member, `GET /users/@me/guilds/{guild.id}/member` (published; PROTOCOL.md §14.5): the
 * caller's own member object (with the private fields) for an OAuth2 token holding `guilds.members.read`. A guild
 * the user is not in answers like an unknown one (404 10004): a token cannot probe which guilds exist.
 */
import type { PlatformKernel } from '../../kernel.js';
import { bearerOf, pathParams, type ApiArea } from '../../http/api.js';
import { privateMemberJson } from './bot-serialize.js';
import { GuildErrors } from './errors.js';
import type { GuildService } from './service.js';

export const currentMemberRoute =
  (ctx: PlatformKernel, guilds: GuildService): ApiArea =>
  (app) => {
    app.get(
      '/users/@me/guilds/:guildId/member',
      { config: { auth: { kind: 'bearer', scope: 'guilds.members.read' } }, schema: { params: pathParams('guildId') } },
      async (request) => {
        const member = guilds.member(guilds.guild(request.params.guildId).id, bearerOf(request).user.id);
        if (!member) throw GuildErrors.unknownGuild();
        return privateMemberJson(ctx, member);
      },
    );
  };
