/** Helpers of the social-layer end-to-end suites: signed-in, connected players (player.ts records their events). */
import { expect } from 'vitest';
import type { BACKENDS } from '../backends.js';
import { createFullUser, provisionalToken, type E2EPlatform } from './harness.js';
import { closedAfterEachTest, record, testTag, type Player } from './player.js';
import { e2eClient, signIn } from './support.js';

/** A full account signed in with OAuth2 (communication scopes) and connected to Ready. */
export async function fullPlayer(
  e2e: E2EPlatform,
  backend: (typeof BACKENDS)[number],
  username: string,
): Promise<Player> {
  await createFullUser(e2e, { username });
  const client = e2eClient(e2e, backend);
  const { tokens } = await signIn(e2e, client, username);
  await client.updateToken(tokens.accessToken);
  await client.connect();
  const me = client.currentUser!;
  expect(me.username).toBe(username);
  return { ...record(client), id: me.id, username };
}

/** A provisional account of the dev application, connected to Ready. */
export async function provisionalPlayer(
  e2e: E2EPlatform,
  backend: (typeof BACKENDS)[number],
  externalId: string,
): Promise<Player> {
  const client = e2eClient(e2e, backend);
  await client.updateToken(await provisionalToken(e2e, externalId, externalId.slice(0, 32)));
  await client.connect();
  const me = client.currentUser!;
  expect(me.isProvisional).toBe(true);
  return { ...record(client), id: me.id, username: me.username };
}

/**
 * For a describe block whose tests each sign in full players of their own (so that no test sees another's
 * relationships or presence): returns `players('a', 'b')`, which makes one full player per role, named
 * `<prefix>_<role>_<backend>_<tag>` with a tag of the test's own, closed after the test. Call it in the describe body;
 * `e2e` is read when a test calls it (the platform starts in beforeAll).
 */
export function fullPlayersPerTest(
  e2e: () => E2EPlatform,
  backend: (typeof BACKENDS)[number],
  prefix: string,
): <R extends string>(...roles: R[]) => Promise<Record<R, Player>> {
  const own = closedAfterEachTest();
  return async (...roles) => {
    const tag = testTag();
    const made: Partial<Record<(typeof roles)[number], Player>> = {};
    for (const role of roles) made[role] = own(await fullPlayer(e2e(), backend, `${prefix}_${role}_${backend}_${tag}`));
    return made as Record<(typeof roles)[number], Player>;
  };
}
