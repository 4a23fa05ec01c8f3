/**
 * @discordeno/bot (npm, unmodified) through the bot-library scenario: its REST `proxy.baseUrl` option points at the
 * platform; the gateway URL comes from GET /gateway/bot as for any bot. discordeno keeps no cache of its own (a bot
 * keeps what it needs from the events), so the adapter keeps the guilds it is given. discordeno reads the bot's id out
 * of the token, so this bot has a token of the published form (the platform's own, not the fixture's fixed string).
 */
import { createBot, InteractionResponseTypes, InteractionTypes } from '@discordeno/bot';
import {
  botLibraryScenario,
  SCENARIO_INTENTS,
  type BotLibrary,
  type EventName,
  type LibraryEvents,
} from './scenario.js';

const silent = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  fatal: () => undefined,
};

botLibraryScenario(
  '@discordeno/bot',
  (f): BotLibrary => {
    const listeners: { [E in EventName]?: Array<(data: LibraryEvents[E]) => void> } = {};
    const emit = <E extends EventName>(event: E, data: LibraryEvents[E]) =>
      listeners[event]?.forEach((l) => (l as (d: LibraryEvents[E]) => void)(data));
    const guilds = new Map<string, { name: string; channelNames: string[] }>();
    let readyGuilds: string[] = [];
    let ready: () => void = () => undefined;
    let closed: (error: Error) => void = () => undefined;
    const bot = createBot({
      token: f.botToken,
      intents: SCENARIO_INTENTS,
      rest: { token: f.botToken, proxy: { baseUrl: `${f.platform.httpUrl}/api` } },
      // A shard the gateway closes before READY fails the login (discordeno would otherwise wait to reconnect).
      gateway: {
        token: f.botToken,
        events: { disconnected: () => closed(new Error('the gateway closed the connection before READY')) },
      },
      loggerFactory: () => silent,
      desiredProperties: {
        guild: { id: true, name: true, channels: true },
        channel: { id: true, name: true },
        member: { id: true, roles: true },
        user: { id: true },
        role: { id: true, name: true },
        message: { id: true, channelId: true, content: true },
        interaction: { id: true, token: true, type: true, data: true },
        emoji: { name: true },
      },
      events: {
        ready: (payload) => {
          readyGuilds = payload.guilds.map(String);
          ready();
        },
        guildCreate: (guild) => {
          guilds.set(String(guild.id), {
            name: guild.name,
            channelNames: [...(guild.channels?.values() ?? [])].map((c) => c.name ?? ''),
          });
        },
        messageCreate: (m) =>
          emit('messageCreate', { id: String(m.id), channelId: String(m.channelId), content: m.content }),
        messageUpdate: (m) =>
          emit('messageUpdate', { id: String(m.id), channelId: String(m.channelId), content: m.content }),
        messageDelete: (p) => emit('messageDelete', { id: String(p.id), channelId: String(p.channelId) }),
        reactionAdd: (p) =>
          emit('reactionAdd', { messageId: String(p.messageId), userId: String(p.userId), emoji: p.emoji.name ?? '' }),
        interactionCreate: (i) => {
          if (i.type !== InteractionTypes.ApplicationCommand) return;
          emit('interaction', {
            commandName: i.data?.name ?? '',
            reply: async (content) => {
              await bot.helpers.sendInteractionResponse(i.id, i.token, {
                type: InteractionResponseTypes.ChannelMessageWithSource,
                data: { content },
              });
            },
          });
        },
      },
    });
    return {
      login: () =>
        new Promise<void>((resolve, reject) => {
          ready = resolve;
          closed = reject;
          bot.start().catch(reject);
        }),
      readyGuildIds: () => readyGuilds,
      cachedGuild: (id) => guilds.get(id),
      fetchGuild: async (id) => {
        const guild = await bot.helpers.getGuild(id);
        return { id: String(guild.id), name: guild.name };
      },
      fetchChannel: async (id) => {
        const channel = await bot.helpers.getChannel(id);
        return { id: String(channel.id), name: channel.name ?? '' };
      },
      fetchMember: async (guildId, userId) => ({ id: String((await bot.helpers.getMember(guildId, userId)).id) }),
      createChannel: async (guildId, name) => {
        const channel = await bot.helpers.createChannel(guildId, { name });
        return { id: String(channel.id), name: channel.name ?? '' };
      },
      sendMessage: async (channelId, content) => {
        const message = await bot.helpers.sendMessage(channelId, { content });
        return { id: String(message.id), content: message.content };
      },
      editMessage: async (channelId, id, content) => ({
        content: (await bot.helpers.editMessage(channelId, id, { content })).content,
      }),
      deleteMessage: (channelId, id) => bot.helpers.deleteMessage(channelId, id),
      react: (channelId, id, emoji) => bot.helpers.addReaction(channelId, id, emoji),
      registerCommand: async (name, description) =>
        String((await bot.helpers.createGlobalApplicationCommand({ name, description, type: 1 })).id),
      createRole: async (guildId, name) => {
        const role = await bot.helpers.createRole(guildId, { name });
        return { id: String(role.id), name: role.name };
      },
      addRole: (guildId, userId, roleId) => bot.helpers.addRole(guildId, userId, roleId),
      on: (event, listener) => {
        (listeners[event] ??= []).push(listener as never);
      },
      destroy: () => bot.shutdown(),
    };
  },
  { platform: { application: { bot_token: undefined } } },
);
