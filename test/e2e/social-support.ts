/** Helpers of the social-layer end-to-end suites: signed-in, connected clients and event recorders. */
import { expect } from 'vitest';
import type { Client, ClientEvents } from '../../lib/index.js';
import type { BACKENDS } from '../backends.js';
import { createFullUser, provisionalToken, type E2EPlatform } from './harness.js';
import { e2eClient, signIn, until } from './support.js';

export interface Player {
  client: Client;
  id: bigint;
  username: string;
  /** Every event of the social layer this client received, in order. */
  events: Array<{ name: keyof ClientEvents; args: unknown[] }>;
}

const RECORDED = [
  'relationshipCreated',
  'relationshipDeleted',
  'relationshipGroupsUpdated',
  'activityInviteCreated',
  'activityInviteUpdated',
  'userUpdated',
  'lobbyCreated',
  'lobbyMemberAdded',
  'lobbyMemberUpdated',
  'messageCreated',
  'messageUpdated',
  'messageDeleted',
] as const;

function record(client: Client, id: bigint, username: string): Player {
  const player: Player = { client, id, username, events: [] };
  for (const name of RECORDED) {
    client.on(name, (...args: unknown[]) => player.events.push({ name, args }));
  }
  return player;
}

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
  return record(client, me.id, username);
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
  return record(client, me.id, me.username);
}

/** Waits for an event of `name` whose arguments satisfy `match`; returns its arguments. */
export async function waitForEvent(
  player: Player,
  name: keyof ClientEvents,
  match: (args: unknown[]) => boolean = () => true,
): Promise<unknown[]> {
  let found: unknown[] | undefined;
  await until(
    () => (found = player.events.find((e) => e.name === name && match(e.args))?.args) !== undefined,
    `${player.username}: ${name}`,
  );
  return found!;
}

/** Forgets the recorded events (before the next step of a test). */
export function clearEvents(...players: Player[]): void {
  for (const p of players) p.events.length = 0;
}

export async function closeAll(...players: Array<Player | undefined>): Promise<void> {
  await Promise.all(players.map((p) => p?.client.close()));
}
