/**
 * Published-shape checks of the command and interaction routes (PROTOCOL.md §17). An interaction is triggered as a
 * user through the development route; its token (which the bot would read from INTERACTION_CREATE) is read from
 * the store here, so the checks need no gateway session.
 */
import * as spec from 'discord-api-spec/zod';
import { expect } from 'vitest';
import * as zm from 'zod/mini';
import { bearer, bot, request, type TestResponse } from '../support/http.js';
import { accessTokenFor } from '../support/platform.js';
import type { BotFixture } from '../bot/fixture.js';
import { published, type Check } from './checks.js';

/** The redirect URI the fixture's application registers, so the checks can get a user's Bearer token of it. */
export const INTERACTION_CHECKS_REDIRECT = 'http://127.0.0.1:5555/callback';

export function interactionChecks(fixture: () => BotFixture): Check[] {
  const f = () => fixture();
  const call = (method: string, path: string, json?: unknown): Promise<TestResponse> =>
    request(`${f().platform.apiBase}${path}`, {
      method,
      headers: bot(f().botToken),
      ...(json !== undefined && { json }),
    });
  const open = (method: string, path: string, json?: unknown): Promise<TestResponse> =>
    request(`${f().platform.apiBase}${path}`, { method, ...(json !== undefined && { json }) });
  const global = () => `/applications/${f().appId}/commands`;
  const guild = () => `/applications/${f().appId}/guilds/${f().guildId}/commands`;
  let counter = 0;
  const command = async (base: string) => {
    const response = await call('POST', base, { name: `shape${++counter}`, description: 'shape check' });
    expect(response.status, response.text).toBe(201);
    return response.body.id as string;
  };
  /** A fresh interaction on a fresh command: `{id, token}`. */
  const interaction = async () => {
    const commandId = await command(global());
    const triggered = await request(`${f().platform.apiBase}/dev/interactions`, {
      json: {
        type: 2,
        user_id: f().memberId,
        application_id: f().appId,
        channel_id: f().generalId,
        command_id: commandId,
      },
    });
    expect(triggered.status, triggered.text).toBe(200);
    const record = f().platform.store.interactions.getInteraction(triggered.body.interaction_id)!;
    return { id: record.id, token: record.token };
  };
  const answered = async () => {
    const i = await interaction();
    const response = await open('POST', `/interactions/${i.id}/${i.token}/callback`, {
      type: 4,
      data: { content: 'original' },
    });
    expect(response.status, response.text).toBe(204);
    return i;
  };
  const list = zm.array(spec.ApplicationCommandResponseSchema);
  /** Sets overwrites of a fresh command with the guild owner's Bearer token (the only credential the PUT takes). */
  const permitted = async () => {
    const commandId = await command(global());
    const token = (
      await accessTokenFor(f().platform, {
        clientId: f().appId,
        scope: 'applications.commands.permissions.update',
        user: 'alice',
        redirectUri: INTERACTION_CHECKS_REDIRECT,
      })
    ).access_token;
    const path = `/applications/${f().appId}/guilds/${f().guildId}/commands/${commandId}/permissions`;
    const response = await request(`${f().platform.apiBase}${path}`, {
      method: 'PUT',
      headers: bearer(token),
      json: { permissions: [{ id: f().guildId, type: 1, permission: true }] },
    });
    return { path, response };
  };

  return [
    published('patch', '/applications/@me', '200', spec.PrivateApplicationResponseSchema, () =>
      call('PATCH', '/applications/@me', { interactions_endpoint_url: null }),
    ),
    published('get', '/applications/{application_id}/commands', '200', list, async () => {
      await command(global());
      return call('GET', global());
    }),
    published('post', '/applications/{application_id}/commands', '201', spec.ApplicationCommandResponseSchema, () =>
      call('POST', global(), {
        name: 'created',
        description: 'x',
        options: [{ type: 3, name: 'text', description: 't' }],
      }),
    ),
    published(
      'post',
      '/applications/{application_id}/commands',
      '200',
      spec.ApplicationCommandResponseSchema,
      async () => {
        await call('POST', global(), { name: 'overwritten', description: 'x' });
        return call('POST', global(), { name: 'overwritten', description: 'y' });
      },
    ),
    published('put', '/applications/{application_id}/commands', '200', list, async () => {
      // The bulk overwrite keeps the list of the other checks: it re-sends what is there.
      const current = (await call('GET', global())).body as Array<Record<string, unknown>>;
      return call('PUT', global(), [
        ...current.map(({ name, description, type, handler }) => ({
          name,
          description,
          type,
          ...(handler !== undefined && { handler }),
        })),
        { name: 'bulk', type: 3 },
      ]);
    }),
    published(
      'get',
      '/applications/{application_id}/commands/{command_id}',
      '200',
      spec.ApplicationCommandResponseSchema,
      async () => call('GET', `${global()}/${await command(global())}`),
    ),
    published(
      'patch',
      '/applications/{application_id}/commands/{command_id}',
      '200',
      spec.ApplicationCommandResponseSchema,
      async () => call('PATCH', `${global()}/${await command(global())}`, { description: 'patched' }),
    ),
    published('delete', '/applications/{application_id}/commands/{command_id}', '204', null, async () =>
      call('DELETE', `${global()}/${await command(global())}`),
    ),
    published('get', '/applications/{application_id}/guilds/{guild_id}/commands', '200', list, async () => {
      await command(guild());
      return call('GET', guild());
    }),
    published(
      'post',
      '/applications/{application_id}/guilds/{guild_id}/commands',
      '201',
      spec.ApplicationCommandResponseSchema,
      () => call('POST', guild(), { name: 'Guild Wave', type: 2 }),
    ),
    published('put', '/applications/{application_id}/guilds/{guild_id}/commands', '200', list, () =>
      call('PUT', guild(), [{ name: 'guildbulk', description: 'x' }]),
    ),
    published(
      'get',
      '/applications/{application_id}/guilds/{guild_id}/commands/{command_id}',
      '200',
      spec.ApplicationCommandResponseSchema,
      async () => call('GET', `${guild()}/${await command(guild())}`),
    ),
    published(
      'patch',
      '/applications/{application_id}/guilds/{guild_id}/commands/{command_id}',
      '200',
      spec.ApplicationCommandResponseSchema,
      async () => call('PATCH', `${guild()}/${await command(guild())}`, { nsfw: true }),
    ),
    published(
      'delete',
      '/applications/{application_id}/guilds/{guild_id}/commands/{command_id}',
      '204',
      null,
      async () => call('DELETE', `${guild()}/${await command(guild())}`),
    ),
    published(
      'get',
      '/applications/{application_id}/guilds/{guild_id}/commands/permissions',
      '200',
      zm.array(spec.CommandPermissionsResponseSchema),
      async () => {
        await permitted();
        return call('GET', `/applications/${f().appId}/guilds/${f().guildId}/commands/permissions`);
      },
    ),
    published(
      'get',
      '/applications/{application_id}/guilds/{guild_id}/commands/{command_id}/permissions',
      '200',
      spec.CommandPermissionsResponseSchema,
      async () => call('GET', (await permitted()).path),
    ),
    published(
      'put',
      '/applications/{application_id}/guilds/{guild_id}/commands/{command_id}/permissions',
      '200',
      spec.CommandPermissionsResponseSchema,
      async () => (await permitted()).response,
    ),
    published(
      'post',
      '/interactions/{interaction_id}/{interaction_token}/callback',
      '200',
      spec.InteractionCallbackResponseSchema,
      async () => {
        const i = await interaction();
        return open('POST', `/interactions/${i.id}/${i.token}/callback?with_response=true`, {
          type: 4,
          data: { content: 'with response' },
        });
      },
    ),
    published('post', '/interactions/{interaction_id}/{interaction_token}/callback', '204', null, async () => {
      const i = await interaction();
      return open('POST', `/interactions/${i.id}/${i.token}/callback`, { type: 5 });
    }),
    published('post', '/webhooks/{webhook_id}/{webhook_token}', '200', spec.MessageResponseSchema, async () => {
      const i = await answered();
      return open('POST', `/webhooks/${f().appId}/${i.token}?wait=true`, { content: 'follow-up' });
    }),
    published(
      'get',
      '/webhooks/{webhook_id}/{webhook_token}/messages/@original',
      '200',
      spec.MessageResponseSchema,
      async () => {
        const i = await answered();
        return open('GET', `/webhooks/${f().appId}/${i.token}/messages/@original`);
      },
    ),
    published(
      'get',
      '/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}',
      '200',
      spec.MessageResponseSchema,
      async () => {
        const i = await answered();
        const followup = await open('POST', `/webhooks/${f().appId}/${i.token}`, { content: 'follow-up' });
        return open('GET', `/webhooks/${f().appId}/${i.token}/messages/${followup.body.id}`);
      },
    ),
    published(
      'patch',
      '/webhooks/{webhook_id}/{webhook_token}/messages/@original',
      '200',
      spec.MessageResponseSchema,
      async () => {
        const i = await answered();
        return open('PATCH', `/webhooks/${f().appId}/${i.token}/messages/@original`, { content: 'edited' });
      },
    ),
    published('delete', '/webhooks/{webhook_id}/{webhook_token}/messages/@original', '204', null, async () => {
      const i = await answered();
      return open('DELETE', `/webhooks/${f().appId}/${i.token}/messages/@original`);
    }),
    published(
      'patch',
      '/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}',
      '200',
      spec.MessageResponseSchema,
      async () => {
        const i = await answered();
        const followup = await open('POST', `/webhooks/${f().appId}/${i.token}`, { content: 'follow-up' });
        return open('PATCH', `/webhooks/${f().appId}/${i.token}/messages/${followup.body.id}`, { content: 'edited' });
      },
    ),
    published('delete', '/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}', '204', null, async () => {
      const i = await answered();
      const followup = await open('POST', `/webhooks/${f().appId}/${i.token}`, { content: 'follow-up' });
      return open('DELETE', `/webhooks/${f().appId}/${i.token}/messages/${followup.body.id}`);
    }),
  ];
}
