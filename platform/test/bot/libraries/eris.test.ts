/**
 * eris (npm, unmodified) through the bot-library scenario. eris always speaks HTTPS to a host without a port, so the
 * platform runs with TLS and the client is given an https.Agent (its public `agent` option, used for REST and the
 * gateway) that trusts the platform's certificate and defaults to its port.
 */
import { Agent } from 'node:https';
import { Client, CommandInteraction, type TextChannel } from 'eris';
import {
  botLibraryScenario,
  SCENARIO_INTENTS,
  type BotLibrary,
  type EventName,
  type LibraryEvents,
} from './scenario.js';

botLibraryScenario(
  'eris',
  (f): BotLibrary => {
    const url = new URL(f.platform.httpUrl);
    const agent = new Agent({ ca: f.platform.caCertPem });
    // https.request takes its port from the agent when the request names none (eris names only a host).
    (agent as Agent & { defaultPort: number }).defaultPort = Number(url.port);
    // eris's README: the token is passed with its "Bot " prefix, and eris sends it as given (REST and IDENTIFY).
    const client = new Client(`Bot ${f.botToken}`, {
      intents: SCENARIO_INTENTS,
      agent,
      rest: { domain: url.hostname, baseURL: '/api/v10' },
      restMode: true,
      // A test fails on the first refusal instead of retrying forever.
      autoreconnect: false,
    });
    const listeners: { [E in EventName]?: Array<(data: LibraryEvents[E]) => void> } = {};
    const emit = <E extends EventName>(event: E, data: LibraryEvents[E]) =>
      listeners[event]?.forEach((l) => (l as (d: LibraryEvents[E]) => void)(data));
    client.on('messageCreate', (m) => emit('messageCreate', { id: m.id, channelId: m.channel.id, content: m.content }));
    client.on('messageUpdate', (m) => emit('messageUpdate', { id: m.id, channelId: m.channel.id, content: m.content }));
    client.on('messageDelete', (m) => emit('messageDelete', { id: m.id, channelId: m.channel.id }));
    client.on('messageReactionAdd', (m, emoji, reactor) =>
      emit('reactionAdd', { messageId: m.id, userId: reactor.id, emoji: emoji.name }),
    );
    client.on('interactionCreate', (i) => {
      if (i instanceof CommandInteraction)
        emit('interaction', { commandName: i.data.name, reply: (content) => i.createMessage(content) });
    });
    client.on('error', () => undefined);
    return {
      login: () =>
        new Promise<void>((resolve, reject) => {
          client.once('ready', () => resolve());
          client.once('disconnect', () => reject(new Error('disconnected before ready')));
          client.once('shardDisconnect', (error: Error | undefined) =>
            reject(error ?? new Error('shard disconnected before ready')),
          );
          // eris retries a failed connection forever and reports each failure as an error event: the first fails the
          // login.
          client.once('error', (error: Error) => reject(error));
          client.connect().catch(reject);
        }),
      readyGuildIds: () => [...client.guilds.keys(), ...client.unavailableGuilds.keys()].map(String),
      cachedGuild: (id) => {
        const guild = client.guilds.get(id);
        return guild && { name: guild.name, channelNames: guild.channels.map((c) => c.name) };
      },
      fetchGuild: async (id) => {
        const guild = await client.getRESTGuild(id);
        return { id: guild.id, name: guild.name };
      },
      fetchChannel: async (id) => {
        const channel = (await client.getRESTChannel(id)) as TextChannel;
        return { id: channel.id, name: channel.name };
      },
      fetchMember: async (guildId, userId) => ({ id: (await client.getRESTGuildMember(guildId, userId)).id }),
      createChannel: async (guildId, name) => {
        const channel = await client.createChannel(guildId, name);
        return { id: channel.id, name: channel.name };
      },
      sendMessage: async (channelId, content) => {
        const message = await client.createMessage(channelId, content);
        return { id: message.id, content: message.content };
      },
      editMessage: async (channelId, id, content) => ({
        content: (await client.editMessage(channelId, id, content)).content,
      }),
      deleteMessage: (channelId, id) => client.deleteMessage(channelId, id),
      react: (channelId, id, emoji) => client.addMessageReaction(channelId, id, emoji),
      registerCommand: async (name, description) => (await client.createCommand({ name, description, type: 1 })).id,
      createRole: async (guildId, name) => {
        const role = await client.createRole(guildId, { name });
        return { id: role.id, name: role.name };
      },
      addRole: (guildId, userId, roleId) => client.addGuildMemberRole(guildId, userId, roleId),
      on: (event, listener) => {
        (listeners[event] ??= []).push(listener as never);
      },
      destroy: async () => client.disconnect({ reconnect: false }),
    };
  },
  { platform: { extra: { tls: true } } },
);
