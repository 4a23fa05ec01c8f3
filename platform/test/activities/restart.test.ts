/** Activity state lives in the store (PROTOCOL.md §18): instances and URL mappings survive a restart. */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bot, request } from '../support/http.js';
import { startTestPlatform, tempDir } from '../support/platform.js';

describe('activities across a restart', () => {
  it('a running instance and mappings set through the development route are there after a restart', async () => {
    const database = join(tempDir(), 'activities.db');
    const config = {
      applications: [{ name: 'Persistent Activity', bot_token: 'persistent-activity-bot-token-0123', flags: 1 << 17 }],
      users: [{ username: 'player_one' }],
      guilds: [
        {
          name: 'Persist Guild',
          owner: 'player_one',
          members: ['player_one'],
          channels: [{ name: 'play', type: 0 as const }],
        },
      ],
    };
    const first = await startTestPlatform({ database, config });
    const app = first.store.applications.findByName('Persistent Activity')!;
    const user = first.store.users.findByUsername('player_one')!;
    const guild = first.store.guilds.findByName('Persist Guild')!;
    const channel = first.store.guilds.findChannelByName(guild.id, 'play')!;
    const launched = await request(`${first.apiBase}/dev/applications/${app.id}/activity-instances`, {
      json: { user_id: user.id, channel_id: channel.id },
    });
    expect(launched.status, launched.text).toBe(201);
    const mappings = [{ prefix: '/api', target: 'api.example.com' }];
    expect(
      (
        await request(`${first.apiBase}/dev/applications/${app.id}/url-mappings`, {
          method: 'PUT',
          json: { url_mappings: mappings },
        })
      ).status,
    ).toBe(200);
    await first.close();

    const second = await startTestPlatform({ database, config });
    try {
      const got = await request(
        `${second.apiBase}/applications/${app.id}/activity-instances/${launched.body.instance_id}`,
        { headers: bot('persistent-activity-bot-token-0123') },
      );
      expect(got.status, got.text).toBe(200);
      expect(got.body).toEqual(launched.body);
      expect((await request(`${second.apiBase}/dev/applications/${app.id}/url-mappings`)).body).toEqual({
        url_mappings: mappings,
      });
    } finally {
      await second.close();
    }
  });
});
