import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningPlatform } from '../../src/index.js';
import { createApp, eventually, startTestPlatform, type AppCredentials } from '../support/platform.js';
import {
  api,
  connect,
  drain,
  fieldCodes,
  fullUser,
  received,
  tokenFor,
  type Session,
  type SocialUser,
} from '../support/social.js';

const JOINABLE = { type: 0, party: { id: 'party-7', size: [1, 4] }, secrets: { join: 'join-secret' } };

describe('game invites (PROTOCOL.md §10.3)', () => {
  let platform: RunningPlatform;
  let game: AppCredentials;
  let child: AppCredentials;
  let unrelated: AppCredentials;
  const activity = (user: SocialUser, value: unknown, token = user.token) =>
    api(platform, token, 'POST', '/users/@me/presence', { activity: value });
  const invite = (from: SocialUser, to: { id: string }, body: unknown) =>
    api(platform, from.token, 'POST', `/users/${to.id}/activity-invites`, body);
  const accept = (user: SocialUser, id: string, token = user.token) =>
    api(platform, token, 'POST', `/users/@me/activity-invites/${id}/accept`);
  const gameUser = () => fullUser(platform, { clientId: game.id });

  beforeAll(async () => {
    platform = await startTestPlatform();
    game = await createApp(platform, { name: 'Invite Game', public_client: true, cover_image: 'app-cover' });
    child = await createApp(platform, { name: 'Invite Game Child', public_client: true, parent: game.id });
    unrelated = await createApp(platform, { name: 'Invite Unrelated', public_client: true });
  });
  afterAll(() => platform.close());

  /**
   * The sender with a joinable activity and the recipient with sessions in the game, its child and an unrelated app.
   */
  async function setup(): Promise<{
    a: SocialUser;
    b: SocialUser;
    bGame: Session;
    bChild: Session;
    bUnrelated: Session;
    aSession: Session;
  }> {
    const [a, b] = [await gameUser(), await gameUser()];
    const aSession = await connect(platform, a);
    expect((await activity(a, JOINABLE)).status).toBe(204);
    const bGame = await connect(platform, b);
    const bChild = await connect(platform, b, await tokenFor(platform, b, child.id));
    const bUnrelated = await connect(platform, b, await tokenFor(platform, b, unrelated.id));
    for (const s of [bGame, bChild, bUnrelated]) await drain(platform, s);
    return { a, b, aSession, bGame, bChild, bUnrelated };
  }

  async function closeAll(...sessions: Session[]): Promise<void> {
    for (const s of sessions) await s.client.close();
  }

  it('a join invite: created for the recipient in the application family, accepted for the join secret', async () => {
    const { a, b, aSession, bGame, bChild, bUnrelated } = await setup();
    const response = await invite(a, b, { type: 1, content: 'join us' });
    expect(response.status, response.text).toBe(201);
    expect(response.body).toEqual({
      message_id: expect.stringMatching(/^\d+$/),
      channel_id: a.id,
      sender_id: a.id,
      recipient_id: b.id,
      type: 1,
      application_id: game.id,
      parent_application_id: null,
      party_id: 'party-7',
      session_id: null,
      content: 'join us',
      cover_image: 'app-cover',
      created_at: expect.stringMatching(/Z$/),
      is_valid: true,
    });
    expect(await received(platform, bGame, 'ACTIVITY_INVITE_CREATE')).toEqual([response.body]);
    expect(await received(platform, bChild, 'ACTIVITY_INVITE_CREATE')).toEqual([response.body]);
    expect(await received(platform, bUnrelated, 'ACTIVITY_INVITE_CREATE')).toEqual([]);
    expect(await received(platform, bGame, 'MESSAGE_CREATE')).toEqual([]);
    const accepted = await accept(b, response.body.message_id);
    expect(accepted.status).toBe(200);
    expect(accepted.body).toEqual({ secret: 'join-secret' });
    expect((await accept(b, response.body.message_id, await tokenFor(platform, b, child.id))).body).toEqual({
      secret: 'join-secret',
    });
    expect((await accept(b, response.body.message_id, await tokenFor(platform, b, unrelated.id))).body.code).toBe(
      10008,
    );
    expect((await accept(a, response.body.message_id)).body.code).toBe(10008);
    expect((await api(platform, b.token, 'GET', `/users/@me/dms/${a.id}/messages`)).body).toEqual([]);
    await closeAll(aSession, bGame, bChild, bUnrelated);
  });

  it('the activity cover image wins over the application one', async () => {
    const { a, b, aSession, bGame, bChild, bUnrelated } = await setup();
    await activity(a, { ...JOINABLE, assets: { invite_cover_image: 'party-cover' } });
    expect((await invite(a, b, { type: 1 })).body).toMatchObject({ cover_image: 'party-cover', content: '' });
    await closeAll(aSession, bGame, bChild, bUnrelated);
  });

  it('a party change invalidates: ACTIVITY_INVITE_UPDATE {is_valid: false}, accept → 80021', async () => {
    const { a, b, aSession, bGame, bChild, bUnrelated } = await setup();
    const created = (await invite(a, b, { type: 1 })).body;
    await drain(platform, bGame);
    await activity(a, { ...JOINABLE, party: { id: 'party-8', size: [1, 4] } });
    expect(await received(platform, bGame, 'ACTIVITY_INVITE_UPDATE')).toEqual([{ ...created, is_valid: false }]);
    const refused = await accept(b, created.message_id);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ code: 80021, message: 'The invite is no longer valid' });
    await closeAll(aSession, bGame, bChild, bUnrelated);
  });

  it("clearing the sender's activity (last session of the application gone) invalidates", async () => {
    const { a, b, aSession, bGame, bChild, bUnrelated } = await setup();
    const created = (await invite(a, b, { type: 1 })).body;
    await drain(platform, bGame);
    await aSession.client.close(1000);
    await expect
      .poll(async () => received(platform, bGame, 'ACTIVITY_INVITE_UPDATE'))
      .toEqual([{ ...created, is_valid: false }]);
    expect((await accept(b, created.message_id)).body.code).toBe(80021);
    await closeAll(bGame, bChild, bUnrelated);
  });

  it('expires after the configured validity with ACTIVITY_INVITE_UPDATE', async () => {
    const short = await startTestPlatform({ socialLimits: { inviteValiditySeconds: 1 } });
    try {
      const [a, b] = [await fullUser(short), await fullUser(short)];
      const aSession = await connect(short, a);
      expect((await api(short, a.token, 'POST', '/users/@me/presence', { activity: JOINABLE })).status).toBe(204);
      const bSession = await connect(short, b);
      const created = (await api(short, a.token, 'POST', `/users/${b.id}/activity-invites`, { type: 1 })).body;
      expect(created.is_valid).toBe(true);
      const update = await eventually(async () => (await received(short, bSession, 'ACTIVITY_INVITE_UPDATE'))[0], 50);
      expect(update).toEqual({ ...created, is_valid: false });
      const refused = await api(short, b.token, 'POST', `/users/@me/activity-invites/${created.message_id}/accept`);
      expect(refused.body.code).toBe(80021);
      await closeAll(aSession, bSession);
    } finally {
      await short.close();
    }
  });

  it('not joinable → 80020 (no party, full party, no secret, no activity); nothing created', async () => {
    const { a, b, aSession, bGame, bChild, bUnrelated } = await setup();
    for (const value of [
      { type: 0 },
      { ...JOINABLE, party: { id: 'party-7', size: [4, 4] } },
      { ...JOINABLE, secrets: {} },
      null,
    ]) {
      await activity(a, value);
      const response = await invite(a, b, { type: 1 });
      expect(response.status, JSON.stringify(value)).toBe(400);
      expect(response.body).toEqual({ code: 80020, message: 'The activity cannot be joined' });
    }
    expect(await received(platform, bGame, 'ACTIVITY_INVITE_CREATE')).toEqual([]);
    await closeAll(aSession, bGame, bChild, bUnrelated);
  });

  it("a join request needs the recipient's joinable activity and cannot be accepted", async () => {
    const { a, b, aSession, bGame, bChild, bUnrelated } = await setup();
    const refused = await invite(b, a, { type: 5 });
    expect(refused.status).toBe(201);
    expect(refused.body).toMatchObject({ type: 5, sender_id: b.id, recipient_id: a.id, party_id: 'party-7' });
    expect((await accept(a, refused.body.message_id)).body.code).toBe(80021);
    expect((await invite(a, b, { type: 5 })).body.code).toBe(80020);
    await closeAll(aSession, bGame, bChild, bUnrelated);
  });

  it('validation, blocked, unknown user and unknown invite', async () => {
    const { a, b, aSession, bGame, bChild, bUnrelated } = await setup();
    expect(fieldCodes((await invite(a, b, { type: 2 })).body, 'type')).toEqual(['BASE_TYPE_CHOICES']);
    expect(fieldCodes((await invite(a, b, {})).body, 'type')).toEqual(['BASE_TYPE_REQUIRED']);
    expect(fieldCodes((await invite(a, b, { type: 1, content: 'x'.repeat(1025) })).body, 'content')).toEqual([
      'BASE_TYPE_MAX_LENGTH',
    ]);
    expect((await invite(a, { id: '5' }, { type: 1 })).body.code).toBe(10013);
    expect((await accept(b, '5')).body.code).toBe(10008);
    await api(platform, b.token, 'PUT', `/users/@me/relationships/${a.id}`, { type: 2 });
    const blocked = await invite(a, b, { type: 1 });
    expect(blocked.status).toBe(403);
    expect(blocked.body.code).toBe(50007);
    expect(await received(platform, bGame, 'ACTIVITY_INVITE_CREATE')).toEqual([]);
    await closeAll(aSession, bGame, bChild, bUnrelated);
  });
});
