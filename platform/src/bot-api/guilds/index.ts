/**
 * The bot API's guild side (PROTOCOL.md §14): the guild service, its routes (guilds, roles, members, audit log,
 * channels, messages, pins, invites, voice status, application), and its gateway part (READY guilds, GUILD_CREATE,
 * op 8, op 43).
 */
import type { PlatformArea } from '../../areas/area.js';
import { registerArea } from '../../http/api.js';
import type { BotApiServices } from '../services.js';
import { messageRoutes } from '../messages/routes.js';
import { MessageService } from '../messages/service.js';
import { reactionRoutes } from '../messages/reaction-routes.js';
import { ReactionService } from '../messages/reactions.js';
import { searchRoutes } from '../messages/search-routes.js';
import { guildInviteRoutes } from '../invites/routes.js';
import { guildBotRoutes } from './bot-routes.js';
import { channelEditRoutes } from './channel-routes.js';
import { channelLifecycleRoutes } from './channel-lifecycle-routes.js';
import { currentMemberRoute } from './current-member-route.js';
import { autoModRoutes } from './automod/routes.js';
import { AutoModService } from './automod/service.js';
import { guildGatewayHandlers } from './gateway.js';
import { guildRoutes } from './routes.js';
import { GuildService } from './service.js';
import { VoiceChannelState, type GuildVoiceCalls } from './voice-channel-state.js';
import { voiceStartTimeDevRoute, voiceStatusRoutes } from './voice-status-routes.js';
import { botDevRoutes } from './dev-routes.js';
import { applicationRoutes } from '../applications/routes.js';
import { emojiRoutes } from '../applications/emoji-routes.js';
import { interactionsPart } from '../../interactions/index.js';

export interface BotApi {
  guilds: GuildService;
  messages: MessageService;
  voice: VoiceChannelState;
}

/**
 * The bot API area (`voiceCalls`: the voice area's answers about guild calls, read when used). Its routes start with
 * the guild routes (guilds, roles, members, bans), then the services' routes and the interactions' (which use the
 * guild and message services).
 */
export function botApiArea(
  ctx: BotApiServices,
  voiceCalls: () => GuildVoiceCalls | undefined,
): PlatformArea & { api: BotApi } {
  const guilds = new GuildService(ctx);
  const automod = new AutoModService(ctx, guilds);
  const messages = new MessageService(ctx, guilds, automod);
  const voice = new VoiceChannelState(voiceCalls);
  const reactions = new ReactionService(ctx, guilds, messages);
  const interactions = interactionsPart(ctx, guilds, messages);
  return {
    name: 'bot-api',
    api: { guilds, messages, voice },
    routes(app) {
      registerArea(app, guildRoutes(ctx));
      registerArea(app, guildBotRoutes(ctx, guilds, voice));
      registerArea(app, currentMemberRoute(ctx, guilds));
      registerArea(app, channelEditRoutes(ctx, guilds));
      registerArea(app, channelLifecycleRoutes(ctx, guilds, voice));
      registerArea(app, autoModRoutes(guilds, automod));
      registerArea(app, messageRoutes(ctx, guilds, messages));
      registerArea(app, reactionRoutes(reactions));
      registerArea(app, searchRoutes(ctx, guilds, messages));
      registerArea(app, guildInviteRoutes(ctx, guilds));
      registerArea(app, voiceStatusRoutes(guilds, voice));
      registerArea(app, applicationRoutes(ctx));
      registerArea(app, emojiRoutes(ctx));
      if (ctx.devMode) {
        registerArea(app, botDevRoutes(ctx, guilds, messages));
        registerArea(app, voiceStartTimeDevRoute(guilds, voice));
      }
      interactions.routes(app);
    },
    gateway: guildGatewayHandlers(ctx, guilds, voice),
  };
}
