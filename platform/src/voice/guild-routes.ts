/**
 * Voice states of guild voice channels over HTTP (published; PROTOCOL.md §13.8): Get Current User Voice State
 * `GET /guilds/{guild.id}/voice-states/@me` (bot token, or Bearer with `guilds.members.read`) and Get User Voice State
 * `GET /guilds/{guild.id}/voice-states/{user.id}` (bot token). The caller must be a member of the guild (403 50001);
 * a user not connected to one of its voice channels is 404 10065 Unknown Voice State.
 */
import { callerOf, pathParams, type ApiArea } from '../http/api.js';
import type { GuildService } from '../bot-api/guilds/service.js';
import type { GuildCalls } from './guild-calls.js';
import { unknownVoiceState } from './routes.js';
import type { VoiceStates } from './voice-states.js';
import { requireById } from '../ids/snowflake.js';

export const guildVoiceStateRoutes =
  (guilds: GuildService, calls: GuildCalls, states: VoiceStates): ApiArea =>
  (app) => {
    const read = (guildId: string, callerId: string, userId: string) => {
      const guild = guilds.guild(guildId);
      guilds.requireMember(guild, callerId);
      const state = requireById(userId, (userId) => states.inGuild(guild.id, userId), unknownVoiceState);
      return calls.stateJson(state);
    };

    app.get(
      '/guilds/:guildId/voice-states/@me',
      { config: { auth: { kind: 'any', scope: 'guilds.members.read' } }, schema: { params: pathParams('guildId') } },
      async (request) => {
        const caller = callerOf(request);
        return read(request.params.guildId, caller.user.id, caller.user.id);
      },
    );

    app.get(
      '/guilds/:guildId/voice-states/:userId',
      { config: { auth: { kind: 'bot' } }, schema: { params: pathParams('guildId', 'userId') } },
      async (request) => read(request.params.guildId, callerOf(request).user.id, request.params.userId),
    );
  };
