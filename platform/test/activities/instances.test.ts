/**
 * Activity instances (PROTOCOL.md §18.1) over real HTTP: launched by the LAUNCH_ACTIVITY callback, by an entry point
 * the platform answers, and by the development route acting as a user; users join and leave; the application's bot
 * reads them with Get Application Activity Instance, and nobody else does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, bot, request } from '../support/http.js';
import { accessTokenFor, createApp, createUser, devTokenHeaders } from '../support/platform.js';
import { botCall, botSession, INTENTS } from '../bot/helpers.js';
import {
  callback,
  createCommand,
  dev,
  startInteractionPlatform,
  trigger,
  type InteractionFixture,
} from '../interactions/support.js';

let f: InteractionFixture;
let session: Awaited<ReturnType<typeof botSession>>;

const USE_EMBEDDED_ACTIVITIES = 1n << 39n;
const instances = (appId = f.appId) => `/applications/${appId}/activity-instances`;
const launch = (json: Record<string, unknown>, appId = f.appId) => dev(f, 'POST', instances(appId), json);
/** Bodiless development requests carry the development token (the dev guard's rule for non-JSON writes). */
const asUser = (method: string, instanceId: string, userId: string) =>
  request(`${f.platform.apiBase}/dev${instances()}/${instanceId}/users/${userId}`, {
    method,
    headers: devTokenHeaders(f.platform),
  });
const join = (instanceId: string, userId: string) => asUser('PUT', instanceId, userId);
const leave = (instanceId: string, userId: string) => asUser('DELETE', instanceId, userId);
const read = (instanceId: string, headers: Record<string, string> = bot(f.botToken), appId = f.appId) =>
  request(`${f.platform.apiBase}/applications/${appId}/activity-instances/${encodeURIComponent(instanceId)}`, {
    headers,
  });

beforeAll(async () => {
  f = await startInteractionPlatform();
  session = await botSession(f, INTENTS.GUILDS);
  const enabled = await dev(f, 'PATCH', `/applications/${f.appId}/interactions`, { activities_enabled: true });
  expect(enabled.status, enabled.text).toBe(200);
});
afterAll(async () => {
  session?.close();
  await f?.platform.close();
});

describe('launching creates an instance with its published shape', () => {
  it('the development route launches in a guild channel; a second user there joins the same instance', async () => {
    const channel = await botCall(f, 'POST', `/guilds/${f.guildId}/channels`, { name: 'arcade', type: 0 });
    expect(channel.status, channel.text).toBe(201);
    const channelId = channel.body.id as string;
    const first = await launch({ user_id: f.ownerId, channel_id: channelId });
    expect(first.status, first.text).toBe(201);
    const launchId = first.body.launch_id as string;
    expect(launchId).toMatch(/^\d{1,20}$/);
    const location = { id: `gc-${f.guildId}-${channelId}`, kind: 'gc', channel_id: channelId, guild_id: f.guildId };
    expect(first.body).toEqual({
      application_id: f.appId,
      instance_id: `i-${launchId}-${location.id}`,
      launch_id: launchId,
      location,
      users: [f.ownerId],
    });

    const second = await launch({ user_id: f.memberId, channel_id: channelId });
    expect(second.status).toBe(200);
    expect(second.body).toEqual({ ...first.body, users: [f.ownerId, f.memberId] });

    const got = await read(first.body.instance_id);
    expect(got.status, got.text).toBe(200);
    expect(got.body).toEqual(second.body);
  });

  it('the LAUNCH_ACTIVITY callback launches in the interaction channel for the interaction user', async () => {
    const commandId = await createCommand(f, { name: 'play', description: 'Play the activity' });
    const triggered = await trigger(f, {
      type: 2,
      user_id: f.memberId,
      application_id: f.appId,
      channel_id: f.voiceId,
      command_id: commandId,
    });
    expect(triggered.status, triggered.text).toBe(200);
    let interaction: any;
    do interaction = await session.next('INTERACTION_CREATE');
    while (interaction.id !== triggered.body.interaction_id);
    const launched = await callback(f, interaction, { type: 12 }, true);
    expect(launched.status, launched.text).toBe(200);
    const instanceId = launched.body.interaction.activity_instance_id as string;
    expect(launched.body.resource.activity_instance).toEqual({ id: instanceId });
    const got = await read(instanceId);
    expect(got.status, got.text).toBe(200);
    expect(got.body).toMatchObject({
      application_id: f.appId,
      instance_id: instanceId,
      location: { kind: 'gc', channel_id: f.voiceId, guild_id: f.guildId },
      users: [f.memberId],
    });
    expect(instanceId).toBe(`i-${got.body.launch_id}-gc-${f.guildId}-${f.voiceId}`);
  });

  it('the default entry point (DISCORD_LAUNCH_ACTIVITY) launches through the platform', async () => {
    const entry = (await botCall(f, 'GET', `/applications/${f.appId}/commands`)).body.find(
      (command: any) => command.type === 4,
    );
    const triggered = await trigger(f, {
      type: 2,
      user_id: f.ownerId,
      application_id: f.appId,
      channel_id: f.generalId,
      command_id: entry.id,
    });
    expect(triggered.status, triggered.text).toBe(200);
    expect(triggered.body.delivered).toBe('platform');
    const got = await read(triggered.body.activity_instance_id);
    expect(got.status, got.text).toBe(200);
    expect(got.body).toMatchObject({
      instance_id: triggered.body.activity_instance_id,
      location: { id: `gc-${f.guildId}-${f.generalId}` },
    });
    expect(got.body.users).toContain(f.ownerId);
  });

  it('a launch in a DM is a private-channel instance (no guild_id) only its two participants can join', async () => {
    const carol = await createUser(f.platform, { username: `carol_${Date.now()}` });
    const dave = await createUser(f.platform, { username: `dave_${Date.now()}` });
    const eve = await createUser(f.platform, { username: `eve_${Date.now()}` });
    const launched = await launch({ user_id: carol.id, recipient_id: dave.id });
    expect(launched.status, launched.text).toBe(201);
    const channelId = launched.body.location.channel_id as string;
    expect(launched.body.location).toEqual({ id: `pc-${channelId}`, kind: 'pc', channel_id: channelId });
    expect(launched.body.instance_id).toBe(`i-${launched.body.launch_id}-pc-${channelId}`);
    const refused = await join(launched.body.instance_id, eve.id);
    expect(refused.status).toBe(400);
    expect(refused.body.errors.user_id._errors[0].code).toBe('ACTIVITY_USER_NOT_IN_CHANNEL');
    const joined = await join(launched.body.instance_id, dave.id);
    expect(joined.status, joined.text).toBe(200);
    expect(joined.body.users).toEqual([carol.id, dave.id]);
    expect((await read(launched.body.instance_id)).body).toEqual(joined.body);
    // The same pair's DM is the same place: launching again joins.
    expect((await launch({ user_id: dave.id, recipient_id: carol.id })).body.instance_id).toBe(
      launched.body.instance_id,
    );
  });
});

