/**
 * Interactions over the real platform (PROTOCOL.md §17.2–17.3): a user triggers through the development route, the
 * bot receives INTERACTION_CREATE over a real gateway session, answers on the token routes (no Authorization).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { botCall } from '../bot/helpers.js';
import {
  callback,
  createCommand,
  interactionSession,
  startInteractionPlatform,
  trigger,
  webhook,
  type InteractionFixture,
} from './support.js';

let f: InteractionFixture;
let bot: Awaited<ReturnType<typeof interactionSession>>;
let pingId: string;

beforeAll(async () => {
  f = await startInteractionPlatform();
  bot = await interactionSession(f);
  pingId = await createCommand(f, { name: 'ping', description: 'Ping!' });
});
afterAll(async () => {
  bot?.close();
  await f?.platform.close();
});

const received = (id: string) => bot.received(id);

/** Invokes /ping as bob and returns the interaction the bot received. */
async function invoke(commandId = pingId, userId = f.memberId): Promise<any> {
  const triggered = await trigger(f, {
    type: 2,
    user_id: userId,
    application_id: f.appId,
    channel_id: f.generalId,
    command_id: commandId,
  });
  expect(triggered.status, triggered.text).toBe(200);
  expect(triggered.body.delivered).toBe('gateway');
  return received(triggered.body.interaction_id);
}

describe('INTERACTION_CREATE', () => {
  it('carries every published field', async () => {
    const interaction = await invoke();
    expect(interaction).toMatchObject({
      application_id: f.appId,
      type: 2,
      data: { id: pingId, name: 'ping', type: 1 },
      guild_id: f.guildId,
      channel_id: f.generalId,
      channel: { id: f.generalId, type: 0 },
      version: 1,
      context: 0,
      authorizing_integration_owners: { '0': f.guildId },
      entitlements: [],
      attachment_size_limit: 10 * 1024 * 1024,
      locale: 'en-US',
    });
    expect(interaction.member.user.id).toBe(f.memberId);
    expect(interaction.member.permissions).toMatch(/^\d+$/);
    // The bot's permissions in the channel, as a string, always present.
    expect(BigInt(interaction.app_permissions) & (1n << 11n)).toBe(1n << 11n);
    expect(typeof interaction.token).toBe('string');
  });

  it('resolves channel and user options; a resolved channel has app_permissions when the bot is in the guild', async () => {
    const id = await createCommand(f, {
      name: 'where',
      description: 'x',
      options: [
        { type: 7, name: 'channel', description: 'c' },
        { type: 6, name: 'who', description: 'w' },
      ],
    });
    const options = [
      { type: 7, name: 'channel', value: f.generalId },
      { type: 6, name: 'who', value: f.ownerId },
    ];
    const triggered = await trigger(f, {
      type: 2,
      user_id: f.memberId,
      application_id: f.appId,
      channel_id: f.generalId,
      command_id: id,
      options,
    });
    expect(triggered.status, triggered.text).toBe(200);
    const interaction = await received(triggered.body.interaction_id);
    expect(interaction.data.options).toEqual(options);
    expect(interaction.data.resolved.channels[f.generalId]).toMatchObject({
      id: f.generalId,
      name: 'general',
      app_permissions: interaction.app_permissions,
    });
    expect(interaction.data.resolved.users[f.ownerId].id).toBe(f.ownerId);
    const unknown = await trigger(f, {
      type: 2,
      user_id: f.memberId,
      application_id: f.appId,
      channel_id: f.generalId,
      command_id: id,
      options: [{ type: 7, name: 'channel', value: '1' }],
    });
    expect(unknown.body.errors.options._errors[0].code).toBe('UNKNOWN_CHANNEL');
  });

  it('checks the options a user sends against the command', async () => {
    const id = await createCommand(f, {
      name: 'pick',
      description: 'x',
      options: [
        { type: 3, name: 'colour', description: 'c', required: true, choices: [{ name: 'Red', value: 'red' }] },
      ],
    });
    const send = (options: unknown[]) =>
      trigger(f, {
        type: 2,
        user_id: f.memberId,
        application_id: f.appId,
        channel_id: f.generalId,
        command_id: id,
        options,
      });
    expect((await send([{ type: 3, name: 'size', value: 'x' }])).body.errors.options['0']._errors[0].code).toBe(
      'INTERACTION_OPTION_UNKNOWN',
    );
    expect((await send([{ type: 4, name: 'colour', value: 1 }])).body.errors.options['0']._errors[0].code).toBe(
      'INTERACTION_OPTION_UNKNOWN',
    );
    expect(
      (await send([{ type: 3, name: 'colour', value: 'blue' }])).body.errors.options['0'].value._errors[0].code,
    ).toBe('INTERACTION_OPTION_INVALID');
    expect((await send([])).body.errors.options._errors[0].code).toBe('INTERACTION_OPTION_REQUIRED');
    const accepted = await send([{ type: 3, name: 'colour', value: 'red' }]);
    expect(accepted.status).toBe(200);
    expect((await received(accepted.body.interaction_id)).data.options[0].value).toBe('red');
  });

  it('user install only: authorizing owners hold the user id as a string', async () => {
    f.platform.store.grants.upsert({
      applicationId: f.appId,
      userId: f.memberId,
      scopes: ['applications.commands'],
      createdAt: Date.now(),
    });
    const id = await createCommand(f, { name: 'mine', description: 'user installed', integration_types: [1] });
    const interaction = await invoke(id);
    expect(interaction.authorizing_integration_owners).toEqual({ '1': f.memberId });
  });

  it('refuses a trigger the app is not installed for (50001), a command not allowed in guilds, bad input', async () => {
    const userOnly = await createCommand(f, { name: 'useronly', description: 'x', integration_types: [1] });
    const notInstalled = await trigger(f, {
      type: 2,
      user_id: f.ownerId,
      application_id: f.appId,
      channel_id: f.generalId,
      command_id: userOnly,
    });
    expect(notInstalled.status).toBe(403);
    expect(notInstalled.body.code).toBe(50001);
    const dmOnly = await createCommand(f, { name: 'dmonly', description: 'x', contexts: [1] });
    const inGuild = await trigger(f, {
      type: 2,
      user_id: f.memberId,
      application_id: f.appId,
      channel_id: f.generalId,
      command_id: dmOnly,
    });
    expect(inGuild.body.errors.channel_id._errors[0].code).toBe('INTERACTION_CONTEXT_NOT_ALLOWED');
    const unknownUser = await trigger(f, {
      type: 2,
      user_id: '1',
      application_id: f.appId,
      channel_id: f.generalId,
      command_id: pingId,
    });
    expect(unknownUser.body.code).toBe(10013);
    const badType = await trigger(f, { type: 9, user_id: f.memberId });
    expect(badType.body.code).toBe(50035);
  });

  it('honours default_member_permissions (50013 without them)', async () => {
    const adminOnly = await createCommand(f, {
      name: 'adminonly',
      description: 'x',
      default_member_permissions: String(1n << 3n),
    });
    const refused = await trigger(f, {
      type: 2,
      user_id: f.memberId,
      application_id: f.appId,
      channel_id: f.generalId,
      command_id: adminOnly,
    });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe(50013);
  });
});

