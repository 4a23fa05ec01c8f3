/**
 * Events from the desktop user to games (PROTOCOL.md §12.5): delivered to every connection of the application that
 * subscribed. ACTIVITY_JOIN / ACTIVITY_SPECTATE for a game that is not connected (or not subscribed yet) are kept —
 * one per application and event, the latest wins — and the game is started with its launch command; it receives the
 * secret as soon as it subscribes. Live-only events (ACTIVITY_JOIN_REQUEST) are dropped when nobody listens.
 */
import type { RpcConnection } from './connection.js';
import type { LaunchRegistry } from './launch-registry.js';

/** `delivered` to a running game, `launched` (the game was started and will get it), `queued` (no launch command). */
export type Delivery = 'delivered' | 'launched' | 'queued';

export class GameEvents {
  private readonly waiting = new Map<string, unknown>();

  constructor(
    private readonly launches: LaunchRegistry,
    private readonly connectionsOf: (applicationId: string) => Iterable<RpcConnection>,
  ) {}

  /** For events a game must get even if it has to be started for it. */
  deliverOrLaunch(applicationId: string, evt: string, data: unknown): Delivery {
    if (this.deliver(applicationId, evt, data) > 0) return 'delivered';
    this.waiting.set(`${applicationId}:${evt}`, data);
    return this.launches.launch(applicationId) ? 'launched' : 'queued';
  }

  /** Sends to the subscribed connections of the application; returns how many got it. */
  deliver(applicationId: string, evt: string, data: unknown): number {
    let count = 0;
    for (const connection of this.connectionsOf(applicationId)) {
      if (!connection.subscriptions.has(evt)) continue;
      connection.dispatch(evt, data);
      count++;
    }
    return count;
  }

  /** Forgets what was kept (a restart of the local client). */
  clear(): void {
    this.waiting.clear();
  }

  /** A game subscribed: what was kept for it goes out now. */
  subscribed(connection: RpcConnection, evt: string): void {
    const key = `${connection.app?.id}:${evt}`;
    if (!this.waiting.has(key)) return;
    const data = this.waiting.get(key);
    this.waiting.delete(key);
    connection.dispatch(evt, data);
  }
}
