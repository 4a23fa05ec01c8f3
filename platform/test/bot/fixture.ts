/** A platform with a bot application in a guild, for the bot API tests (PROTOCOL.md §14). */
import type { RunningPlatform, StartOptions } from '../../src/index.js';
import { startTestPlatform } from '../support/platform.js';

/** VIEW_CHANNEL, SEND_MESSAGES, READ_MESSAGE_HISTORY, ATTACH_FILES, EMBED_LINKS, PIN_MESSAGES, MANAGE_ROLES,
 * CREATE_INSTANT_INVITE, MANAGE_CHANNELS, VIEW_AUDIT_LOG, SET_VOICE_CHANNEL_STATUS, MANAGE_MESSAGES. */
export const BOT_ROLE_PERMISSIONS = (
  (1n << 10n) |
  (1n << 11n) |
  (1n << 16n) |
  (1n << 15n) |
  (1n << 14n) |
  (1n << 51n) |
  (1n << 28n) |
  (1n << 0n) |
  (1n << 4n) |
  (1n << 7n) |
  (1n << 48n) |
  (1n << 13n)
).toString();

export interface BotFixture {
  platform: RunningPlatform;
  botToken: string;
  appId: string;
  botUserId: string;
  guildId: string;
  generalId: string;
  voiceId: string;
  ownerId: string;
  memberId: string;
}

export interface BotPlatformOptions {
  messageContent?: boolean;
  guildMembers?: boolean;
  botPermissions?: string;
  /** Roles below the bot's own role (lowest first), e.g. one the bot can later take off itself. */
  lowerRoles?: Array<{ name: string; permissions?: string; members?: string[] }>;
  /** More fields of the bot's application config (e.g. `owner`, `webhook_url`). */
  application?: Record<string, unknown>;
  extra?: StartOptions;
}

export async function startBotPlatform(options: BotPlatformOptions = {}): Promise<BotFixture> {
  const platform = await startTestPlatform({
    ...options.extra,
    config: {
      applications: [
        {
          name: 'Test Bot',
          bot_token: 'test-bot-token-0123456789abcdef',
          privileged_intents: {
            guild_members: options.guildMembers ?? true,
            message_content: options.messageContent ?? true,
          },
          ...options.application,
        },
      ],
      users: [{ username: 'alice' }, { username: 'bob' }],
      guilds: [
        {
          name: 'Bot Guild',
          owner: 'alice',
          members: ['alice', 'bob'],
          bots: ['Test Bot'],
          channels: [
            { name: 'general', type: 0 },
            { name: 'lounge', type: 2 },
          ],
          roles: [
            ...(options.lowerRoles ?? []),
            { name: 'Bot Role', permissions: options.botPermissions ?? BOT_ROLE_PERMISSIONS, members: ['Test Bot'] },
          ],
        },
      ],
    },
  });
  const store = platform.store;
  const app = store.applications.findByName('Test Bot')!;
  const guild = store.guilds.findByName('Bot Guild')!;
  return {
    platform,
    botToken: app.botToken,
    appId: app.id,
    botUserId: app.botUserId,
    guildId: guild.id,
    generalId: store.guilds.findChannelByName(guild.id, 'general')!.id,
    voiceId: store.guilds.findChannelByName(guild.id, 'lounge')!.id,
    ownerId: store.users.findByUsername('alice')!.id,
    memberId: store.users.findByUsername('bob')!.id,
  };
}
