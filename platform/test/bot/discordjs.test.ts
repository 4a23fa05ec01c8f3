/**
 * Acceptance: an unmodified discord.js 14 bot against the real platform over HTTP and WebSocket (PROTOCOL.md §14).
 * Only options are set (`rest.api`); nothing is patched.
 */
import {
  AttachmentBuilder,
  ChannelType,
  Client,
  ContainerBuilder,
  GatewayIntentBits,
  MessageFlags,
  PermissionFlagsBits,
  TextDisplayBuilder,
  type TextChannel,
} from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBotPlatform, type BotFixture } from './fixture.js';
import { inGuildVoice } from '../support/voice-harness.js';

describe('discord.js 14, unmodified', () => {
  let fixture: BotFixture;
  let client: Client;

  beforeAll(async () => {
    fixture = await startBotPlatform();
    client = new Client({
      intents: [
        GatewayIntentBits.Guilds,
        GatewayIntentBits.GuildMembers,
        GatewayIntentBits.GuildMessages,
        GatewayIntentBits.MessageContent,
      ],
      rest: { api: `${fixture.platform.httpUrl}/api` },
    });
    const ready = new Promise<void>((resolve) => client.once('clientReady', () => resolve()));
    await client.login(fixture.botToken);
    await ready;
  }, 60_000);

  afterAll(async () => {
    await client?.destroy();
    await fixture?.platform.close();
  });

  it('logs in with a privileged intent and caches its guild, channels and roles from GUILD_CREATE', () => {
    const guild = client.guilds.cache.get(fixture.guildId);
    expect(guild?.available).toBe(true);
    expect(guild?.name).toBe('Bot Guild');
    expect(guild?.channels.cache.get(fixture.generalId)?.name).toBe('general');
    expect(guild?.roles.cache.find((role) => role.name === 'Bot Role')).toBeDefined();
    expect(guild?.members.me?.id).toBe(fixture.botUserId);
  });

  it('fetches all members through op 8, and a second full request within 30 s is RATE_LIMITED', async () => {
    const guild = client.guilds.cache.get(fixture.guildId)!;
    const members = await guild.members.fetch();
    expect([...members.keys()].sort()).toEqual([fixture.botUserId, fixture.ownerId, fixture.memberId].sort());
    await expect(guild.members.fetch()).rejects.toThrow(/rate limit/i);
  });

  it('sends a Components V2 message, pins it, forwards it, and reads the pins', async () => {
    const channel = (await client.channels.fetch(fixture.generalId)) as TextChannel;
    const container = new ContainerBuilder().addTextDisplayComponents(
      new TextDisplayBuilder().setContent('hello from V2'),
    );
    const message = await channel.send({ components: [container], flags: MessageFlags.IsComponentsV2 });
    expect(message.flags.has(MessageFlags.IsComponentsV2)).toBe(true);
    expect(message.components).toHaveLength(1);

    await message.pin();
    const pins = await channel.messages.fetchPins();
    expect(pins.items.map((item) => item.message.id)).toContain(message.id);

    const plain = await channel.send('forward me');
    const forwarded = await plain.forward(channel);
    expect(forwarded.messageSnapshots.first()?.content).toBe('forward me');
    expect(forwarded.flags.has(MessageFlags.HasSnapshot)).toBe(true);
  });

  it('retries a send with enforce_nonce and gets the same message; then edits it; files go as multipart', async () => {
    const channel = (await client.channels.fetch(fixture.generalId)) as TextChannel;
    const first = await channel.send({ content: 'once', nonce: 'retry-1', enforceNonce: true });
    const retry = await channel.send({ content: 'once', nonce: 'retry-1', enforceNonce: true });
    expect(retry.id).toBe(first.id);
    const edited = await first.edit('edited once');
    expect(edited.content).toBe('edited once');

    const withFile = await channel.send({
      content: 'a file',
      files: [new AttachmentBuilder(Buffer.from('hello'), { name: 'hello.txt', description: 'greeting' })],
    });
    expect(withFile.attachments.first()?.name).toBe('hello.txt');
    expect(withFile.attachments.first()?.description).toBe('greeting');
  });

  it('creates an invite with a target-users file and reads the users back', async () => {
    const guild = client.guilds.cache.get(fixture.guildId)!;
    const invite = await guild.invites.create(fixture.generalId, {
      targetUsersFile: [fixture.memberId, fixture.ownerId],
    });
    expect(invite.code).toMatch(/\w+/);
    // discord.js hands the CSV over as bytes: a header line, then one id per line.
    const csv = Buffer.from(await guild.invites.fetchTargetUsers(invite.code))
      .toString('utf8')
      .trim()
      .split('\n');
    expect(csv[0]).toBe('user_id');
    expect(csv.slice(1).sort()).toEqual([fixture.memberId, fixture.ownerId].sort());
    const status = await guild.invites.fetchTargetUsersJobStatus(invite.code);
    expect(status.status).toBe(2);
  });

  it('creates a category and a voice channel under it, edits and deletes them; the cache follows CHANNEL_CREATE/UPDATE/DELETE', async () => {
    const guild = client.guilds.cache.get(fixture.guildId)!;
    const category = await guild.channels.create({ name: 'Squads', type: ChannelType.GuildCategory });
    const voice = await guild.channels.create({
      name: 'Squad 1',
      type: ChannelType.GuildVoice,
      parent: category.id,
      bitrate: 32_000,
      userLimit: 4,
      permissionOverwrites: [{ id: fixture.memberId, deny: [PermissionFlagsBits.Connect] }],
    });
    expect(voice.parentId).toBe(category.id);
    expect(voice.bitrate).toBe(32_000);
    expect(voice.permissionOverwrites.cache.get(fixture.memberId)?.deny.has(PermissionFlagsBits.Connect)).toBe(true);
    const edited = await voice.edit({ name: 'Squad one', userLimit: 6 });
    expect(edited.name).toBe('Squad one');
    expect(edited.userLimit).toBe(6);
    await voice.delete();
    await category.delete();
    await expect(guild.channels.fetch(voice.id)).rejects.toMatchObject({ code: 10003 });
  });

  it('reads voice states with guild.voiceStates.fetch: a member in a voice channel, and 10065 for itself', async () => {
    const guild = client.guilds.cache.get(fixture.guildId)!;
    // Alice joins the voice channel from her own main-gateway session (op 4); no voice connection is needed for it.
    const { client: alice } = await inGuildVoice(fixture.platform, {
      username: 'alice',
      guildId: fixture.guildId,
      channelId: fixture.voiceId,
      selfMute: true,
    });
    try {
      const state = await guild.voiceStates.fetch(fixture.ownerId);
      expect(state.channelId).toBe(fixture.voiceId);
      expect(state.selfMute).toBe(true);
      expect(state.id).toBe(fixture.ownerId);
      await expect(guild.voiceStates.fetch('@me')).rejects.toMatchObject({ code: 10065 });
    } finally {
      await alice.close();
    }
  });
});
