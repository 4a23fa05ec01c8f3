/**
 * Interactions in DMs and group DMs (PROTOCOL.md §17.2): a user invokes a command of a user-installed app in the DM
 * with the app's bot (context BOT_DM 1) and in a DM or group DM with other users (context PRIVATE_CHANNEL 2), over
 * the real platform; the bot receives INTERACTION_CREATE on a real gateway session and answers on the token routes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { botCall } from '../bot/helpers.js';
import { createUser } from '../support/platform.js';
import {
  callback,
  createCommand,
  interactionSession,
  startInteractionPlatform,
  trigger,
  webhook,
  type InteractionFixture,
} from './support.js';

const ATTACH_FILES = 1n << 15n;
const EMBED_LINKS = 1n << 14n;
const MENTION_EVERYONE = 1n << 17n;
const USE_EXTERNAL_EMOJIS = 1n << 18n;

let f: InteractionFixture;
let bot: Awaited<ReturnType<typeof interactionSession>>;
let carolId: string;
let commandId: string;

/** bob authorised the application (a user install). */
function userInstall(userId = f.memberId): void {
  f.platform.store.grants.upsert({
    applicationId: f.appId,
    userId,
    scopes: ['applications.commands'],
    createdAt: Date.now(),
  });
}

beforeAll(async () => {
  f = await startInteractionPlatform();
  bot = await interactionSession(f);
  carolId = (await createUser(f.platform, { username: 'carol' })).id;
  commandId = await createCommand(f, {
    name: 'roll',
    description: 'Roll a die',
    integration_types: [0, 1],
    contexts: [0, 1, 2],
  });
  userInstall();
});
afterAll(async () => {
  bot?.close();
  await f?.platform.close();
});

const received = (id: string) => bot.received(id);

const invoke = (json: Record<string, unknown>) =>
  trigger(f, { type: 2, user_id: f.memberId, application_id: f.appId, command_id: commandId, ...json });

