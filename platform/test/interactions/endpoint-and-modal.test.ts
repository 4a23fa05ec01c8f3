/**
 * The HTTP interactions endpoint (signed, PING-checked), the modal flow with files, and responses forced ephemeral
 * for a user-installed app in a guild that does not allow external apps (PROTOCOL.md §17.2–16.4).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { botCall, botSession, INTENTS } from '../bot/helpers.js';
import { createApp } from '../support/platform.js';
import { request } from '../support/http.js';
import {
  callback,
  createCommand,
  dev,
  startInteractionEndpoint,
  startInteractionPlatform,
  submitWithFiles,
  trigger,
  webhook,
  type InteractionFixture,
} from './support.js';

let f: InteractionFixture;
beforeAll(async () => {
  f = await startInteractionPlatform();
});
afterAll(async () => {
  await f?.platform.close();
});

describe('HTTP interactions endpoint', () => {
  it('refuses a URL that fails the PING check, accepts a verifying one, then posts signed interactions whose answer is the response', async () => {
    const app = f.platform.store.applications.get(f.appId)!;
    const liar = await startInteractionEndpoint('00'.repeat(32), () => ({ type: 4 }));
    const endpoint = await startInteractionEndpoint(app.publicKeyHex, (interaction) => ({
      type: 4,
      data: { content: `hello ${interaction.member.user.id}` },
    }));
    try {
      const refused = await dev(f, 'PATCH', `/applications/${f.appId}/interactions`, {
        interactions_endpoint_url: liar.url,
      });
      expect(refused.status).toBe(400);
      expect(refused.body.errors.interactions_endpoint_url._errors[0].code).toBe(
        'APPLICATION_INTERACTIONS_ENDPOINT_URL_INVALID',
      );
      const saved = await dev(f, 'PATCH', `/applications/${f.appId}/interactions`, {
        interactions_endpoint_url: endpoint.url,
      });
      expect(saved.status, saved.text).toBe(200);
      expect(endpoint.received[0].type).toBe(1);
      expect((await botCall(f, 'GET', '/applications/@me')).body.interactions_endpoint_url).toBe(endpoint.url);

      const id = await createCommand(f, { name: 'hello', description: 'x' });
      const triggered = await trigger(f, {
        type: 2,
        user_id: f.memberId,
        application_id: f.appId,
        channel_id: f.generalId,
        command_id: id,
      });
      expect(triggered.body).toEqual({
        interaction_id: expect.any(String),
        channel_id: f.generalId,
        delivered: 'endpoint',
      });
      const interaction = endpoint.received.find((i) => i.type === 2);
      expect(interaction.entitlements).toEqual([]);
      const original = await webhook(f, interaction.token, 'GET', '/messages/@original');
      expect(original.body.content).toBe(`hello ${f.memberId}`);
    } finally {
      await dev(f, 'PATCH', `/applications/${f.appId}/interactions`, { interactions_endpoint_url: null });
      await liar.close();
      await endpoint.close();
    }
  });

  it('the bot sets its endpoint with PATCH /applications/@me after the same PING check; other fields are refused', async () => {
    const app = f.platform.store.applications.get(f.appId)!;
    const liar = await startInteractionEndpoint('00'.repeat(32), () => ({ type: 4 }));
    const endpoint = await startInteractionEndpoint(app.publicKeyHex, () => ({ type: 4, data: { content: 'x' } }));
    try {
      const refused = await botCall(f, 'PATCH', '/applications/@me', { interactions_endpoint_url: liar.url });
      expect(refused.body.errors.interactions_endpoint_url._errors[0].code).toBe(
        'APPLICATION_INTERACTIONS_ENDPOINT_URL_INVALID',
      );
      expect((await botCall(f, 'GET', '/applications/@me')).body.interactions_endpoint_url).toBe(null);
      const saved = await botCall(f, 'PATCH', '/applications/@me', { interactions_endpoint_url: endpoint.url });
      expect(saved.status, saved.text).toBe(200);
      expect(saved.body.interactions_endpoint_url).toBe(endpoint.url);
      const cleared = await botCall(f, 'PATCH', '/applications/@me', { interactions_endpoint_url: null });
      expect(cleared.body.interactions_endpoint_url).toBe(null);
      expect((await botCall(f, 'PATCH', '/applications/@me', { name: 'x' })).body.code).toBe(50035);
      expect((await request(`${f.platform.apiBase}/applications/@me`, { method: 'PATCH', json: {} })).status).toBe(401);
    } finally {
      await liar.close();
      await endpoint.close();
    }
  });

  it('an answer holding an unpaired surrogate is not taken as the response (endpoint_error names where)', async () => {
    const app = f.platform.store.applications.get(f.appId)!;
    const endpoint = await startInteractionEndpoint(app.publicKeyHex, () => ({
      type: 4,
      data: { content: 'ok', embeds: [{ title: 'a\ud800b' }] },
    }));
    try {
      expect(
        (await dev(f, 'PATCH', `/applications/${f.appId}/interactions`, { interactions_endpoint_url: endpoint.url }))
          .status,
      ).toBe(200);
      const id = await createCommand(f, { name: 'lone', description: 'x' });
      const triggered = await trigger(f, {
        type: 2,
        user_id: f.memberId,
        application_id: f.appId,
        channel_id: f.generalId,
        command_id: id,
      });
      expect(triggered.body).toMatchObject({
        delivered: 'endpoint',
        endpoint_error: 'The answer is not valid Unicode text (unpaired surrogate at data.embeds.0.title).',
      });
      const answered = await dev(f, 'GET', `/interactions/${triggered.body.interaction_id}`, undefined);
      expect(answered.body.response_type, answered.text).toBeNull();
    } finally {
      await dev(f, 'PATCH', `/applications/${f.appId}/interactions`, { interactions_endpoint_url: null });
      await endpoint.close();
    }
  });

  it('settings route: unknown application 10002, bad URL 50035', async () => {
    expect((await dev(f, 'PATCH', '/applications/1/interactions', {})).body.code).toBe(10002);
    expect(
      (await dev(f, 'PATCH', `/applications/${f.appId}/interactions`, { interactions_endpoint_url: 'ftp://x' })).body
        .code,
    ).toBe(50035);
  });
});

describe('modals', () => {
  it('the bot answers with a modal; the user submits values and a file; the bot gets MODAL_SUBMIT with the attachment', async () => {
    const session = await botSession(f, INTENTS.GUILDS);
    try {
      const id = await createCommand(f, { name: 'form', description: 'x' });
      await trigger(f, {
        type: 2,
        user_id: f.memberId,
        application_id: f.appId,
        channel_id: f.generalId,
        command_id: id,
      });
      const command = await session.next('INTERACTION_CREATE');
      const modal = {
        custom_id: 'profile',
        title: 'Profile',
        components: [
          { type: 18, label: 'Name', component: { type: 4, custom_id: 'name', style: 1 } },
          { type: 18, label: 'Picture', component: { type: 19, custom_id: 'picture', file_types: ['image'] } },
        ],
      };
      const shown = await callback(f, command, { type: 9, data: modal });
      expect(shown.status, shown.text).toBe(204);
      // A modal cannot answer a modal submission.
      const submitted = await submitWithFiles(
        f,
        { type: 5, user_id: f.memberId, interaction_id: command.id, values: { name: 'Bob' } },
        [{ customId: 'picture', filename: 'me.png', type: 'image/png', body: Buffer.from('not really a png') }],
      );
      expect(submitted.status, submitted.text).toBe(200);
      const submission = await session.next('INTERACTION_CREATE');
      expect(submission.type).toBe(5);
      expect(submission.data.custom_id).toBe('profile');
      expect(submission.data.components[0].component).toMatchObject({ custom_id: 'name', value: 'Bob' });
      const [attachmentId] = submission.data.components[1].component.values;
      const attachment = submission.data.resolved.attachments[attachmentId];
      expect(attachment).toMatchObject({ filename: 'me.png', size: 16, content_type: 'image/png' });
      expect((await request(attachment.url)).text).toBe('not really a png');
      const again = await callback(f, submission, { type: 9, data: modal });
      expect(again.body.errors.type._errors[0].code).toBe('INTERACTION_CALLBACK_TYPE_INVALID');
      // The modal was answered: a second submission is refused.
      const twice = await trigger(f, {
        type: 5,
        user_id: f.memberId,
        interaction_id: command.id,
        values: { name: 'Bob' },
      });
      expect(twice.body.code).toBe(10062);
    } finally {
      session.close();
    }
  });

  it('an invalid modal is refused with field errors and can be corrected within the window', async () => {
    const session = await botSession(f, INTENTS.GUILDS);
    try {
      const id = await createCommand(f, { name: 'badform', description: 'x' });
      await trigger(f, {
        type: 2,
        user_id: f.memberId,
        application_id: f.appId,
        channel_id: f.generalId,
        command_id: id,
      });
      const command = await session.next('INTERACTION_CREATE');
      const bad = await callback(f, command, {
        type: 9,
        data: {
          custom_id: 'm',
          title: 'T',
          components: [{ type: 18, label: 'L', component: { type: 4, custom_id: 'x', style: 1, label: 'own' } }],
        },
      });
      expect(bad.body.errors.data.components['0'].component.label._errors[0].code).toBe('TEXT_INPUT_LABEL_NOT_ALLOWED');
      const good = await callback(f, command, {
        type: 9,
        data: {
          custom_id: 'm',
          title: 'T',
          components: [{ type: 18, label: 'L', component: { type: 4, custom_id: 'x', style: 1 } }],
        },
      });
      expect(good.status).toBe(204);
      const missing = await trigger(f, { type: 5, user_id: f.memberId, interaction_id: command.id, values: {} });
      expect(missing.body.errors.values.x._errors[0].code).toBe('BASE_TYPE_REQUIRED');
      const otherUser = await trigger(f, {
        type: 5,
        user_id: f.ownerId,
        interaction_id: command.id,
        values: { x: 'hi' },
      });
      expect(otherUser.body.code).toBe(10062);
    } finally {
      session.close();
    }
  });
});

describe('external apps', () => {
  it('a user-installed app not in the guild answers ephemerally when USE_EXTERNAL_APPS is off for the user', async () => {
    const outsider = await createApp(f.platform, { name: 'Outsider App' });
    f.platform.store.grants.upsert({
      applicationId: outsider.id,
      userId: f.memberId,
      scopes: ['applications.commands'],
      createdAt: Date.now(),
    });
    const created = await request(`${f.platform.apiBase}/applications/${outsider.id}/commands`, {
      method: 'POST',
      headers: { authorization: `Bot ${outsider.bot_token}` },
      json: { name: 'ext', description: 'x', options: [{ type: 7, name: 'channel', description: 'c' }] },
    });
    expect(created.status, created.text).toBe(201);
    const outsiderBot = { ...f, appId: outsider.id, botToken: outsider.bot_token };
    const session = await botSession(outsiderBot, 0);
    try {
      const invoke = async () => {
        const options = [{ type: 7, name: 'channel', value: f.generalId }];
        const triggered = await trigger(f, {
          type: 2,
          user_id: f.memberId,
          application_id: outsider.id,
          channel_id: f.generalId,
          command_id: created.body.id,
          options,
        });
        expect(triggered.status, triggered.text).toBe(200);
        return session.next('INTERACTION_CREATE');
      };
      const allowed = await invoke();
      expect(allowed.authorizing_integration_owners).toEqual({ '1': f.memberId });
      // Not in the guild: @everyone's permissions in the channel, still always present.
      expect(allowed.app_permissions).toMatch(/^\d+$/);
      // …and a resolved channel has no app_permissions: the bot is not in the guild.
      expect(allowed.data.resolved.channels[f.generalId]).toEqual({ id: f.generalId, name: 'general', type: 0 });
      const visible = await callback(f, allowed, { type: 4, data: { content: 'public' } }, true);
      expect(visible.body.interaction.response_message_ephemeral).toBe(false);

      // @everyone loses USE_EXTERNAL_APPS (1 << 50).
      const everyone = (await botCall(f, 'GET', `/guilds/${f.guildId}/roles`)).body.find(
        (r: any) => r.id === f.guildId,
      );
      const without = (BigInt(everyone.permissions) & ~(1n << 50n)).toString();
      expect(
        (await botCall(f, 'PATCH', `/guilds/${f.guildId}/roles/${f.guildId}`, { permissions: without })).status,
      ).toBe(200);
      const forced = await invoke();
      const answered = await callback(f, forced, { type: 4, data: { content: 'only you' } }, true);
      expect(answered.body.interaction.response_message_ephemeral).toBe(true);
      expect(answered.body.resource.message.flags & 64).toBe(64);
      expect(
        (await botCall(f, 'GET', `/channels/${f.generalId}/messages/${answered.body.resource.message.id}`)).status,
      ).toBe(404);
      await botCall(f, 'PATCH', `/guilds/${f.guildId}/roles/${f.guildId}`, { permissions: everyone.permissions });
    } finally {
      session.close();
    }
  });
});
