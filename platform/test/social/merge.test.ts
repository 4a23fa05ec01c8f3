import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningPlatform } from '../../src/index.js';
import { createUser, login, startTestPlatform } from '../support/platform.js';
import { api, fullUser, provisionalUser, type SocialUser } from '../support/social.js';

describe('account merge carries the social graph (PROTOCOL.md §5, §10)', () => {
  let platform: RunningPlatform;
  const put = (from: SocialUser, to: { id: string }, body: unknown) =>
    api(platform, from.token, 'PUT', `/users/@me/relationships/${to.id}`, body);

  beforeAll(async () => {
    platform = await startTestPlatform();
  });
  afterAll(() => platform.close());

  it("moves game friendships, blocks and DMs; the destination's own relationship wins; DMs between the two go", async () => {
    const [p, friend, blocked, clash] = [
      await provisionalUser(platform),
      await fullUser(platform),
      await fullUser(platform),
      await fullUser(platform),
    ];
    const username = `merge_dest_${process.pid}`;
    const dest = await createUser(platform, { username });
    for (const other of [friend, clash]) {
      await put(p, other, { type: 1, game: true });
      await put(other, p, { type: 1, game: true });
    }
    await put(p, blocked, { type: 2 });
    const dm = (await api(platform, p.token, 'POST', `/users/${friend.id}/messages`, { content: 'before merge' })).body;
    // The destination already has a pending game request to `clash`: it wins over the provisional friendship.
    const destToken = (
      await login(platform, { clientId: platform.devApp.id, scope: 'sdk.social_layer', user: username })
    ).body.access_token;
    const destUser = { id: dest.id, username, token: destToken };
    await put(destUser, clash, { type: 1, game: true });
    expect((await api(platform, p.token, 'POST', `/users/${dest.id}/messages`, { content: 'to myself' })).status).toBe(
      201,
    );

    const merged = await login(platform, {
      clientId: platform.devApp.id,
      scope: 'sdk.social_layer',
      user: username,
      extraForm: { external_auth_type: 'DISCORD_BOT_ISSUED_ACCESS_TOKEN', external_auth_token: p.token },
    });
    expect(merged.status, merged.text).toBe(200);
    const after = { ...destUser, token: merged.body.access_token };
    const rels = Object.fromEntries(
      (
        (await api(platform, after.token, 'GET', '/users/@me/relationships')).body as {
          id: string;
          type: number;
          game_type: number;
        }[]
      ).map((r) => [r.id, [r.type, r.game_type]]),
    );
    expect(rels).toEqual({ [friend.id]: [0, 1], [blocked.id]: [2, 0], [clash.id]: [0, 4] });
    const clashView = (
      (await api(platform, clash.token, 'GET', '/users/@me/relationships')).body as { id: string; game_type: number }[]
    ).map((r) => [r.id, r.game_type]);
    expect(clashView).toEqual([[dest.id, 3]]);
    const history = (await api(platform, after.token, 'GET', `/users/@me/dms/${friend.id}/messages`)).body;
    expect(history).toEqual([
      expect.objectContaining({ id: dm.id, author: expect.objectContaining({ id: dest.id }), recipient_id: friend.id }),
    ]);
    expect((await api(platform, after.token, 'GET', '/users/@me/dms')).body).toEqual([
      { user_id: friend.id, last_message_id: dm.id },
    ]);
  });
});
