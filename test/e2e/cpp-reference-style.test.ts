/**
 * The reference-style C++ sample (native/tests/examples/reference_style_friends.cpp: the reference SDK's sample
 * style and names, only the namespace and header renamed) against the real platform over TLS: two provisional
 * players from OIDC id tokens become game friends, and the reference names (DiscordRelationshipType,
 * SendDiscordFriendRequestById, RemoveDiscordAndGameFriend) reach svcpp's platform-axis calls.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeIssuer, type FakeIssuer } from '../../platform/test/support/fake-issuer.js';
import { createPublicClientApp, startE2EPlatform, type AppCredentials, type E2EPlatform } from './harness.js';

const run = promisify(execFile);
const sample = join(import.meta.dirname, '../../build/Release/svcpp_example_reference_style_friends');
const OIDC_AUDIENCE = 'svcpp-reference-style-game';

describe('C++ sample in the reference SDK style, through the deprecated aliases', () => {
  let e2e: E2EPlatform;
  let issuer: FakeIssuer;
  let game: AppCredentials;
  beforeAll(async () => {
    issuer = await startFakeIssuer(OIDC_AUDIENCE);
    e2e = await startE2EPlatform({ allowLocalhostIssuers: true, outboundCaPems: [issuer.caPem] });
    game = await createPublicClientApp(e2e, {
      identity_providers: [{ type: 'OIDC', issuer: issuer.issuer, client_id: OIDC_AUDIENCE }],
    });
  });
  afterAll(async () => {
    await e2e.close();
    await issuer.close();
  });

  it('signs two provisional players in, makes them game friends and ends it through the reference names', async () => {
    const hostToken = await issuer.sign({ sub: 'reference-style-host' });
    const guestToken = await issuer.sign({ sub: 'reference-style-guest' });
    const { stdout, stderr } = await run(
      sample,
      [e2e.apiBase, e2e.webBase, e2e.caFile, game.id, hostToken, guestToken],
      { timeout: 45_000 },
    );
    const [ready, ...steps] = stdout.trimEnd().split('\n');
    expect(ready).toMatch(/^ready host \d+ guest \d+$/);
    // Every step happened once: the request and its acceptance, the host's view of the friendship (the platform
    // axis read through DiscordRelationshipType), SendDiscordFriendRequestById refused locally as
    // SendPlatformFriendRequestById is to a provisional account, and RemoveDiscordAndGameFriend ending the game
    // friendship, on the host's side and in the guest's event.
    const viewed = 'relationship guest discord=None game=Friend';
    const refused = 'discord friend request: ValidationError: provisional accounts have no platform relationships';
    const removed = 'removed: ok';
    const ended = 'guest: relationship with host ended, game axis';
    expect([...steps].sort()).toEqual(
      ['game friend request sent: ok', 'guest accepted: ok', viewed, refused, removed, ended].sort(),
    );
    // Callbacks of different clients may interleave; these follow from one another.
    expect(steps.indexOf(viewed)).toBeLessThan(steps.indexOf(refused));
    expect(steps.indexOf(refused)).toBeLessThan(steps.indexOf(removed));
    expect(steps.indexOf(viewed)).toBeLessThan(steps.indexOf(ended));
    expect(stderr).toMatch(/\[host\] Status changed: Ready/);
    expect(stderr).toMatch(/\[guest\] Status changed: Ready/);
    expect(stderr).not.toContain(hostToken);
  });
});
