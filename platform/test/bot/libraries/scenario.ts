/**
 * The steps a new bot takes with any bot library, scripted once and run against each library from the npm registry
 * that the platform is tested with (PROTOCOL.md §14 "Bot libraries"). Each library's test file supplies an adapter
 * that calls only the library's public API with options set (REST base, gateway, TLS trust); nothing is patched.
 * Every step is its own test, sharing only the login made in beforeAll: steps that need the gateway (events, the
 * cache) wait for it, REST-only steps do not, so a library's score (tests passed of 16) shows every step it reaches.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, trustCaByDefault } from '../../support/http.js';
import { startBotPlatform, type BotFixture, type BotPlatformOptions } from '../fixture.js';

/** What the scenario observes through the library: plain values, whatever the library's own classes are. */
export interface LibraryEvents {
  messageCreate: { id: string; channelId: string; content: string };
  messageUpdate: { id: string; channelId: string; content?: string | undefined };
  messageDelete: { id: string; channelId: string };
  reactionAdd: { messageId: string; userId: string; emoji: string };
  interaction: { commandName: string; reply: (content: string) => Promise<void> };
}

export type EventName = keyof LibraryEvents;

export interface BotLibrary {
  /** Logs in (gateway discovery, IDENTIFY) and resolves once the library says it is ready. */
  login(): Promise<void>;
  /** Guild ids the library read from READY (possibly unavailable stubs). */
  readyGuildIds(): string[];
  /** The library's cache of a guild after GUILD_CREATE: its name and channel names. */
  cachedGuild(guildId: string): { name: string; channelNames: string[] } | undefined;
  fetchGuild(guildId: string): Promise<{ id: string; name: string }>;
  fetchChannel(channelId: string): Promise<{ id: string; name: string }>;
  fetchMember(guildId: string, userId: string): Promise<{ id: string }>;
  createChannel(guildId: string, name: string): Promise<{ id: string; name: string }>;
  sendMessage(channelId: string, content: string): Promise<{ id: string; content: string }>;
  editMessage(channelId: string, messageId: string, content: string): Promise<{ content: string }>;
  deleteMessage(channelId: string, messageId: string): Promise<void>;
  /** A unicode emoji as the library takes it. */
  react(channelId: string, messageId: string, emoji: string): Promise<void>;
  /** Registers one global chat-input command; resolves to its id. */
  registerCommand(name: string, description: string): Promise<string>;
  createRole(guildId: string, name: string): Promise<{ id: string; name: string }>;
  addRole(guildId: string, userId: string, roleId: string): Promise<void>;
  on<E extends EventName>(event: E, listener: (data: LibraryEvents[E]) => void): void;
  destroy(): Promise<void>;
}

/**
 * Gateway intents the scenario needs: GUILDS, GUILD_MEMBERS, GUILD_MESSAGES, GUILD_MESSAGE_REACTIONS, MESSAGE_CONTENT.
 */
export const SCENARIO_INTENTS = 1 | (1 << 1) | (1 << 9) | (1 << 10) | (1 << 15);

export interface ScenarioOptions {
  platform?: BotPlatformOptions;
}

/** Waits for the first event of a kind that matches (listening starts before the action that causes it). */
function waiter(lib: BotLibrary) {
  const pending: Array<{ event: EventName; match: (data: any) => boolean; resolve: (data: any) => void }> = [];
  const names: EventName[] = ['messageCreate', 'messageUpdate', 'messageDelete', 'reactionAdd', 'interaction'];
  for (const name of names) {
    lib.on(name, (data) => {
      const index = pending.findIndex((p) => p.event === name && p.match(data));
      if (index >= 0) pending.splice(index, 1)[0]!.resolve(data);
    });
  }
  return <E extends EventName>(event: E, match: (data: LibraryEvents[E]) => boolean): Promise<LibraryEvents[E]> =>
    new Promise((resolve) => pending.push({ event, match, resolve }));
}

