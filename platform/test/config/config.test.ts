/** The config file's guild references to applications' bots (PROTOCOL.md §7). */
import { describe, expect, it } from 'vitest';
import { bot, request } from '../support/http.js';
import { startTestPlatform } from '../support/platform.js';

const BOT_TOKEN = 'configured-bot-token-0123456789';

/** The guild names the application's bot (by its configured token) is a member of. */
async function botGuilds(apiBase: string): Promise<string[]> {
  const response = await request(`${apiBase}/users/@me/guilds`, { headers: bot(BOT_TOKEN) });
  expect(response.status, response.text).toBe(200);
  return (response.body as Array<{ name: string }>).map((guild) => guild.name);
}

describe('config: application bots in guilds', () => {
  it('places an application bot, named by application name, in a guild on a fresh database', async () => {
    const platform = await startTestPlatform({
      config: {
        applications: [{ name: 'Guild Bot Game', bot_token: BOT_TOKEN }],
        guilds: [{ name: 'Bot Guild', bots: ['Guild Bot Game'], channels: [{ name: 'general' }] }],
      },
    });
    try {
      expect(await botGuilds(platform.apiBase)).toEqual(['Bot Guild']);
    } finally {
      await platform.close();
    }
  });

  it('places an application bot, named by application id, in a guild', async () => {
    const platform = await startTestPlatform({
      config: {
        applications: [{ id: '1200000000000000001', name: 'Id Bot Game', bot_token: BOT_TOKEN }],
        guilds: [{ name: 'Id Bot Guild', bots: ['1200000000000000001'] }],
      },
    });
    try {
      expect(await botGuilds(platform.apiBase)).toEqual(['Id Bot Guild']);
    } finally {
      await platform.close();
    }
  });

  it('refuses a guild bot reference that names no application, saying where', async () => {
    const config = { guilds: [{ name: 'Fine Guild' }, { name: 'Broken Guild', bots: ['No Such Game'] }] };
    await expect(startTestPlatform({ config })).rejects.toThrow(
      /"guilds":\{"1":\{"bots":\{"0":\{"_errors":\[\{"code":"UNKNOWN_APPLICATION"/,
    );
  });

  it('says which guild holds a member reference that does not resolve', async () => {
    const config = { guilds: [{ name: 'Member Guild', members: ['nobody_here'] }] };
    await expect(startTestPlatform({ config })).rejects.toThrow(
      /"guilds":\{"0":\{"members":\{"0":\{"_errors":\[\{"code":"UNKNOWN_USER"/,
    );
  });
});
