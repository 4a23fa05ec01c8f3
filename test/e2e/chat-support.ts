/** Helpers for the lobby and message end-to-end suites: connected players that record the chat and lobby events. */
import type { Client, ClientEvents } from '../../lib/index.js';
import type { BACKENDS } from '../backends.js';
import { provisionalToken, type E2EPlatform } from './harness.js';
import { e2eClient } from './support.js';

/** Every event a player's client emitted, in order, as [name, ...args]. */
export type Recorded = Array<[keyof ClientEvents, ...unknown[]]>;

const SOCIAL_EVENTS = [
  'messageCreated',
  'messageUpdated',
  'messageDeleted',
  'lobbyCreated',
  'lobbyDeleted',
  'lobbyUpdated',
  'lobbyMemberAdded',
  'lobbyMemberRemoved',
  'lobbyMemberUpdated',
] as const satisfies ReadonlyArray<keyof ClientEvents>;

export interface Player {
  client: Client;
  id: bigint;
  events: Recorded;
  /** The recorded events of one name, arguments only. */
  of(name: (typeof SOCIAL_EVENTS)[number]): unknown[][];
}

/** A provisional player of the dev application, connected (Ready), recording every social event. */
export async function connectProvisionalPlayer(
  e2e: E2EPlatform,
  backend: (typeof BACKENDS)[number],
  name: string,
): Promise<Player> {
  const client = e2eClient(e2e, backend);
  return connectPlayer(client, await provisionalToken(e2e, `${name}-${backend}`, name));
}

/** Connects a client with a token and records its social events. */
export async function connectPlayer(client: Client, token: string): Promise<Player> {
  const events: Recorded = [];
  for (const name of SOCIAL_EVENTS) client.on(name, (...args: unknown[]) => events.push([name, ...args]));
  await client.updateToken(token);
  await client.connect();
  const id = client.currentUser!.id;
  return { client, id, events, of: (name) => events.filter(([n]) => n === name).map(([, ...args]) => args) };
}
