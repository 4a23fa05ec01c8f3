/**
 * Published-shape checks of the activity routes (PROTOCOL.md §18): Get Application Activity Instance, on an
 * instance launched in a guild channel and one launched in a DM (both location kinds of the published schema).
 */
import * as spec from 'discord-api-spec/zod';
import { expect } from 'vitest';
import { bot, request } from '../support/http.js';
import type { BotFixture } from '../bot/fixture.js';
import { published, type Check } from './checks.js';

export function activityChecks(fixture: () => BotFixture): Check[] {
  const f = () => fixture();
  const dev = async (method: string, path: string, json: unknown) => {
    const response = await request(`${f().platform.apiBase}/dev${path}`, { method, json });
    expect(response.status, response.text).toBeLessThan(300);
    return response.body;
  };
  const read = (instanceId: string) =>
    request(`${f().platform.apiBase}/applications/${f().appId}/activity-instances/${instanceId}`, {
      headers: bot(f().botToken),
    });

  return [
    published(
      'get',
      '/applications/{application_id}/activity-instances/{instance_id}',
      '200',
      spec.EmbeddedActivityInstanceSchema,
      async () => {
        await dev('PATCH', `/applications/${f().appId}/interactions`, { activities_enabled: true });
        const inGuild = await dev('POST', `/applications/${f().appId}/activity-instances`, {
          user_id: f().ownerId,
          channel_id: f().generalId,
        });
        const inDm = await dev('POST', `/applications/${f().appId}/activity-instances`, {
          user_id: f().ownerId,
          recipient_id: f().memberId,
        });
        return [await read(inGuild.instance_id), await read(inDm.instance_id)];
      },
    ),
  ];
}
