/** Lobby messages: send, history window and limits, deletion, moderation metadata, dispatches and webhooks. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signatureIsValid, startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { createApp, testClock } from '../support/platform.js';
import { bot } from '../support/http.js';
import { startLobbyHarness, type LobbyHarness } from './harness.js';

let h: LobbyHarness;
let receiver: WebhookReceiver;
let override: WebhookReceiver;
const clock = testClock();
beforeAll(async () => {
  [receiver, override] = [await startWebhookReceiver(), await startWebhookReceiver()];
  h = await startLobbyHarness({ now: clock.now, devAppWebhookUrl: receiver.url });
});
afterAll(async () => {
  await h.close();
  await Promise.all([receiver.close(), override.close()]);
});

describe('lobby messages', () => {
  it('members send; every member session gets LOBBY_MESSAGE_CREATE and the app webhook a signed event', async () => {
    const [alice, bob, carol] = [await h.user('alice'), await h.user('bob'), await h.user('carol')];
    const lobby = (await h.call('POST', '/lobbies', h.bot, { members: [{ id: alice.id }, { id: bob.id }] })).body
      .id as string;
    await h.call('PUT', `/lobbies/${lobby}/members/${alice.id}`, h.bot, { additional_name: 'Ace' });
    const [a, b, c] = [(await h.connect(alice)).client, (await h.connect(bob)).client, (await h.connect(carol)).client];
    await h.drain(a, b, c); // bob's `connected` update to alice

    const sent = await h.call('POST', `/lobbies/${lobby}/messages`, alice.auth, {
      content: 'gg',
      metadata: { kind: 'chat' },
    });
    expect(sent.status).toBe(201);
    expect(sent.body).toEqual({
      id: expect.any(String),
      type: 0,
      content: 'gg',
      lobby_id: lobby,
      channel_id: lobby,
      author: expect.objectContaining({ id: alice.id }),
      lobby_member: { additional_name: 'Ace' },
      metadata: { kind: 'chat' },
      moderation_metadata: {},
      timestamp: new Date(clock.now()).toISOString(),
      flags: 0,
      application_id: h.platform.devApp.id,
    });
    const [fa, fb, fc] = await h.drain(a, b, c);
    expect(fa!.map((f) => [f.t, f.d])).toEqual([['LOBBY_MESSAGE_CREATE', sent.body]]);
    expect(fb!.map((f) => [f.t, f.d])).toEqual([['LOBBY_MESSAGE_CREATE', sent.body]]);
    expect(fc).toEqual([]);

    const webhook = await receiver.waitForEvent('LOBBY_MESSAGE_CREATE', (e) => e.body.event.data.id === sent.body.id);
    expect(webhook.body).toMatchObject({
      version: 1,
      application_id: h.platform.devApp.id,
      type: 1,
      event: { data: sent.body },
    });
    expect(signatureIsValid(h.platform.devApp.publicKey, webhook)).toBe(true);

    const outsider = await h.call('POST', `/lobbies/${lobby}/messages`, carol.auth, { content: 'hi' });
    expect([outsider.status, outsider.body.code]).toEqual([403, 50001]);
    expect((await h.call('GET', `/lobbies/${lobby}/messages`, carol.auth)).body.code).toBe(50001);
  });

  it('validates content (1–2,000) and leaves history untouched', async () => {
    const alice = await h.user('alice');
    const lobby = (await h.call('POST', '/lobbies', h.bot, { members: [{ id: alice.id }] })).body.id as string;
    const empty = await h.call('POST', `/lobbies/${lobby}/messages`, alice.auth, { content: '' });
    expect(empty.body).toEqual({
      code: 50035,
      message: 'Invalid Form Body',
      errors: { content: { _errors: [{ code: 'BASE_TYPE_MIN_LENGTH', message: 'Must be 1 or more in length.' }] } },
    });
    const long = await h.call('POST', `/lobbies/${lobby}/messages`, alice.auth, { content: 'x'.repeat(2001) });
    expect(long.body.errors.content._errors[0].code).toBe('BASE_TYPE_MAX_LENGTH');
    expect((await h.call('GET', `/lobbies/${lobby}/messages`, h.bot)).body).toEqual([]);
  });

  it('history: newest first, default 50, limit 1–200, only the last 72 h', async () => {
    const alice = await h.user('alice');
    // Nobody is connected: with the default 300 s idle timeout the sweeper would delete the lobby as soon as the
    // clock jumps 72 h, before the history is read. The longest timeout (7 days) keeps it.
    const lobby = (
      await h.call('POST', '/lobbies', h.bot, { members: [{ id: alice.id }], idle_timeout_seconds: 604_800 })
    ).body.id as string;
    await h.call('POST', `/lobbies/${lobby}/messages`, alice.auth, { content: 'old' });
    clock.advance(72 * 3_600_000 - 1_000);
    for (let i = 0; i < 51; i++) await h.call('POST', `/lobbies/${lobby}/messages`, h.bot, { content: `m${i}` });
    const page = await h.call('GET', `/lobbies/${lobby}/messages`, alice.auth);
    expect(page.body).toHaveLength(50);
    expect(page.body[0]).toMatchObject({ content: 'm50', author: expect.objectContaining({ bot: true }) });
    expect(
      (await h.call('GET', `/lobbies/${lobby}/messages?limit=200`, alice.auth)).body
        .map((m: { content: string }) => m.content)
        .at(-1),
    ).toBe('old');
    clock.advance(2_000);
    expect((await h.call('GET', `/lobbies/${lobby}/messages?limit=200`, alice.auth)).body).toHaveLength(51);
    const over = await h.call('GET', `/lobbies/${lobby}/messages?limit=201`, alice.auth);
    expect([over.status, over.body.errors]).toEqual([
      400,
      { limit: { _errors: [{ code: 'NUMBER_TYPE_MAX', message: 'int value should be less than or equal to 200.' }] } },
    ]);
    expect(
      (await h.call('GET', `/lobbies/${lobby}/messages?limit=0`, alice.auth)).body.errors.limit._errors[0].code,
    ).toBe('NUMBER_TYPE_MIN');
  });

  it('history after an id (OURS): the messages that follow it, newest first, paged forward; a bad id is a field error', async () => {
    const alice = await h.user('alice');
    const lobby = (await h.call('POST', '/lobbies', h.bot, { members: [{ id: alice.id }] })).body.id as string;
    const ids: string[] = [];
    for (let i = 0; i < 7; i++)
      ids.push((await h.call('POST', `/lobbies/${lobby}/messages`, h.bot, { content: `m${i}` })).body.id);
    const contents = (page: { body: { content: string }[] }) => page.body.map((m) => m.content);
    // The 3 messages right after m1, newest first; then the next page from the newest id of that one.
    const first = await h.call('GET', `/lobbies/${lobby}/messages?after=${ids[1]}&limit=3`, alice.auth);
    expect(contents(first)).toEqual(['m4', 'm3', 'm2']);
    expect(
      contents(await h.call('GET', `/lobbies/${lobby}/messages?after=${first.body[0].id}&limit=3`, alice.auth)),
    ).toEqual(['m6', 'm5']);
    expect((await h.call('GET', `/lobbies/${lobby}/messages?after=${ids[6]}`, alice.auth)).body).toEqual([]);
    const bad = await h.call('GET', `/lobbies/${lobby}/messages?after=abc`, alice.auth);
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors)).toEqual(['after']);
  });

  it('moderation metadata (bot): LOBBY_MESSAGE_UPDATE to members, no webhook; limits checked', async () => {
    const alice = await h.user('alice');
    const lobby = (await h.call('POST', '/lobbies', h.bot, { members: [{ id: alice.id }] })).body.id as string;
    const message = (await h.call('POST', `/lobbies/${lobby}/messages`, alice.auth, { content: 'spam?' })).body;
    const { client } = await h.connect(alice);
    const path = `/lobbies/${lobby}/messages/${message.id}/moderation-metadata`;
    expect((await h.call('PUT', path, h.bot, { verdict: 'ok' })).status).toBe(204);
    const [frames] = await h.drain(client);
    expect(frames!.map((f) => [f.t, f.d.moderation_metadata])).toEqual([['LOBBY_MESSAGE_UPDATE', { verdict: 'ok' }]]);
    expect((await h.call('GET', `/lobbies/${lobby}/messages`, h.bot)).body[0].moderation_metadata).toEqual({
      verdict: 'ok',
    });

    const six = Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`k${i}`, 'v']));
    expect((await h.call('PUT', path, h.bot, six)).body.errors._errors[0].code).toBe('DICT_TYPE_MAX_KEYS');
    expect((await h.call('PUT', path, h.bot, { k: 'v'.repeat(2001) })).body.errors.k._errors[0].code).toBe(
      'BASE_TYPE_MAX_LENGTH',
    );
    expect((await h.call('PUT', path, alice.auth, { k: 'v' })).body.code).toBe(20002);
    expect((await h.call('PUT', `/lobbies/${lobby}/messages/123/moderation-metadata`, h.bot, {})).body).toEqual({
      code: 10008,
      message: 'Unknown Message',
    });
    expect((await h.call('GET', `/lobbies/${lobby}/messages`, h.bot)).body[0].moderation_metadata).toEqual({
      verdict: 'ok',
    });
    await receiver.waitForEvent('LOBBY_MESSAGE_CREATE', (e) => e.body.event.data.id === message.id);
    expect(receiver.received.filter((e) => e.body.event.type === 'LOBBY_MESSAGE_UPDATE')).toEqual([]);
  });

  it("deletion by the author or the bot: LOBBY_MESSAGE_DELETE dispatch and webhook (to the lobby's override URL)", async () => {
    const [alice, bob] = [await h.user('alice'), await h.user('bob')];
    const lobby = (
      await h.call('POST', '/lobbies', h.bot, {
        members: [{ id: alice.id }, { id: bob.id }],
        override_event_webhooks_url: override.url,
      })
    ).body.id as string;
    const message = (await h.call('POST', `/lobbies/${lobby}/messages`, alice.auth, { content: 'oops' })).body;
    await override.waitForEvent('LOBBY_MESSAGE_CREATE');
    const notAuthor = await h.call('DELETE', `/lobbies/${lobby}/messages/${message.id}`, bob.auth);
    expect([notAuthor.status, notAuthor.body.code]).toEqual([403, 50005]);
    const { client } = await h.connect(bob);
    expect((await h.call('DELETE', `/lobbies/${lobby}/messages/${message.id}`, alice.auth)).status).toBe(204);
    const [frames] = await h.drain(client);
    expect(frames!.map((f) => [f.t, f.d])).toEqual([['LOBBY_MESSAGE_DELETE', { id: message.id, lobby_id: lobby }]]);
    const deleted = await override.waitForEvent('LOBBY_MESSAGE_DELETE');
    expect(deleted.body.event.data).toEqual({ id: message.id, lobby_id: lobby });
    expect(receiver.received.some((e) => e.body.event.data?.id === message.id)).toBe(false);
    expect((await h.call('DELETE', `/lobbies/${lobby}/messages/${message.id}`, h.bot)).body.code).toBe(10008);
  });

  it('the lobby message bucket is per application', async () => {
    const other = await createApp(h.platform, { name: 'Chatty Game' });
    const lobby = (await h.call('POST', '/lobbies', bot(other.bot_token), {})).body.id as string;
    const sent = await h.call('POST', `/lobbies/${lobby}/messages`, bot(other.bot_token), {
      content: 'from the server',
    });
    expect(sent.status).toBe(201);
    expect(sent.headers['x-ratelimit-limit']).toBeDefined();
    expect((await h.call('POST', `/lobbies/${lobby}/messages`, h.bot, { content: 'x' })).body.code).toBe(10031);
  });
});
