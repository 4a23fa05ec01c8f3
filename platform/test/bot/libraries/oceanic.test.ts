/**
 * oceanic.js (npm, unmodified) through the bot-library scenario: only its `rest.baseURL` option points at the platform.
 */
import { Client, CommandInteraction, ChannelTypes, type TextChannel } from 'oceanic.js';
import {
  botLibraryScenario,
  SCENARIO_INTENTS,
  type BotLibrary,
  type EventName,
  type LibraryEvents,
} from './scenario.js';

botLibraryScenario('oceanic.js', (f): BotLibrary => {
  // oceanic.js's README: `auth` is the full authorization string, "Bot " prefix included.
  const client = new Client({
    auth: `Bot ${f.botToken}`,
    gateway: { intents: SCENARIO_INTENTS, autoReconnect: false },
    rest: { baseURL: `${f.platform.httpUrl}/api/v10` },
  });
  const listeners: { [E in EventName]?: Array<(data: LibraryEvents[E]) => void> } = {};
  const emit = <E extends EventName>(event: E, data: LibraryEvents[E]) =>
    listeners[event]?.forEach((l) => (l as (d: LibraryEvents[E]) => void)(data));
  client.on('messageCreate', (m) => emit('messageCreate', { id: m.id, channelId: m.channelID, content: m.content }));
  client.on('messageUpdate', (m) => emit('messageUpdate', { id: m.id, channelId: m.channelID, content: m.content }));
  client.on('messageDelete', (m) => emit('messageDelete', { id: m.id, channelId: m.channelID }));
  client.on('messageReactionAdd', (m, reactor, reaction) =>
    emit('reactionAdd', { messageId: m.id, userId: reactor.id, emoji: reaction.emoji.name ?? '' }),
  );
  client.on('interactionCreate', (i) => {
    if (i instanceof CommandInteraction)
      emit('interaction', {
        commandName: i.data.name,
        reply: async (content) => void (await i.createMessage({ content })),
      });
  });
  client.on('error', () => undefined);
  return {
    login: () =>
      new Promise<void>((resolve, reject) => {
        client.once('ready', () => resolve());
        client.once('error', (error) => reject(error instanceof Error ? error : new Error(String(error))));
        client.once('disconnect', () => reject(new Error('disconnected before ready')));
        client.connect().catch(reject);
      }),
    readyGuildIds: () => [...client.guilds.keys(), ...client.unavailableGuilds.keys()],
    cachedGuild: (id) => {
      const guild = client.guilds.get(id);
      return guild && { name: guild.name, channelNames: guild.channels.map((c) => c.name) };
    },
    fetchGuild: async (id) => {
      const guild = await client.rest.guilds.get(id);
      return { id: guild.id, name: guild.name };
    },
    fetchChannel: async (id) => {
      const channel = await client.rest.channels.get<TextChannel>(id);
      return { id: channel.id, name: channel.name };
    },
    fetchMember: async (guildId, userId) => ({ id: (await client.rest.guilds.getMember(guildId, userId)).id }),
    createChannel: async (guildId, name) => {
      const channel = await client.rest.guilds.createChannel(guildId, ChannelTypes.GUILD_TEXT, { name });
      return { id: channel.id, name: channel.name };
    },
    sendMessage: async (channelId, content) => {
      const message = await client.rest.channels.createMessage(channelId, { content });
      return { id: message.id, content: message.content };
    },
    editMessage: async (channelId, id, content) => ({
      content: (await client.rest.channels.editMessage(channelId, id, { content })).content,
    }),
    deleteMessage: (channelId, id) => client.rest.channels.deleteMessage(channelId, id),
    react: (channelId, id, emoji) => client.rest.channels.createReaction(channelId, id, emoji),
    registerCommand: async (name, description) =>
      (await client.rest.applications.createGlobalCommand(f.appId, { type: 1, name, description })).id,
    createRole: async (guildId, name) => {
      const role = await client.rest.guilds.createRole(guildId, { name });
      return { id: role.id, name: role.name };
    },
    addRole: (guildId, userId, roleId) => client.rest.guilds.addMemberRole(guildId, userId, roleId),
    on: (event, listener) => {
      (listeners[event] ??= []).push(listener as never);
    },
    destroy: async () => client.disconnect(false),
  };
});