describe('responses', () => {
  it('CHANNEL_MESSAGE_WITH_SOURCE posts the original; a second response is 40060; @original reads it', async () => {
    const interaction = await invoke();
    const answered = await callback(f, interaction, { type: 4, data: { content: 'pong' } }, true);
    expect(answered.status, answered.text).toBe(200);
    expect(answered.body.interaction).toMatchObject({
      id: interaction.id,
      type: 2,
      response_message_loading: false,
      response_message_ephemeral: false,
    });
    expect(answered.body.resource.message).toMatchObject({
      content: 'pong',
      type: 20,
      application_id: f.appId,
      webhook_id: f.appId,
    });
    expect(answered.body.resource.message.interaction_metadata).toMatchObject({
      id: interaction.id,
      type: 2,
      user: { id: f.memberId },
      authorizing_integration_owners: { '0': f.guildId },
    });
    expect(answered.body.resource.message.interaction_metadata.user_id).toBeUndefined();
    const again = await callback(f, interaction, { type: 4, data: { content: 'twice' } });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe(40060);
    const original = await webhook(f, interaction.token, 'GET', '/messages/@original');
    expect(original.body.id).toBe(answered.body.interaction.response_message_id);
    const inChannel = await botCall(f, 'GET', `/channels/${f.generalId}/messages/${original.body.id}`);
    expect(inChannel.body.content).toBe('pong');
  });

  it('without with_response the callback is 204; bad callback bodies are 50035 and change nothing', async () => {
    const interaction = await invoke();
    const bad = await callback(f, interaction, { type: 4, data: { content: 'x'.repeat(2001) } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.data.content._errors[0].code).toBe('BASE_TYPE_MAX_LENGTH');
    const unknownType = await callback(f, interaction, { type: 11 });
    expect(unknownType.body.code).toBe(50035);
    expect((await callback(f, interaction, { type: 4, data: { content: 'fine' } })).status).toBe(204);
  });

  it('refuses callback types that do not fit the interaction (6 and 7 only for components)', async () => {
    const interaction = await invoke();
    const update = await callback(f, interaction, { type: 7, data: { content: 'x' } });
    expect(update.body.errors.type._errors[0].code).toBe('INTERACTION_CALLBACK_TYPE_INVALID');
    const deferUpdate = await callback(f, interaction, { type: 6 });
    expect(deferUpdate.body.errors.type._errors[0].code).toBe('INTERACTION_CALLBACK_TYPE_INVALID');
  });

  it('a wrong token or id is 10062; after 3 s without a response the token is dead (10062)', async () => {
    const interaction = await invoke();
    expect(
      (await callback(f, { id: interaction.id, token: 'wrong' }, { type: 4, data: { content: 'x' } })).body.code,
    ).toBe(10062);
    expect(
      (await callback(f, { id: '1', token: interaction.token }, { type: 4, data: { content: 'x' } })).body.code,
    ).toBe(10062);
    f.clock.advance(3_001);
    const late = await callback(f, interaction, { type: 4, data: { content: 'late' } });
    expect(late.status).toBe(404);
    expect(late.body.code).toBe(10062);
  });

  it('the webhook token lives 15 minutes (then 50027); unknown tokens and another app id are 10015', async () => {
    const interaction = await invoke();
    await callback(f, interaction, { type: 4, data: { content: 'soon stale' } });
    expect((await webhook(f, 'nope', 'GET', '/messages/@original')).body.code).toBe(10015);
    const otherApp = await (
      await import('../support/http.js')
    ).request(`${f.platform.apiBase}/webhooks/1234/${interaction.token}/messages/@original`);
    expect(otherApp.body.code).toBe(10015);
    f.clock.advance(15 * 60_000 - 1);
    expect((await webhook(f, interaction.token, 'GET', '/messages/@original')).status).toBe(200);
    f.clock.advance(2);
    const expired = await webhook(f, interaction.token, 'POST', '', { content: 'too late' });
    expect(expired.status).toBe(401);
    expect(expired.body.code).toBe(50027);
  });

  it('deferred: a LOADING original (only EPHEMERAL accepted), filled in by the edit, which may add a poll once', async () => {
    const interaction = await invoke();
    const wrongFlags = await callback(f, interaction, { type: 5, data: { flags: 4 } });
    expect(wrongFlags.body.errors.data.flags._errors[0].code).toBe('INTERACTION_DEFERRED_FLAGS_INVALID');
    const deferred = await callback(f, interaction, { type: 5 }, true);
    expect(deferred.body.interaction.response_message_loading).toBe(true);
    expect(deferred.body.resource.message.flags & 128).toBe(128);
    const poll = {
      question: { text: 'Best?' },
      answers: [{ poll_media: { text: 'a' } }, { poll_media: { text: 'b' } }],
    };
    const filled = await webhook(f, interaction.token, 'PATCH', '/messages/@original', { content: 'done', poll });
    expect(filled.status, filled.text).toBe(200);
    expect(filled.body.flags & 128).toBe(0);
    expect(filled.body.poll.question.text).toBe('Best?');
    const later = await webhook(f, interaction.token, 'PATCH', '/messages/@original', { poll });
    expect(later.body.errors.poll._errors[0].code).toBe('POLL_ONLY_ON_DEFERRED_EDIT');
  });

  it('the first follow-up after a deferred response fills in the original', async () => {
    const interaction = await invoke();
    await callback(f, interaction, { type: 5 });
    const followup = await webhook(f, interaction.token, 'POST', '?wait=true', { content: 'first' });
    const original = await webhook(f, interaction.token, 'GET', '/messages/@original');
    expect(followup.body.id).toBe(original.body.id);
    expect(original.body.content).toBe('first');
    const second = await webhook(f, interaction.token, 'POST', '', { content: 'second' });
    expect(second.body.id).not.toBe(original.body.id);
    expect(second.body.interaction_metadata.original_response_message_id).toBe(original.body.id);
  });

  it('follow-ups before a response are refused; edit and delete of a follow-up; ephemeral ones stay out of the channel', async () => {
    const interaction = await invoke();
    expect((await webhook(f, interaction.token, 'POST', '', { content: 'early' })).body.code).toBe(10015);
    await callback(f, interaction, { type: 4, data: { content: 'secret', flags: 64 } });
    const original = await webhook(f, interaction.token, 'GET', '/messages/@original');
    expect(original.body.flags & 64).toBe(64);
    const inChannel = await botCall(f, 'GET', `/channels/${f.generalId}/messages/${original.body.id}`);
    expect(inChannel.status).toBe(404);
    const followup = await webhook(f, interaction.token, 'POST', '', { content: 'visible' });
    const edited = await webhook(f, interaction.token, 'PATCH', `/messages/${followup.body.id}`, { content: 'edited' });
    expect(edited.body.content).toBe('edited');
    expect((await webhook(f, interaction.token, 'DELETE', `/messages/${followup.body.id}`)).status).toBe(204);
    expect((await webhook(f, interaction.token, 'GET', `/messages/${followup.body.id}`)).body.code).toBe(10008);
    // A message of another interaction is not reachable with this token.
    expect((await webhook(f, interaction.token, 'GET', `/messages/${original.body.id}1`)).body.code).toBe(10008);
    expect((await webhook(f, interaction.token, 'DELETE', '/messages/@original')).status).toBe(204);
  });

  it('a user-installed interaction gets 5 follow-ups; the 6th is 40094', async () => {
    f.platform.store.grants.upsert({
      applicationId: f.appId,
      userId: f.memberId,
      scopes: ['applications.commands'],
      createdAt: Date.now(),
    });
    const id = await createCommand(f, { name: 'fivefollow', description: 'x', integration_types: [1] });
    const interaction = await invoke(id);
    await callback(f, interaction, { type: 4, data: { content: 'hi' } });
    for (let i = 0; i < 5; i++)
      expect((await webhook(f, interaction.token, 'POST', '', { content: `f${i}` })).status).toBe(200);
    const sixth = await webhook(f, interaction.token, 'POST', '', { content: 'f5' });
    expect(sixth.status).toBe(400);
    expect(sixth.body.code).toBe(40094);
  });

  it('a guild-installed interaction is not held to 5 follow-ups', async () => {
    const interaction = await invoke();
    await callback(f, interaction, { type: 4, data: { content: 'hi' } });
    for (let i = 0; i < 6; i++)
      expect((await webhook(f, interaction.token, 'POST', '', { content: `g${i}` })).status).toBe(200);
  });

  it('PREMIUM_REQUIRED (10, deprecated) is still accepted', async () => {
    const interaction = await invoke();
    expect((await callback(f, interaction, { type: 10 })).status).toBe(204);
  });
});

describe('components', () => {
  it('a click on a button of the bot message is a MESSAGE_COMPONENT; UPDATE_MESSAGE edits that message', async () => {
    const posted = await botCall(f, 'POST', `/channels/${f.generalId}/messages`, {
      content: 'click me',
      components: [
        {
          type: 1,
          components: [
            { type: 2, style: 1, label: 'Go', custom_id: 'go' },
            { type: 2, style: 2, label: 'Off', custom_id: 'off', disabled: true },
          ],
        },
      ],
    });
    expect(posted.status, posted.text).toBe(200);
    const clicked = await trigger(f, {
      type: 3,
      user_id: f.memberId,
      application_id: f.appId,
      channel_id: f.generalId,
      message_id: posted.body.id,
      custom_id: 'go',
    });
    expect(clicked.status, clicked.text).toBe(200);
    const interaction = await received(clicked.body.interaction_id);
    expect(interaction).toMatchObject({
      type: 3,
      data: { custom_id: 'go', component_type: 2 },
      message: { id: posted.body.id },
    });
    const updated = await callback(f, interaction, { type: 7, data: { content: 'clicked' } }, true);
    expect(updated.body.resource.message.content).toBe('clicked');
    expect((await botCall(f, 'GET', `/channels/${f.generalId}/messages/${posted.body.id}`)).body.content).toBe(
      'clicked',
    );
    const disabled = await trigger(f, {
      type: 3,
      user_id: f.memberId,
      application_id: f.appId,
      channel_id: f.generalId,
      message_id: posted.body.id,
      custom_id: 'off',
    });
    expect(disabled.body.errors.custom_id._errors[0].code).toBe('COMPONENT_DISABLED');
    const unknown = await trigger(f, {
      type: 3,
      user_id: f.memberId,
      application_id: f.appId,
      channel_id: f.generalId,
      message_id: posted.body.id,
      custom_id: 'nope',
    });
    expect(unknown.body.errors.custom_id._errors[0].code).toBe('COMPONENT_UNKNOWN');
  });

  it("a premium button with an active SKU is accepted; the buyer's entitlement shows in the interaction", async () => {
    // A durable SKU, available for purchase (flag AVAILABLE 1 << 2); the route answers with the created SKUs.
    const created = await (
      await import('./support.js')
    ).dev(f, 'POST', `/applications/${f.appId}/skus`, { type: 2, name: 'Gold', flags: 1 << 2 });
    expect(created.status, created.text).toBe(201);
    const sku = { body: created.body[0] };
    const premium = await botCall(f, 'POST', `/channels/${f.generalId}/messages`, {
      components: [{ type: 1, components: [{ type: 2, style: 6, sku_id: sku.body.id }] }],
    });
    expect(premium.status, premium.text).toBe(200);
    const granted = await botCall(f, 'POST', `/applications/${f.appId}/entitlements`, {
      sku_id: sku.body.id,
      owner_id: f.memberId,
      owner_type: 2,
    });
    expect(granted.status, granted.text).toBe(200);
    const interaction = await invoke();
    expect(interaction.entitlements.map((e: any) => e.sku_id)).toContain(sku.body.id);
  });

  it('a premium button needs an active SKU of the application', async () => {
    const premium = await botCall(f, 'POST', `/channels/${f.generalId}/messages`, {
      components: [{ type: 1, components: [{ type: 2, style: 6, sku_id: '123456789' }] }],
    });
    expect(premium.status).toBe(400);
    expect(premium.body.errors.components['0'].components['0'].sku_id._errors[0].code).toBe(
      'BUTTON_COMPONENT_INVALID_SKU',
    );
    const withLabel = await botCall(f, 'POST', `/channels/${f.generalId}/messages`, {
      components: [{ type: 1, components: [{ type: 2, style: 6, sku_id: '1', label: 'Buy' }] }],
    });
    expect(withLabel.body.errors.components['0'].components['0'].label._errors[0].code).toBe(
      'BUTTON_COMPONENT_PREMIUM_INVALID_FIELD',
    );
  });
});

describe('activities', () => {
  it('LAUNCH_ACTIVITY needs activities enabled, then answers with an activity instance', async () => {
    const first = await invoke();
    const refused = await callback(f, first, { type: 12 });
    expect(refused.body.errors.type._errors[0].code).toBe('INTERACTION_LAUNCH_ACTIVITY_NOT_ENABLED');
    await (
      await import('./support.js')
    ).dev(f, 'PATCH', `/applications/${f.appId}/interactions`, { activities_enabled: true });
    const interaction = await invoke();
    const launched = await callback(f, interaction, { type: 12 }, true);
    expect(launched.status, launched.text).toBe(200);
    // Published form (PROTOCOL.md §18.1).
    expect(launched.body.interaction.activity_instance_id).toMatch(/^i-\d+-gc-\d+-\d+$/);
    expect(launched.body.resource).toEqual({
      type: 12,
      activity_instance: { id: launched.body.interaction.activity_instance_id },
    });
  });

  it('a DISCORD_LAUNCH_ACTIVITY entry point is answered by the platform with a message; the app gets nothing', async () => {
    const enabled = await (
      await import('./support.js')
    ).dev(f, 'PATCH', `/applications/${f.appId}/interactions`, { activities_enabled: true });
    expect(enabled.status).toBe(200);
    const launch = (await botCall(f, 'GET', `/applications/${f.appId}/commands`)).body.find((c: any) => c.type === 4);
    expect(launch.handler).toBe(2);
    const triggered = await trigger(f, {
      type: 2,
      user_id: f.memberId,
      application_id: f.appId,
      channel_id: f.generalId,
      command_id: launch.id,
    });
    expect(triggered.body).toMatchObject({
      delivered: 'platform',
      activity_instance_id: expect.stringMatching(/^i-\d+-gc-\d+-\d+$/),
    });
    expect(triggered.body.message.content).toContain('started');
    expect(triggered.body.message.interaction_metadata.user.id).toBe(f.memberId);
    expect(
      bot.session.seen.filter((e) => e.t === 'INTERACTION_CREATE' && e.d.id === triggered.body.interaction_id),
    ).toHaveLength(0);
  });
});
