/** The one Player of the end-to-end suites: a connected client that records the social layer's events. */
import { randomUUID } from 'node:crypto';
import { afterEach } from 'vitest';
import type { Client, ClientEvents } from '../../lib/index.js';
import { until } from './support.js';

/** The events a player records: the social layer's (relationships, invites, users, lobbies, messages). */
const RECORDED = [
  'relationshipCreated',
  'relationshipDeleted',
  'relationshipGroupsUpdated',
  'activityInviteCreated',
  'activityInviteUpdated',
  'userUpdated',
  'lobbyCreated',
  'lobbyDeleted',
  'lobbyUpdated',
  'lobbyMemberAdded',
  'lobbyMemberRemoved',
  'lobbyMemberUpdated',
  'messageCreated',
  'messageUpdated',
  'messageDeleted',
] as const satisfies ReadonlyArray<keyof ClientEvents>;

export type RecordedEvent = (typeof RECORDED)[number];

export interface Player {
  client: Client;
  id: bigint;
  username: string;
  /** Every recorded event this client received, in order. */
  events: Array<{ name: RecordedEvent; args: unknown[] }>;
  /** The recorded events of one name, arguments only. */
  of(name: RecordedEvent): unknown[][];
}

/** Starts recording the client's social events (before it connects, so that none is missed). */
export function record(client: Client): Omit<Player, 'id' | 'username'> {
  const events: Player['events'] = [];
  for (const name of RECORDED) client.on(name, (...args: unknown[]) => events.push({ name, args }));
  return { client, events, of: (name) => events.filter((e) => e.name === name).map((e) => e.args) };
}

/** Waits for an event of `name` whose arguments satisfy `match`; returns its arguments. */
export async function waitForEvent(
  player: Player,
  name: RecordedEvent,
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

/**
 * For a describe block whose tests each open players of their own: returns `own`, which registers a player to be
 * closed after the test that opened it (and returns it). Call it in the describe body.
 */
export function closedAfterEachTest(): <P extends Player>(player: P) => P {
  const opened: Player[] = [];
  afterEach(async () => {
    await closeAll(...opened.splice(0));
  });
  return (player) => {
    opened.push(player);
    return player;
  };
}

/** A short random tag that makes one test's names (usernames, lobby secrets) its own on a shared platform. */
export const testTag = (): string => randomUUID().slice(0, 8);