describe('joining and leaving', () => {
  it('join is idempotent; leave removes the user; the last one leaving ends the instance (then 404)', async () => {
    const channel = await botCall(f, 'POST', `/guilds/${f.guildId}/channels`, { name: 'lobby-room', type: 0 });
    const launched = await launch({ user_id: f.ownerId, channel_id: channel.body.id });
    const id = launched.body.instance_id as string;
    expect((await join(id, f.memberId)).body.users).toEqual([f.ownerId, f.memberId]);
    expect((await join(id, f.memberId)).body.users).toEqual([f.ownerId, f.memberId]);
    const afterLeave = await leave(id, f.ownerId);
    expect(afterLeave.status).toBe(200);
    expect(afterLeave.body.users).toEqual([f.memberId]);
    const notIn = await leave(id, f.ownerId);
    expect(notIn.status).toBe(400);
    expect(notIn.body.errors.user_id._errors[0].code).toBe('ACTIVITY_USER_NOT_IN_INSTANCE');
    const ended = await leave(id, f.memberId);
    expect(ended.status).toBe(204);
    const gone = await read(id);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ code: 0, message: '404: Not Found' });
    // A new launch in the same place is a new instance with a new launch id.
    const again = await launch({ user_id: f.ownerId, channel_id: channel.body.id });
    expect(again.status).toBe(201);
    expect(again.body.launch_id).not.toBe(launched.body.launch_id);
  });

  it('a user without USE_EMBEDDED_ACTIVITIES in the channel can neither launch nor join there', async () => {
    const channel = await botCall(f, 'POST', `/guilds/${f.guildId}/channels`, { name: 'no-activities', type: 0 });
    const denied = await botCall(f, 'PUT', `/channels/${channel.body.id}/permissions/${f.memberId}`, {
      type: 1,
      allow: '0',
      deny: String(USE_EMBEDDED_ACTIVITIES),
    });
    expect(denied.status, denied.text).toBe(204);
    const refused = await launch({ user_id: f.memberId, channel_id: channel.body.id });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ code: 50013, message: 'Missing Permissions' });
    const launched = await launch({ user_id: f.ownerId, channel_id: channel.body.id });
    const joinRefused = await join(launched.body.instance_id, f.memberId);
    expect(joinRefused.status).toBe(403);
    expect((await read(launched.body.instance_id)).body.users).toEqual([f.ownerId]);
  });
});

