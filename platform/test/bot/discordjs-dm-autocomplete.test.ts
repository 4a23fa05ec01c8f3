/**
 * An unmodified discord.js 14 bot (PROTOCOL.md §17.2, §17.9, §17.10): answers a command a user invokes in the DM with
 * the bot and in a group DM, answers autocomplete with `respond()`, and sets command permissions with a user's
 * Bearer token (`commands.permissions.set({ token })`), seeing the APPLICATION_COMMAND_PERMISSIONS_UPDATE event. Real
 * platform, real HTTP and WebSocket; only client options are set.
 */
import { ApplicationCommandOptionType, ApplicationCommandPermissionType, type Client, Events } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../support/http.js';
import { accessTokenFor, createUser } from '../support/platform.js';
import { loginDiscordJs, type DiscordJsBot } from './discordjs-client.js';
import { startBotPlatform, type BotFixture } from './fixture.js';

const REDIRECT = 'http://127.0.0.1:5555/callback';

describe('discord.js 14, unmodified: DMs, autocomplete, command permissions', () => {
  let f: BotFixture;
  let client: Client;
  let carolId: string;
  const commandIds = new Map<string, string>();
  let nextInteraction: DiscordJsBot['nextInteraction'];
  const dev = (json: Record<string, unknown>) =>
    request(`${f.platform.apiBase}/dev/interactions`, {
      method: 'POST',
      json: { user_id: f.memberId, application_id: f.appId, ...json },
    });

  beforeAll(async () => {
    f = await startBotPlatform({ application: { redirect_uris: [REDIRECT], public_client: true } });
    carolId = (await createUser(f.platform, { username: 'carol' })).id;
    // bob installed the app for himself (user install).
    f.platform.store.grants.upsert({
      applicationId: f.appId,
      userId: f.memberId,
      scopes: ['applications.commands'],
      createdAt: Date.now(),
    });
    ({ client, nextInteraction } = await loginDiscordJs(f));
    const registered = await client.application!.commands.set([
      { name: 'roll', description: 'Roll a die', integrationTypes: [0, 1], contexts: [0, 1, 2] },
      {
        name: 'search',
        description: 'Search',
        options: [
          {
            type: ApplicationCommandOptionType.String,
            name: 'query',
            description: 'q',
            autocomplete: true,
            required: true,
          },
        ],
      },
    ]);
    for (const command of registered.values()) commandIds.set(command.name, command.id);
  }, 60_000);

  afterAll(async () => {
    await client?.destroy();
    await f?.platform.close();
  });

  it('answers a command in the DM with the bot and in a group DM', async () => {
    const inDm = nextInteraction((i) => i.isChatInputCommand() && i.commandName === 'roll');
    const dm = await dev({ type: 2, command_id: commandIds.get('roll'), recipient_ids: [f.botUserId] });
    expect(dm.status, dm.text).toBe(200);
    const interaction = await inDm;
    if (!interaction.isChatInputCommand()) throw new Error('not a command');
    expect(interaction.inGuild()).toBe(false);
    expect(interaction.context).toBe(1);
    expect(interaction.user.id).toBe(f.memberId);
    expect(interaction.channelId).toBe(dm.body.channel_id);
    expect(interaction.authorizingIntegrationOwners).toMatchObject({ 0: '0', 1: f.memberId });
    const reply = await interaction.reply({ content: 'You rolled 6', withResponse: true });
    expect(reply.resource?.message?.content).toBe('You rolled 6');

    const inGroup = nextInteraction((i) => i.isChatInputCommand() && i.commandName === 'roll' && i.context === 2);
    expect(
      (await dev({ type: 2, command_id: commandIds.get('roll'), recipient_ids: [f.ownerId, carolId] })).status,
    ).toBe(200);
    const group = await inGroup;
    if (!group.isChatInputCommand()) throw new Error('not a command');
    await group.deferReply();
    const edited = await group.editReply('Everyone rolled');
    expect(edited.content).toBe('Everyone rolled');
  });

  it('answers autocomplete with respond()', async () => {
    const typing = nextInteraction((i) => i.isAutocomplete());
    const triggered = await dev({
      type: 4,
      command_id: commandIds.get('search'),
      channel_id: f.generalId,
      options: [{ type: 3, name: 'query', value: 'ca', focused: true }],
    });
    expect(triggered.status, triggered.text).toBe(200);
    const interaction = await typing;
    if (!interaction.isAutocomplete()) throw new Error('not autocomplete');
    expect(interaction.options.getFocused()).toBe('ca');
    await interaction.respond([
      { name: 'cats', value: 'cats' },
      { name: 'cars', value: 'cars' },
    ]);
    const seen = await request(`${f.platform.apiBase}/dev/interactions/${triggered.body.interaction_id}`);
    expect(seen.body.choices).toEqual([
      { name: 'cats', value: 'cats' },
      { name: 'cars', value: 'cars' },
    ]);
  });

  it("sets a command's permissions with a user's Bearer token and sees the update event", async () => {
    const token = (
      await accessTokenFor(f.platform, {
        clientId: f.appId,
        scope: 'identify applications.commands.permissions.update',
        user: 'alice',
        redirectUri: REDIRECT,
      })
    ).access_token;
    const guild = client.guilds.cache.get(f.guildId) ?? (await client.guilds.fetch(f.guildId));
    const command = commandIds.get('search')!;
    const event = new Promise<any>((resolve) => client.once(Events.ApplicationCommandPermissionsUpdate, resolve));
    const permissions = [{ id: f.memberId, type: ApplicationCommandPermissionType.User, permission: false }];
    const set = await client.application!.commands.permissions.set({ guild, command, token, permissions });
    expect(set).toEqual(permissions);
    const update = await event;
    expect(update).toMatchObject({ id: command, guildId: f.guildId, applicationId: f.appId, permissions });
    expect(await client.application!.commands.permissions.fetch({ guild, command })).toEqual(permissions);
    // The bot token is no access token: sent as the Bearer token it is refused (401 50025).
    await expect(
      client.application!.commands.permissions.set({ guild, command, token: f.botToken, permissions }),
    ).rejects.toMatchObject({ code: 50025 });
    // bob is now refused the command.
    const refused = await dev({
      type: 2,
      command_id: command,
      channel_id: f.generalId,
      options: [{ type: 3, name: 'query', value: 'x' }],
    });
    expect(refused.body.code).toBe(50013);
  });
});