export function botLibraryScenario(
  name: string,
  make: (f: BotFixture) => BotLibrary | Promise<BotLibrary>,
  options: ScenarioOptions = {},
): void {
  describe(`${name}, unmodified, against the platform`, () => {
    let f: BotFixture;
    let lib: BotLibrary;
    let next: ReturnType<typeof waiter>;
    let loggedIn: Promise<void>;

    beforeAll(async () => {
      f = await startBotPlatform(options.platform);
      // The scenario's own checks (raw HTTP) trust a TLS platform's certificate like the library does.
      trustCaByDefault(f.platform.caCertPem);
      lib = await make(f);
      next = waiter(lib);
      // Kept rather than awaited here: the login step reports its failure; the other steps fail on it too.
      loggedIn = lib.login();
      await loggedIn.catch(() => undefined);
    }, 60_000);

    afterAll(async () => {
      await lib?.destroy().catch(() => undefined);
      await f?.platform.close();
    });

    it('logs in: gateway discovery, IDENTIFY, READY', async () => {
      await loggedIn;
    });

    it('READY lists the guild', async () => {
      await loggedIn;
      expect(lib.readyGuildIds()).toContain(f.guildId);
    });

    it('GUILD_CREATE fills the cache with the guild and its channels', async () => {
      await loggedIn;
      const guild = lib.cachedGuild(f.guildId);
      expect(guild?.name).toBe('Bot Guild');
      expect(guild?.channelNames).toEqual(expect.arrayContaining(['general', 'lounge']));
    });

    it('fetches the guild', async () => {
      expect(await lib.fetchGuild(f.guildId)).toMatchObject({ id: f.guildId, name: 'Bot Guild' });
    });

    it('fetches a channel', async () => {
      expect(await lib.fetchChannel(f.generalId)).toMatchObject({ id: f.generalId, name: 'general' });
    });

    it('fetches a member', async () => {
      expect((await lib.fetchMember(f.guildId, f.memberId)).id).toBe(f.memberId);
    });

    it('creates a channel', async () => {
      const channel = await lib.createChannel(f.guildId, `made-by-${name.replace(/\W+/g, '-').toLowerCase()}`);
      expect(channel.id).toMatch(/^\d+$/);
      expect((await lib.fetchChannel(channel.id)).name).toBe(channel.name);
    });

    it('sends a message', async () => {
      const sent = await lib.sendMessage(f.generalId, 'hello from a library');
      expect(sent).toMatchObject({ id: expect.stringMatching(/^\d+$/), content: 'hello from a library' });
    });

    it('receives MESSAGE_CREATE for its message', async () => {
      await loggedIn;
      const created = next('messageCreate', (m) => m.content === 'created event');
      const sent = await lib.sendMessage(f.generalId, 'created event');
      expect(await created).toMatchObject({ id: sent.id, channelId: f.generalId });
    });

    it('edits a message and receives MESSAGE_UPDATE', async () => {
      await loggedIn;
      const sent = await lib.sendMessage(f.generalId, 'before edit');
      const updated = next('messageUpdate', (m) => m.id === sent.id);
      expect((await lib.editMessage(f.generalId, sent.id, 'after edit')).content).toBe('after edit');
      expect((await updated).channelId).toBe(f.generalId);
    });

    it('deletes a message and receives MESSAGE_DELETE', async () => {
      await loggedIn;
      const sent = await lib.sendMessage(f.generalId, 'to delete');
      const deleted = next('messageDelete', (m) => m.id === sent.id);
      await lib.deleteMessage(f.generalId, sent.id);
      expect((await deleted).channelId).toBe(f.generalId);
    });

    it('reacts to a message', async () => {
      const sent = await lib.sendMessage(f.generalId, 'react to me');
      await lib.react(f.generalId, sent.id, '👍');
      const reactions = await request(
        `${f.platform.apiBase}/channels/${f.generalId}/messages/${sent.id}/reactions/${encodeURIComponent('👍')}`,
        {
          headers: { authorization: `Bot ${f.botToken}` },
        },
      );
      expect(reactions.status, reactions.text).toBe(200);
      expect(reactions.body).toEqual([expect.objectContaining({ id: f.botUserId })]);
    });

    it('receives MESSAGE_REACTION_ADD', async () => {
      await loggedIn;
      const sent = await lib.sendMessage(f.generalId, 'reaction event');
      const added = next('reactionAdd', (r) => r.messageId === sent.id);
      await lib.react(f.generalId, sent.id, '🎉');
      expect(await added).toMatchObject({ userId: f.botUserId, emoji: '🎉' });
    });

    it('registers a command', async () => {
      const id = await lib.registerCommand('ping', 'Replies with pong');
      expect(id).toMatch(/^\d+$/);
    });

    it('answers an interaction', async () => {
      await loggedIn;
      const commandId = await lib.registerCommand('hello', 'Says hello');
      const interaction = next('interaction', (i) => i.commandName === 'hello');
      const invoked = request(`${f.platform.apiBase}/dev/interactions`, {
        method: 'POST',
        json: { type: 2, user_id: f.memberId, application_id: f.appId, channel_id: f.generalId, command_id: commandId },
      });
      const received = await interaction;
      await received.reply('hello back');
      const answer = await invoked;
      expect(answer.status, answer.text).toBe(200);
      const messages = await request(`${f.platform.apiBase}/channels/${f.generalId}/messages?limit=5`, {
        headers: { authorization: `Bot ${f.botToken}` },
      });
      expect((messages.body as Array<{ content: string }>).map((m) => m.content)).toContain('hello back');
    });

    it('creates a role and gives it to a member', async () => {
      const role = await lib.createRole(f.guildId, 'Library Role');
      expect(role.name).toBe('Library Role');
      await lib.addRole(f.guildId, f.memberId, role.id);
      const member = await request(`${f.platform.apiBase}/guilds/${f.guildId}/members/${f.memberId}`, {
        headers: { authorization: `Bot ${f.botToken}` },
      });
      expect((member.body as { roles: string[] }).roles).toContain(role.id);
    });
  });
}