describe('Get Application Activity Instance: authorization and errors', () => {
  let instanceId: string;
  beforeAll(async () => {
    const channel = await botCall(f, 'POST', `/guilds/${f.guildId}/channels`, { name: 'guarded', type: 0 });
    instanceId = (await launch({ user_id: f.ownerId, channel_id: channel.body.id })).body.instance_id;
  });

  it('no token is 401; a user token is 403 (bots only)', async () => {
    const none = await read(instanceId, {});
    expect(none.status).toBe(401);
    expect(none.body.code).toBe(0);
    const token = (
      await accessTokenFor(f.platform, { clientId: f.platform.devApp.id, scope: 'identify', user: 'alice' })
    ).access_token;
    const user = await read(instanceId, bearer(token));
    expect(user.status).toBe(403);
    expect(user.body.code).toBe(20002);
  });

  it("another application's bot is refused (403 Missing Access) and cannot see the instance through its own id either", async () => {
    const other = await createApp(f.platform, {
      name: 'Other Activity App',
      bot_token: 'other-activity-bot-token-0123456789',
    });
    const viaOurs = await read(instanceId, bot('other-activity-bot-token-0123456789'));
    expect(viaOurs.status).toBe(403);
    expect(viaOurs.body).toEqual({ code: 50001, message: 'Missing Access' });
    const viaTheirs = await read(instanceId, bot('other-activity-bot-token-0123456789'), other.id);
    expect(viaTheirs.status).toBe(404);
    expect(viaTheirs.body).toEqual({ code: 0, message: '404: Not Found' });
  });

  it('an unknown or malformed instance id is 404', async () => {
    for (const id of ['i-1-gc-1-1', 'nope', `${instanceId}x`]) {
      const response = await read(id);
      expect(response.status, id).toBe(404);
      expect(response.body).toEqual({ code: 0, message: '404: Not Found' });
    }
  });
});

describe('development routes: bad input changes nothing', () => {
  it('refuses bad launch bodies with field errors', async () => {
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{}, 'user_id', 'BASE_TYPE_REQUIRED'],
      [{ user_id: f.ownerId }, 'channel_id', 'BASE_TYPE_REQUIRED'],
      [{ user_id: 'x', channel_id: f.generalId }, 'user_id', 'NUMBER_TYPE_COERCE'],
      [{ user_id: f.ownerId, channel_id: 12 }, 'channel_id', 'STRING_TYPE_CONVERT'],
      [
        { user_id: f.ownerId, channel_id: f.generalId, recipient_id: f.memberId },
        'recipient_id',
        'ACTIVITY_PLACE_AMBIGUOUS',
      ],
    ];
    const before = f.platform.store.activities.findInstanceAt(f.appId, `gc-${f.guildId}-${f.generalId}`);
    for (const [json, field, code] of cases) {
      const response = await launch(json);
      expect(response.status, JSON.stringify(json)).toBe(400);
      expect(response.body.code).toBe(50035);
      expect(response.body.errors[field]?._errors[0].code, `${JSON.stringify(json)} → ${response.text}`).toBe(code);
    }
    expect(f.platform.store.activities.findInstanceAt(f.appId, `gc-${f.guildId}-${f.generalId}`)).toEqual(before);
  });

  it('unknown application, user, channel, recipient, non-member and disabled activities are refused', async () => {
    const stranger = await createUser(f.platform, { username: `stranger_${Date.now()}` });
    const plain = await createApp(f.platform, { name: 'No Activities App' });
    const cases: Array<[Record<string, unknown>, string, number, number]> = [
      [{ user_id: f.ownerId, channel_id: f.generalId }, '99999', 404, 10002],
      [{ user_id: '99999', channel_id: f.generalId }, f.appId, 404, 10013],
      [{ user_id: f.ownerId, channel_id: '99999' }, f.appId, 404, 10003],
      [{ user_id: f.ownerId, recipient_id: '99999' }, f.appId, 404, 10013],
      [{ user_id: f.ownerId, recipient_id: f.ownerId }, f.appId, 404, 10013],
      [{ user_id: stranger.id, channel_id: f.generalId }, f.appId, 403, 50001],
      [{ user_id: f.ownerId, channel_id: f.generalId }, plain.id, 400, 50035],
    ];
    for (const [json, appId, status, code] of cases) {
      const response = await launch(json, appId);
      expect(response.status, `${appId} ${JSON.stringify(json)}`).toBe(status);
      expect(response.body.code).toBe(code);
    }
    const disabled = await launch({ user_id: f.ownerId, channel_id: f.generalId }, plain.id);
    expect(disabled.body.errors.application_id._errors[0].code).toBe('APPLICATION_ACTIVITIES_DISABLED');
  });

  it('join and leave of an unknown instance or user are 404', async () => {
    expect((await join('i-1-gc-1-1', f.ownerId)).status).toBe(404);
    expect((await leave('i-1-gc-1-1', f.ownerId)).status).toBe(404);
    const channel = await botCall(f, 'POST', `/guilds/${f.guildId}/channels`, { name: 'unknowns', type: 0 });
    const launched = await launch({ user_id: f.ownerId, channel_id: channel.body.id });
    const unknownUser = await join(launched.body.instance_id, '99999');
    expect(unknownUser.status).toBe(404);
    expect(unknownUser.body.code).toBe(10013);
    expect((await read(launched.body.instance_id)).body.users).toEqual([f.ownerId]);
  });
});
