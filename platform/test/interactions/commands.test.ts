/** Commands (PROTOCOL.md §17.1): scopes, limits, entry point, defaults, dm_permission, validation, authorization. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../support/http.js';
import { startBotPlatform, type BotFixture } from '../bot/fixture.js';
import { botCall } from '../bot/helpers.js';

let f: BotFixture;
beforeAll(async () => {
  f = await startBotPlatform();
});
afterAll(async () => {
  await f?.platform.close();
});

const global = () => `/applications/${f.appId}/commands`;
const guild = () => `/applications/${f.appId}/guilds/${f.guildId}/commands`;
const dev = (path: string, json: unknown) =>
  request(`${f.platform.apiBase}/dev${path}`, { method: path.includes('/applications/') ? 'PATCH' : 'POST', json });
const errorCode = (body: any, ...path: string[]) =>
  path.reduce((node, key) => node?.[key], body?.errors)?._errors?.[0]?.code;

describe('commands', () => {
  it('creates a global chat input command (201), overwrites it by name (200) and lists it with the defaults', async () => {
    const created = await botCall(f, 'POST', global(), { name: 'ping', description: 'Ping!' });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({
      name: 'ping',
      type: 1,
      application_id: f.appId,
      integration_types: [0, 1],
      contexts: [0, 1, 2],
      dm_permission: true,
      default_member_permissions: null,
    });
    const again = await botCall(f, 'POST', global(), { name: 'ping', description: 'Pong?' });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(created.body.id);
    expect(again.body.version).not.toBe(created.body.version);
    const list = await botCall(f, 'GET', global());
    expect(list.body.filter((c: any) => c.name === 'ping')).toHaveLength(1);
  });

  it('maps the deprecated dm_permission false onto contexts [0]', async () => {
    const response = await botCall(f, 'POST', global(), {
      name: 'nodm',
      description: 'guild only',
      dm_permission: false,
    });
    expect(response.body.contexts).toEqual([0]);
    expect(response.body.dm_permission).toBe(false);
  });

  it('defaults integration_types to the application installation contexts', async () => {
    await dev(`/applications/${f.appId}/interactions`, { install_contexts: [0] });
    try {
      const response = await botCall(f, 'POST', global(), { name: 'guildinstall', description: 'x' });
      expect(response.body.integration_types).toEqual([0]);
      expect(response.body.contexts).toEqual([0, 1]);
    } finally {
      await dev(`/applications/${f.appId}/interactions`, { install_contexts: [0, 1] });
    }
  });

  it('refuses bad names and descriptions per type', async () => {
    const upper = await botCall(f, 'POST', global(), { name: 'Ping', description: 'x' });
    expect(upper.status).toBe(400);
    expect(errorCode(upper.body, 'name')).toBe('APPLICATION_COMMAND_INVALID_NAME');
    const spaced = await botCall(f, 'POST', global(), { name: 'two words', description: 'x' });
    expect(errorCode(spaced.body, 'name')).toBe('APPLICATION_COMMAND_INVALID_NAME');
    const noDescription = await botCall(f, 'POST', global(), { name: 'nodesc' });
    expect(errorCode(noDescription.body, 'description')).toBe('BASE_TYPE_REQUIRED');
    const userWithDescription = await botCall(f, 'POST', global(), {
      name: 'Show Profile',
      type: 2,
      description: 'no',
    });
    expect(errorCode(userWithDescription.body, 'description')).toBe('APPLICATION_COMMAND_DESCRIPTION_INVALID');
    const tooLong = await botCall(f, 'POST', global(), { name: 'x'.repeat(33), description: 'x' });
    expect(errorCode(tooLong.body, 'name')).toBe('BASE_TYPE_MAX_LENGTH');
  });

  it('checks options: required before optional, subcommand nesting, choices only on scalar types, only on chat input', async () => {
    const order = await botCall(f, 'POST', global(), {
      name: 'order',
      description: 'x',
      options: [
        { type: 3, name: 'a', description: 'a' },
        { type: 3, name: 'b', description: 'b', required: true },
      ],
    });
    expect(errorCode(order.body, 'options', '1', 'required')).toBe('APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID');
    const nested = await botCall(f, 'POST', global(), {
      name: 'nested',
      description: 'x',
      options: [
        {
          type: 2,
          name: 'group',
          description: 'g',
          options: [{ type: 1, name: 'sub', description: 's', options: [{ type: 1, name: 'deep', description: 'd' }] }],
        },
      ],
    });
    expect(errorCode(nested.body, 'options', '0', 'options', '0', 'options', '0', 'type')).toBe(
      'APPLICATION_COMMAND_OPTIONS_TYPE_INVALID',
    );
    const choices = await botCall(f, 'POST', global(), {
      name: 'choices',
      description: 'x',
      options: [{ type: 5, name: 'flag', description: 'f', choices: [{ name: 'y', value: 'y' }] }],
    });
    expect(errorCode(choices.body, 'options', '0', 'choices')).toBe('APPLICATION_COMMAND_OPTIONS_CHOICES_INVALID');
    const onUser = await botCall(f, 'POST', global(), {
      name: 'User Thing',
      type: 2,
      options: [{ type: 3, name: 'a', description: 'a' }],
    });
    expect(errorCode(onUser.body, 'options')).toBe('APPLICATION_COMMAND_OPTIONS_INVALID');
    const ok = await botCall(f, 'POST', global(), {
      name: 'okopts',
      description: 'x',
      options: [
        { type: 3, name: 'a', description: 'a', required: true, choices: [{ name: 'one', value: '1' }] },
        { type: 4, name: 'b', description: 'b' },
      ],
    });
    expect(ok.status, ok.text).toBe(201);
    expect(ok.body.options).toHaveLength(2);
  });

  it('allows 15 user and 15 message commands per scope and refuses the 16th of each with 30032', async () => {
    for (let i = 0; i < 15; i++) {
      const response = await botCall(f, 'POST', guild(), { name: `User ${i}`, type: 2 });
      expect(response.status, response.text).toBe(201);
    }
    const extra = await botCall(f, 'POST', guild(), { name: 'User 15', type: 2 });
    expect(extra.status).toBe(400);
    expect(extra.body.code).toBe(30032);
    // Message commands have their own 15.
    for (let i = 0; i < 15; i++)
      expect((await botCall(f, 'POST', guild(), { name: `Quote ${i}`, type: 3 })).status).toBe(201);
    const extraMessage = await botCall(f, 'POST', guild(), { name: 'Quote 15', type: 3 });
    expect(extraMessage.status).toBe(400);
    expect(extraMessage.body.code).toBe(30032);
    await botCall(f, 'PUT', guild(), []);
  });

  it('bulk overwrite replaces every command of the scope, keeps ids by name, and refuses duplicates and over-limit lists', async () => {
    const first = await botCall(f, 'PUT', guild(), [
      { name: 'alpha', description: 'a' },
      { name: 'beta', description: 'b' },
    ]);
    expect(first.status, first.text).toBe(200);
    const alpha = first.body.find((c: any) => c.name === 'alpha');
    expect(alpha.guild_id).toBe(f.guildId);
    expect(alpha.contexts).toEqual([0]);
    const second = await botCall(f, 'PUT', guild(), [{ name: 'alpha', description: 'a2' }]);
    expect(second.body).toHaveLength(1);
    expect(second.body[0].id).toBe(alpha.id);
    const list = await botCall(f, 'GET', guild());
    expect(list.body.map((c: any) => c.name)).toEqual(['alpha']);
    const duplicate = await botCall(f, 'PUT', guild(), [
      { name: 'same', description: 'a' },
      { name: 'same', description: 'b' },
    ]);
    expect(errorCode(duplicate.body, '1', 'name')).toBe('APPLICATION_COMMANDS_DUPLICATE_NAME');
    const tooMany = await botCall(
      f,
      'PUT',
      guild(),
      Array.from({ length: 16 }, (_, i) => ({ name: `Msg ${i}`, type: 3 })),
    );
    expect(tooMany.body.code).toBe(30032);
    expect((await botCall(f, 'GET', guild())).body.map((c: any) => c.name)).toEqual(['alpha']);
  });

  it('edits and deletes a command; unknown ids are 10063', async () => {
    const created = await botCall(f, 'POST', global(), { name: 'editme', description: 'x' });
    const edited = await botCall(f, 'PATCH', `${global()}/${created.body.id}`, { name: 'edited', contexts: [0] });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body).toMatchObject({ name: 'edited', description: 'x', contexts: [0] });
    expect((await botCall(f, 'GET', `${global()}/${created.body.id}`)).body.name).toBe('edited');
    expect((await botCall(f, 'DELETE', `${global()}/${created.body.id}`)).status).toBe(204);
    const gone = await botCall(f, 'GET', `${global()}/${created.body.id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe(10063);
    expect((await botCall(f, 'GET', `${global()}/not-a-snowflake`)).body.code).toBe(10063);
    // A global command is not reachable through a guild path.
    const globalOne = await botCall(f, 'POST', global(), { name: 'globalonly', description: 'x' });
    expect((await botCall(f, 'GET', `${guild()}/${globalOne.body.id}`)).body.code).toBe(10063);
  });

  it('entry point: needs activities, one per app, global only, handler required; enabling activities creates "Launch", which can be renamed and deleted', async () => {
    const early = await botCall(f, 'POST', global(), { name: 'Play', type: 4, handler: 1 });
    expect(errorCode(early.body, 'type')).toBe('APPLICATION_COMMAND_ENTRY_POINT_REQUIRES_ACTIVITIES');
    const enabled = await dev(`/applications/${f.appId}/interactions`, { activities_enabled: true });
    expect(enabled.status, enabled.text).toBe(200);
    expect(enabled.body.default_entry_point).toMatchObject({ name: 'Launch', type: 4, handler: 2, description: '' });
    const launchId = enabled.body.default_entry_point.id;
    const second = await botCall(f, 'POST', global(), { name: 'Play', type: 4, handler: 1 });
    expect(second.body.code).toBe(30032);
    const inGuild = await botCall(f, 'POST', guild(), { name: 'Play', type: 4, handler: 1 });
    expect(errorCode(inGuild.body, 'type')).toBe('APPLICATION_COMMAND_ENTRY_POINT_GLOBAL_ONLY');
    const renamed = await botCall(f, 'PATCH', `${global()}/${launchId}`, { name: 'Start Game', handler: 1 });
    expect(renamed.body).toMatchObject({ id: launchId, name: 'Start Game', handler: 1 });
    // Leaving it out of a bulk overwrite is refused; including it (renamed) keeps its id.
    const bulk = await botCall(f, 'PUT', global(), [{ name: 'ping', description: 'p' }]);
    expect(bulk.body.code).toBe(50240);
    const kept = await botCall(f, 'PUT', global(), [
      { name: 'ping', description: 'p' },
      { name: 'Go', type: 4, handler: 2 },
    ]);
    expect(kept.body.find((c: any) => c.type === 4).id).toBe(launchId);
    const handlerOnChat = await botCall(f, 'POST', global(), { name: 'withhandler', description: 'x', handler: 1 });
    expect(errorCode(handlerOnChat.body, 'handler')).toBe('APPLICATION_COMMAND_HANDLER_INVALID');
    expect((await botCall(f, 'DELETE', `${global()}/${launchId}`)).status).toBe(204);
    const noHandler = await botCall(f, 'POST', global(), { name: 'Play', type: 4 });
    expect(errorCode(noHandler.body, 'handler')).toBe('BASE_TYPE_REQUIRED');
    // Enabling again recreates the default one.
    const again = await dev(`/applications/${f.appId}/interactions`, { activities_enabled: true });
    expect(again.body.default_entry_point.name).toBe('Launch');
  });

  it('authorization and bad input: no token 401, another application 403 50001, an unknown guild 10004, bad bodies 50035', async () => {
    expect((await request(`${f.platform.apiBase}${global()}`)).status).toBe(401);
    const badBearer = await request(`${f.platform.apiBase}${global()}`, {
      headers: { authorization: 'Bearer not-a-token' },
    });
    expect(badBearer.status).toBe(401);
    expect(badBearer.body.code).toBe(50025);
    const badBot = await request(`${f.platform.apiBase}${global()}`, { headers: { authorization: 'Bot not-a-token' } });
    expect(badBot.body.code).toBe(50014);
    const other = await botCall(f, 'GET', `/applications/1234567890/commands`);
    expect(other.status).toBe(403);
    expect(other.body.code).toBe(50001);
    const unknownGuild = await botCall(f, 'GET', `/applications/${f.appId}/guilds/1234567890/commands`);
    expect(unknownGuild.body.code).toBe(10004);
    const badBody = await botCall(f, 'POST', global(), { name: 5 });
    expect(badBody.status).toBe(400);
    expect(badBody.body.code).toBe(50035);
    const badContexts = await botCall(f, 'POST', global(), { name: 'ctx', description: 'x', contexts: [0, 0] });
    expect(badContexts.body.code).toBe(50035);
  });
});