describe('interactions in private channels', () => {
  it('in the DM with the bot: context 1, owners "0" → "0" and "1" → the user, the bot-DM app_permissions, no guild or member', async () => {
    const triggered = await invoke({ recipient_ids: [f.botUserId] });
    expect(triggered.status, triggered.text).toBe(200);
    const interaction = await received(triggered.body.interaction_id);
    expect(interaction).toMatchObject({
      type: 2,
      context: 1,
      // Values are strings, the guild install's "0" included (published).
      authorizing_integration_owners: { '0': '0', '1': f.memberId },
      channel_id: triggered.body.channel_id,
      channel: { id: triggered.body.channel_id, type: 1 },
      user: { id: f.memberId },
      data: { id: commandId, name: 'roll' },
    });
    expect(interaction.channel.recipients.map((u: any) => u.id)).toEqual([f.botUserId]);
    for (const field of ['guild_id', 'guild', 'member', 'guild_locale']) expect(interaction).not.toHaveProperty(field);
    const permissions = BigInt(interaction.app_permissions);
    for (const bit of [ATTACH_FILES, EMBED_LINKS, MENTION_EVERYONE, USE_EXTERNAL_EMOJIS])
      expect(permissions & bit).toBe(bit);

    // The bot answers; the response is readable through the token (the platform keeps private-channel messages with the
    // interaction).
    expect((await callback(f, interaction, { type: 4, data: { content: 'You rolled 4' } })).status).toBe(204);
    const original = await webhook(f, interaction.token, 'GET', '/messages/@original');
    expect(original.status, original.text).toBe(200);
    expect(original.body).toMatchObject({
      content: 'You rolled 4',
      channel_id: triggered.body.channel_id,
      interaction_metadata: { authorizing_integration_owners: { '0': '0', '1': f.memberId } },
    });
    const followup = await webhook(f, interaction.token, 'POST', '', { content: 'again?' });
    expect(followup.status, followup.text).toBe(200);
    expect(
      (await webhook(f, interaction.token, 'PATCH', `/messages/${followup.body.id}`, { content: 'again!' })).body
        .content,
    ).toBe('again!');
  });

  it('in a DM with another user: context 2, only the user install, app_permissions without USE_EXTERNAL_EMOJIS; the same channel next time', async () => {
    const first = await invoke({ recipient_ids: [f.ownerId] });
    expect(first.status, first.text).toBe(200);
    const interaction = await received(first.body.interaction_id);
    expect(interaction).toMatchObject({
      context: 2,
      authorizing_integration_owners: { '1': f.memberId },
      channel: { type: 1 },
      user: { id: f.memberId },
    });
    expect(Object.keys(interaction.authorizing_integration_owners)).toEqual(['1']);
    expect(interaction.channel.recipients.map((u: any) => u.id)).toEqual([f.ownerId]);
    const permissions = BigInt(interaction.app_permissions);
    for (const bit of [ATTACH_FILES, EMBED_LINKS, MENTION_EVERYONE]) expect(permissions & bit).toBe(bit);
    expect(permissions & USE_EXTERNAL_EMOJIS).toBe(0n);
    expect(interaction).not.toHaveProperty('guild_id');

    const again = await invoke({ channel_id: first.body.channel_id });
    expect(again.status, again.text).toBe(200);
    expect(again.body.channel_id).toBe(first.body.channel_id);
    expect((await received(again.body.interaction_id)).context).toBe(2);
  });

  it('in a group DM: channel type 3 with every other member as recipients, context 2', async () => {
    const triggered = await invoke({ recipient_ids: [f.ownerId, carolId] });
    expect(triggered.status, triggered.text).toBe(200);
    const interaction = await received(triggered.body.interaction_id);
    expect(interaction).toMatchObject({
      context: 2,
      channel: { type: 3, id: triggered.body.channel_id },
      authorizing_integration_owners: { '1': f.memberId },
    });
    expect(interaction.channel.recipients.map((u: any) => u.id).sort()).toEqual([f.ownerId, carolId].sort());
    // Follow-ups of a user-install-only interaction are capped (5, published) in a group DM too.
    expect((await callback(f, interaction, { type: 5 })).status).toBe(204);
    for (let i = 0; i < 5; i++)
      expect((await webhook(f, interaction.token, 'POST', '', { content: `n${i}` })).status).toBe(200);
    expect((await webhook(f, interaction.token, 'POST', '', { content: 'n5' })).body.code).toBe(40094);
  });

  it("enforces the command's contexts with the published error", async () => {
    const guildOnly = await createCommand(f, { name: 'guildonly', description: 'x', contexts: [0] });
    const notGroups = await createCommand(f, { name: 'notgroups', description: 'x', contexts: [0, 1] });
    const inBotDm = await trigger(f, {
      type: 2,
      user_id: f.memberId,
      application_id: f.appId,
      command_id: guildOnly,
      recipient_ids: [f.botUserId],
    });
    expect(inBotDm.status).toBe(400);
    expect(inBotDm.body.code).toBe(50035);
    expect(inBotDm.body.errors.recipient_ids._errors[0].code).toBe('INTERACTION_CONTEXT_NOT_ALLOWED');
    const inGroup = await trigger(f, {
      type: 2,
      user_id: f.memberId,
      application_id: f.appId,
      command_id: notGroups,
      recipient_ids: [f.ownerId, carolId],
    });
    expect(inGroup.body.errors.recipient_ids._errors[0].code).toBe('INTERACTION_CONTEXT_NOT_ALLOWED');
    expect(
      (
        await trigger(f, {
          type: 2,
          user_id: f.memberId,
          application_id: f.appId,
          command_id: notGroups,
          recipient_ids: [f.botUserId],
        })
      ).status,
    ).toBe(200);
    // The deprecated dm_permission: false keeps a command out of DMs.
    const noDm = await createCommand(f, { name: 'nodm', description: 'x', dm_permission: false });
    expect(
      (
        await trigger(f, {
          type: 2,
          user_id: f.memberId,
          application_id: f.appId,
          command_id: noDm,
          recipient_ids: [f.botUserId],
        })
      ).body.errors.recipient_ids._errors[0].code,
    ).toBe('INTERACTION_CONTEXT_NOT_ALLOWED');
    // A guild command is not usable outside its guild.
    const guildCommand = await fetchGuildCommand();
    expect(
      (
        await trigger(f, {
          type: 2,
          user_id: f.memberId,
          application_id: f.appId,
          command_id: guildCommand,
          recipient_ids: [f.botUserId],
        })
      ).body.errors.command_id._errors[0].code,
    ).toBe('UNKNOWN_COMMAND');
  });

  it('needs an installation that covers the place: no user install → 403 50001 in DMs with others; the guild install reaches only the bot DM', async () => {
    const guildInstalled = await createCommand(f, {
      name: 'guildapp',
      description: 'x',
      integration_types: [0],
      contexts: [0, 1, 2],
    });
    const others = await trigger(f, {
      type: 2,
      user_id: f.memberId,
      application_id: f.appId,
      command_id: guildInstalled,
      recipient_ids: [f.ownerId],
    });
    expect(others.status).toBe(403);
    expect(others.body.code).toBe(50001);
    const botDm = await trigger(f, {
      type: 2,
      user_id: f.memberId,
      application_id: f.appId,
      command_id: guildInstalled,
      recipient_ids: [f.botUserId],
    });
    expect(botDm.status, botDm.text).toBe(200);
    expect((await received(botDm.body.interaction_id)).authorizing_integration_owners).toEqual({ '0': '0' });
    // carol shares no guild with the bot and never authorised the app.
    const carol = await trigger(f, {
      type: 2,
      user_id: carolId,
      application_id: f.appId,
      command_id: commandId,
      recipient_ids: [f.botUserId],
    });
    expect(carol.status).toBe(403);
    expect(carol.body.code).toBe(50001);
  });

  it('refuses bad places: both or neither of channel_id and recipient_ids, oneself, unknown or repeated users, a bot in a group, more than 9, a channel the user is not in', async () => {
    const code = async (json: Record<string, unknown>) => {
      const response = await trigger(f, {
        type: 2,
        user_id: f.memberId,
        application_id: f.appId,
        command_id: commandId,
        ...json,
      });
      expect(response.status, response.text).toBeGreaterThanOrEqual(400);
      return response.body;
    };
    expect(
      (await code({ channel_id: f.generalId, recipient_ids: [f.ownerId] })).errors.channel_id._errors[0].code,
    ).toBe('INTERACTION_PLACE_INVALID');
    expect((await code({})).errors.channel_id._errors[0].code).toBe('INTERACTION_PLACE_INVALID');
    expect((await code({ recipient_ids: [] })).code).toBe(50035);
    expect((await code({ recipient_ids: [f.memberId] })).errors.recipient_ids['0']._errors[0].code).toBe(
      'RECIPIENT_IS_SELF',
    );
    expect((await code({ recipient_ids: ['123'] })).errors.recipient_ids['0']._errors[0].code).toBe('UNKNOWN_USER');
    expect((await code({ recipient_ids: [f.ownerId, f.ownerId] })).errors.recipient_ids['1']._errors[0].code).toBe(
      'RECIPIENT_DUPLICATE',
    );
    expect((await code({ recipient_ids: [f.ownerId, f.botUserId] })).errors.recipient_ids['1']._errors[0].code).toBe(
      'RECIPIENT_BOT_IN_GROUP',
    );
    expect((await code({ recipient_ids: Array.from({ length: 10 }, (_, i) => String(1000 + i)) })).code).toBe(50035);
    const daveId = (await createUser(f.platform, { username: 'dave' })).id;
    const theirs = await trigger(f, {
      type: 2,
      user_id: f.ownerId,
      application_id: f.appId,
      command_id: commandId,
      recipient_ids: [daveId, f.memberId],
    });
    expect(theirs.status, theirs.text).toBe(403); // alice never authorised the app
    // A refused trigger leaves nothing behind: the group of alice, bob and dave has no channel (a probe id is taken).
    const members = [f.ownerId, f.memberId, daveId].sort((a, b) => a.length - b.length || (a < b ? -1 : 1));
    expect(f.platform.store.interactions.ensurePrivateChannel({ id: '77', type: 3, memberIds: members }).id).toBe('77');
    const dm = (await invoke({ recipient_ids: [f.ownerId] })).body.channel_id as string;
    const outsider = await trigger(f, {
      type: 2,
      user_id: carolId,
      application_id: f.appId,
      command_id: commandId,
      channel_id: dm,
    });
    expect(outsider.status).toBe(403);
    expect(outsider.body.code).toBe(50001);
  });

  it('in the bot DM, a button on the response is clicked (UPDATE_MESSAGE edits it) and a modal is submitted, both with context 1', async () => {
    const triggered = await invoke({ recipient_ids: [f.botUserId] });
    const command = await received(triggered.body.interaction_id);
    const answered = await callback(
      f,
      command,
      {
        type: 4,
        data: {
          content: 'pick',
          components: [{ type: 1, components: [{ type: 2, style: 1, label: 'Go', custom_id: 'go' }] }],
        },
      },
      true,
    );
    const messageId = answered.body.resource.message.id as string;
    const clicked = await trigger(f, {
      type: 3,
      user_id: f.memberId,
      application_id: f.appId,
      channel_id: triggered.body.channel_id,
      message_id: messageId,
      custom_id: 'go',
    });
    expect(clicked.status, clicked.text).toBe(200);
    const click = await received(clicked.body.interaction_id);
    expect(click).toMatchObject({
      type: 3,
      context: 1,
      channel: { type: 1 },
      user: { id: f.memberId },
      message: { id: messageId },
    });
    expect(click).not.toHaveProperty('guild_id');
    const updated = await callback(f, click, { type: 7, data: { content: 'picked' } }, true);
    expect(updated.body.resource.message.content).toBe('picked');
    expect((await webhook(f, command.token, 'GET', '/messages/@original')).body.content).toBe('picked');
    // Another user cannot click in a DM they are not in.
    const outsider = await trigger(f, {
      type: 3,
      user_id: carolId,
      application_id: f.appId,
      channel_id: triggered.body.channel_id,
      message_id: messageId,
      custom_id: 'go',
    });
    expect(outsider.body.code).toBe(50001);

    const modal = {
      custom_id: 'm',
      title: 'M',
      components: [{ type: 18, label: 'Name', component: { type: 4, custom_id: 'name', style: 1 } }],
    };
    const second = await received((await invoke({ channel_id: triggered.body.channel_id })).body.interaction_id);
    expect((await callback(f, second, { type: 9, data: modal })).status).toBe(204);
    const submitted = await trigger(f, {
      type: 5,
      user_id: f.memberId,
      interaction_id: second.id,
      values: { name: 'Bob' },
    });
    expect(submitted.status, submitted.text).toBe(200);
    const submission = await received(submitted.body.interaction_id);
    expect(submission).toMatchObject({
      type: 5,
      context: 1,
      channel_id: triggered.body.channel_id,
      data: { custom_id: 'm' },
    });
    expect(submission).not.toHaveProperty('member');
  });

  it('ignores default_member_permissions outside guilds (it is a guild permission)', async () => {
    const adminOnly = await createCommand(f, { name: 'adminonly', description: 'x', default_member_permissions: '8' });
    expect(
      (
        await trigger(f, {
          type: 2,
          user_id: f.memberId,
          application_id: f.appId,
          command_id: adminOnly,
          channel_id: f.generalId,
        })
      ).body.code,
    ).toBe(50013);
    expect(
      (
        await trigger(f, {
          type: 2,
          user_id: f.memberId,
          application_id: f.appId,
          command_id: adminOnly,
          recipient_ids: [f.botUserId],
        })
      ).status,
    ).toBe(200);
  });
});

async function fetchGuildCommand(): Promise<string> {
  const response = await botCall(f, 'POST', `/applications/${f.appId}/guilds/${f.guildId}/commands`, {
    name: 'local',
    description: 'x',
  });
  expect([200, 201]).toContain(response.status);
  return response.body.id as string;
}
