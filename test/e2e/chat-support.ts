/** Helpers for the lobby and message end-to-end suites: connected players (player.ts records their events). */
import type { Client } from '../../lib/index.js';
import type { BACKENDS } from '../backends.js';
import { provisionalToken, type E2EPlatform } from './harness.js';
import { record, type Player } from './player.js';
import { e2eClient } from './support.js';

/** A provisional player of the dev application, connected (Ready), recording every social event. */
export async function connectProvisionalPlayer(
  e2e: E2EPlatform,
  backend: (typeof BACKENDS)[number],
  name: string,
): Promise<Player> {
  const client = e2eClient(e2e, backend);
  return connectPlayer(client, await provisionalToken(e2e, `${name}-${backend}`, name));
}

/** Connects a client with a token, recording its social events from before the connection. */
export async function connectPlayer(client: Client, token: string): Promise<Player> {
  const recorded = record(client);
  await client.updateToken(token);
  await client.connect();
  const me = client.currentUser!;
  return { ...recorded, id: me.id, username: me.username };
}
