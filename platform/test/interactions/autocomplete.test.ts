/**
 * Autocomplete (PROTOCOL.md §17.10): APPLICATION_COMMAND_AUTOCOMPLETE interactions (type 4) for options declared
 * with `autocomplete: true`, answered with APPLICATION_COMMAND_AUTOCOMPLETE_RESULT (callback 8) — over the real
 * platform and a real gateway session.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { botCall } from '../bot/helpers.js';
import {
  callback,
  createCommand,
  interactionSession,
  dev,
  startInteractionPlatform,
  trigger,
  webhook,
  type InteractionFixture,
} from './support.js';

let f: InteractionFixture;
let bot: Awaited<ReturnType<typeof interactionSession>>;
let searchId: string;

beforeAll(async () => {
  f = await startInteractionPlatform();
  bot = await interactionSession(f);
  searchId = await createCommand(f, {
    name: 'search',
    description: 'Search',
    options: [
      { type: 3, name: 'query', description: 'q', required: true, autocomplete: true },
      { type: 4, name: 'page', description: 'p', autocomplete: true },
      { type: 3, name: 'mode', description: 'm', choices: [{ name: 'Fast', value: 'fast' }] },
    ],
  });
});
afterAll(async () => {
  bot?.close();
  await f?.platform.close();
});

const received = (id: string) => bot.received(id);

async function typing(options: unknown[], place: Record<string, unknown> = { channel_id: f.generalId }): Promise<any> {
  const triggered = await trigger(f, {
    type: 4,
    user_id: f.memberId,
    application_id: f.appId,
    command_id: searchId,
    options,
    ...place,
  });
  expect(triggered.status, triggered.text).toBe(200);
  return received(triggered.body.interaction_id);
}

describe('declaring autocomplete', () => {
  it('only on string, integer and number options, and never with choices', async () => {
    const create = (option: Record<string, unknown>) =>
      botCall(f, 'POST', `/applications/${f.appId}/commands`, {
        name: 'ac',
        description: 'x',
        options: [{ name: 'o', description: 'o', ...option }],
      });
    for (const type of [5, 6, 7, 8, 9, 11]) {
      const refused = await create({ type, autocomplete: true });
      expect(refused.status).toBe(400);
      expect(refused.body.errors.options['0'].autocomplete._errors[0].code).toBe(
        'APPLICATION_COMMAND_OPTIONS_AUTOCOMPLETE_INVALID',
      );
    }
    const withChoices = await create({ type: 3, autocomplete: true, choices: [{ name: 'a', value: 'a' }] });
    expect(withChoices.body.errors.options['0'].autocomplete._errors[0].code).toBe(
      'APPLICATION_COMMAND_OPTIONS_AUTOCOMPLETE_INVALID',
    );
    for (const type of [3, 4, 10]) expect((await create({ type, autocomplete: true })).status).toBeLessThan(300);
  });
});

describe('APPLICATION_COMMAND_AUTOCOMPLETE', () => {
  it('reaches the bot with the focused option and what was typed; callback 8 offers the user the choices', async () => {
    const interaction = await typing([{ type: 3, name: 'query', value: 'ca', focused: true }]);
    expect(interaction).toMatchObject({
      type: 4,
      context: 0,
      guild_id: f.guildId,
      data: {
        id: searchId,
        name: 'search',
        type: 1,
        options: [{ type: 3, name: 'query', value: 'ca', focused: true }],
      },
      authorizing_integration_owners: { '0': f.guildId },
    });
    const choices = [
      { name: 'cats', value: 'cats' },
      { name: 'cars', value: 'cars', name_localizations: { fr: 'voitures' } },
    ];
    const answered = await callback(f, interaction, { type: 8, data: { choices } }, true);
    expect(answered.status, answered.text).toBe(200);
    expect(answered.body).toEqual({ interaction: { id: interaction.id, type: 4 }, resource: { type: 8 } });
    const seen = await dev(f, 'GET', `/interactions/${interaction.id}`, undefined);
    expect(seen.body).toMatchObject({ type: 4, response_type: 8, choices });
    // Answered once; and autocomplete has no messages: no follow-up through its token.
    expect((await callback(f, interaction, { type: 8, data: { choices: [] } })).body.code).toBe(40060);
    expect((await webhook(f, interaction.token, 'POST', '', { content: 'x' })).body.code).toBe(10015);
  });

  it('takes integer choices for an integer option, an empty list, and works in the bot DM', async () => {
    const page = await typing([
      { type: 3, name: 'query', value: 'cats' },
      { type: 4, name: 'page', value: '1', focused: true },
    ]);
    expect(
      (
        await callback(f, page, {
          type: 8,
          data: {
            choices: [
              { name: 'first', value: 1 },
              { name: 'second', value: 2 },
            ],
          },
        })
      ).status,
    ).toBe(204);
    const empty = await typing([{ type: 3, name: 'query', value: 'zz', focused: true }]);
    expect((await callback(f, empty, { type: 8, data: { choices: [] } })).status).toBe(204);
    f.platform.store.grants.upsert({
      applicationId: f.appId,
      userId: f.memberId,
      scopes: ['applications.commands'],
      createdAt: Date.now(),
    });
    const inDm = await typing([{ type: 3, name: 'query', value: 'd', focused: true }], {
      recipient_ids: [f.botUserId],
    });
    expect(inDm).toMatchObject({ type: 4, context: 1 });
    expect((await callback(f, inDm, { type: 8, data: { choices: [{ name: 'dogs', value: 'dogs' }] } })).status).toBe(
      204,
    );
  });

  it('refuses bad choices: more than 25, a value of another type, names out of 1–100, a string over 100, missing choices', async () => {
    const cases: Array<[unknown[], Record<string, unknown>, (errors: any) => unknown]> = [
      [
        [{ type: 3, name: 'query', value: 'a', focused: true }],
        { choices: Array.from({ length: 26 }, (_, i) => ({ name: `n${i}`, value: `v${i}` })) },
        (e) => e.data.choices._errors[0].code,
      ],
      [
        [
          { type: 3, name: 'query', value: 'a' },
          { type: 4, name: 'page', value: '', focused: true },
        ],
        { choices: [{ name: 'one', value: 'one' }] },
        (e) => e.data.choices['0'].value._errors[0].code,
      ],
      [
        [
          { type: 3, name: 'query', value: 'a' },
          { type: 4, name: 'page', value: '', focused: true },
        ],
        { choices: [{ name: 'half', value: 1.5 }] },
        (e) => e.data.choices['0'].value._errors[0].code,
      ],
      [
        [{ type: 3, name: 'query', value: 'a', focused: true }],
        { choices: [{ name: '', value: 'x' }] },
        (e) => e.data.choices['0'].name._errors[0].code,
      ],
      [
        [{ type: 3, name: 'query', value: 'a', focused: true }],
        { choices: [{ name: 'x'.repeat(101), value: 'x' }] },
        (e) => e.data.choices['0'].name._errors[0].code,
      ],
      [
        [{ type: 3, name: 'query', value: 'a', focused: true }],
        { choices: [{ name: 'x', value: 'v'.repeat(101) }] },
        (e) => e.data.choices['0'].value._errors[0].code,
      ],
      [[{ type: 3, name: 'query', value: 'a', focused: true }], {}, (e) => e.data.choices._errors[0].code],
    ];
    for (const [options, data, codeOf] of cases) {
      const interaction = await typing(options);
      const refused = await callback(f, interaction, { type: 8, data });
      expect(refused.status, refused.text).toBe(400);
      expect(refused.body.code).toBe(50035);
      expect(codeOf(refused.body.errors)).toEqual(expect.any(String));
      // A refused answer changes nothing: a good one is still accepted.
      expect((await callback(f, interaction, { type: 8, data: { choices: [] } })).status).toBe(204);
    }
  });

  it('accepts only callback 8, and callback 8 only for autocomplete', async () => {
    const interaction = await typing([{ type: 3, name: 'query', value: 'a', focused: true }]);
    for (const type of [4, 5, 9])
      expect((await callback(f, interaction, { type, data: { content: 'x' } })).body.errors.type._errors[0].code).toBe(
        'INTERACTION_CALLBACK_TYPE_INVALID',
      );
    const command = await trigger(f, {
      type: 2,
      user_id: f.memberId,
      application_id: f.appId,
      channel_id: f.generalId,
      command_id: searchId,
      options: [{ type: 3, name: 'query', value: 'cats' }],
    });
    const invoked = await received(command.body.interaction_id);
    expect((await callback(f, invoked, { type: 8, data: { choices: [] } })).body.errors.type._errors[0].code).toBe(
      'INTERACTION_CALLBACK_TYPE_INVALID',
    );
  });

  it('refuses bad triggers: no or two focused options, a focused option without autocomplete, a non-string typed value, unknown options, a user command, no options', async () => {
    const code = async (json: Record<string, unknown>) => {
      const response = await trigger(f, {
        type: 4,
        user_id: f.memberId,
        application_id: f.appId,
        channel_id: f.generalId,
        command_id: searchId,
        ...json,
      });
      expect(response.status, response.text).toBe(400);
      return response.body;
    };
    expect((await code({ options: [{ type: 3, name: 'query', value: 'a' }] })).errors.options._errors[0].code).toBe(
      'INTERACTION_AUTOCOMPLETE_FOCUS_INVALID',
    );
    expect(
      (
        await code({
          options: [
            { type: 3, name: 'query', value: 'a', focused: true },
            { type: 4, name: 'page', value: '1', focused: true },
          ],
        })
      ).errors.options._errors[0].code,
    ).toBe('INTERACTION_AUTOCOMPLETE_FOCUS_INVALID');
    expect(
      (await code({ options: [{ type: 3, name: 'mode', value: 'f', focused: true }] })).errors.options['0']._errors[0]
        .code,
    ).toBe('INTERACTION_OPTION_NOT_AUTOCOMPLETE');
    expect(
      (await code({ options: [{ type: 3, name: 'query', value: 5, focused: true }] })).errors.options['0'].value
        ._errors[0].code,
    ).toBe('INTERACTION_OPTION_INVALID');
    expect(
      (await code({ options: [{ type: 3, name: 'nope', value: 'a', focused: true }] })).errors.options['0']._errors[0]
        .code,
    ).toBe('INTERACTION_OPTION_UNKNOWN');
    expect((await code({ options: [] })).code).toBe(50035);
    const userCommand = await createCommand(f, { name: 'Inspect', type: 2 });
    expect(
      (await code({ command_id: userCommand, options: [{ type: 3, name: 'query', value: 'a', focused: true }] })).errors
        .command_id._errors[0].code,
    ).toBe('INTERACTION_AUTOCOMPLETE_INVALID');
  });

  it('finds the focused option inside a subcommand', async () => {
    const id = await createCommand(f, {
      name: 'tag',
      description: 'Tags',
      options: [
        {
          type: 1,
          name: 'get',
          description: 'g',
          options: [{ type: 10, name: 'weight', description: 'w', autocomplete: true }],
        },
      ],
    });
    const triggered = await trigger(f, {
      type: 4,
      user_id: f.memberId,
      application_id: f.appId,
      channel_id: f.generalId,
      command_id: id,
      options: [{ type: 1, name: 'get', options: [{ type: 10, name: 'weight', value: '0.', focused: true }] }],
    });
    expect(triggered.status, triggered.text).toBe(200);
    const interaction = await received(triggered.body.interaction_id);
    expect(
      (await callback(f, interaction, { type: 8, data: { choices: [{ name: 'half', value: 0.5 }] } })).status,
    ).toBe(204);
  });

  it('the dev read of an interaction: unknown → 404 10062', async () => {
    expect((await dev(f, 'GET', '/interactions/123', undefined)).body.code).toBe(10062);
    expect((await dev(f, 'GET', '/interactions/abc', undefined)).body.code).toBe(10062);
  });
});
