/**
 * Acceptance (PROTOCOL.md §17): an unmodified discord.js 14 bot registers commands, receives interactions a user
 * triggers through the development route, replies with a modal, receives the submission with a file, answers with
 * LAUNCH_ACTIVITY, and sends five follow-ups for a user-installed command — the sixth is refused. Real platform,
 * real HTTP and WebSocket; only client options are set.
 */
import {
  ApplicationCommandType,
  ApplicationIntegrationType,
  type Client,
  DiscordAPIError,
  EntryPointCommandHandlerType,
  FileUploadBuilder,
  LabelBuilder,
  ModalBuilder,
  TextInputBuilder,
  TextInputStyle,
} from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../support/http.js';
import { devTokenHeaders } from '../support/platform.js';
import { loginDiscordJs, type DiscordJsBot } from './discordjs-client.js';
import { startBotPlatform, type BotFixture } from './fixture.js';
import { multipart } from './helpers.js';

describe('discord.js 14, unmodified: commands and interactions', () => {
  let f: BotFixture;
  let client: Client;
  const commandIds = new Map<string, string>();
  let nextInteraction: DiscordJsBot['nextInteraction'];
  const dev = (json: unknown) => request(`${f.platform.apiBase}/dev/interactions`, { method: 'POST', json });
  const invoke = (name: string) =>
    dev({
      type: 2,
      user_id: f.memberId,
      application_id: f.appId,
      channel_id: f.generalId,
      command_id: commandIds.get(name),
    });

  beforeAll(async () => {
    f = await startBotPlatform();
    // The app has activities enabled (for LAUNCH_ACTIVITY), and bob installed it for himself (user install).
    const enabled = await request(`${f.platform.apiBase}/dev/applications/${f.appId}/interactions`, {
      method: 'PATCH',
      json: { activities_enabled: true },
    });
    expect(enabled.status, enabled.text).toBe(200);
    f.platform.store.grants.upsert({
      applicationId: f.appId,
      userId: f.memberId,
      scopes: ['applications.commands'],
      createdAt: Date.now(),
    });

    ({ client, nextInteraction } = await loginDiscordJs(f));

    // Registering is a bulk overwrite; the default "Launch" entry point must be part of it (or the PUT is refused).
    const existing = await client.application!.commands.fetch();
    const launch = existing.find((c) => c.type === ApplicationCommandType.PrimaryEntryPoint)!;
    const registered = await client.application!.commands.set([
      { name: 'profile', description: 'Fill in your profile' },
      { name: 'play', description: 'Start the game' },
      { name: 'burst', description: 'Five follow-ups', integrationTypes: [ApplicationIntegrationType.UserInstall] },
      { name: 'Wave', type: ApplicationCommandType.User },
      {
        name: launch.name,
        type: ApplicationCommandType.PrimaryEntryPoint,
        handler: EntryPointCommandHandlerType.DiscordLaunchActivity,
      },
    ]);
    for (const command of registered.values()) commandIds.set(command.name, command.id);
  }, 60_000);

  afterAll(async () => {
    await client?.destroy();
    await f?.platform.close();
  });

  it('registered its commands through application.commands.set', async () => {
    const fetched = await client.application!.commands.fetch();
    expect([...fetched.values()].map((c) => c.name).sort()).toEqual(['Launch', 'Wave', 'burst', 'play', 'profile']);
    expect(fetched.find((c) => c.name === 'burst')?.integrationTypes).toEqual([ApplicationIntegrationType.UserInstall]);
  });

  it('replies with a modal and receives the submission with a file', async () => {
    const received = nextInteraction((i) => i.isChatInputCommand() && i.commandName === 'profile');
    expect((await invoke('profile')).status).toBe(200);
    const command = await received;
    if (!command.isChatInputCommand()) throw new Error('not a chat input command');
    expect(command.user.id).toBe(f.memberId);
    expect(command.channelId).toBe(f.generalId);
    const modal = new ModalBuilder()
      .setCustomId('profile-modal')
      .setTitle('Profile')
      .addLabelComponents(
        new LabelBuilder()
          .setLabel('Name')
          .setTextInputComponent(new TextInputBuilder().setCustomId('name').setStyle(TextInputStyle.Short)),
        new LabelBuilder().setLabel('Picture').setFileUploadComponent(new FileUploadBuilder().setCustomId('picture')),
      );
    await command.showModal(modal);

    const submitted = nextInteraction((i) => i.isModalSubmit());
    const body = multipart([
      {
        name: 'payload_json',
        body: JSON.stringify({ type: 5, user_id: f.memberId, interaction_id: command.id, values: { name: 'Bob' } }),
      },
      { name: 'files[picture]', filename: 'bob.png', type: 'image/png', body: Buffer.from('bob picture') },
    ]);
    const sent = await request(`${f.platform.apiBase}/dev/interactions`, {
      method: 'POST',
      headers: { ...body.headers, ...devTokenHeaders(f.platform) },
      raw: body.raw,
    });
    expect(sent.status, sent.text).toBe(200);
    const submission = await submitted;
    if (!submission.isModalSubmit()) throw new Error('not a modal submission');
    expect(submission.customId).toBe('profile-modal');
    expect(submission.fields.getTextInputValue('name')).toBe('Bob');
    const file = submission.fields.getUploadedFiles('picture', true).first()!;
    expect(file.name).toBe('bob.png');
    expect((await request(file.url)).text).toBe('bob picture');
    const reply = await submission.reply({ content: 'Saved', withResponse: true });
    expect(reply.resource?.message?.content).toBe('Saved');
  });

  it('answers a command with LAUNCH_ACTIVITY', async () => {
    const received = nextInteraction((i) => i.isChatInputCommand() && i.commandName === 'play');
    await invoke('play');
    const command = await received;
    if (!command.isChatInputCommand()) throw new Error('not a chat input command');
    const response = await command.launchActivity({ withResponse: true });
    expect(response.interaction.activityInstanceId).toMatch(/^i-\d+-gc-\d+-\d+$/);
    expect(response.resource?.activityInstance?.id).toBe(response.interaction.activityInstanceId);
    // The bot reads the launched instance (Get Application Activity Instance, PROTOCOL.md §18.1).
    const instance = await client.application!.fetchActivityInstance(response.interaction.activityInstanceId!);
    expect(instance.instanceId).toBe(response.interaction.activityInstanceId);
    expect(instance.applicationId).toBe(f.appId);
    expect(instance.location.kind).toBe('gc');
    expect(instance.location.channelId).toBe(command.channelId);
    expect(instance.location.guildId).toBe(f.guildId);
    expect(instance.users).toEqual([command.user.id]);
  });

  it('sends five follow-ups for a user-installed command; the sixth is refused with 40094', async () => {
    const received = nextInteraction((i) => i.isChatInputCommand() && i.commandName === 'burst');
    await invoke('burst');
    const command = await received;
    if (!command.isChatInputCommand()) throw new Error('not a chat input command');
    expect(command.authorizingIntegrationOwners[ApplicationIntegrationType.UserInstall]).toBe(f.memberId);
    await command.reply('Here they come');
    for (let i = 1; i <= 5; i++) expect((await command.followUp(`follow-up ${i}`)).content).toBe(`follow-up ${i}`);
    const sixth = await command.followUp('follow-up 6').then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(sixth).toBeInstanceOf(DiscordAPIError);
    expect((sixth as DiscordAPIError).code).toBe(40094);
  });
});
