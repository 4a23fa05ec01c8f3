/**
 * The shape of a platform area (fastify-plugin's `name`/`dependencies` model): each area builds its services from
 * narrow arguments and returns one of these; startPlatform assembles them in one loop (assemble.ts). An area
 * declares what it adds and never reaches into another area's lists.
 */
import type { FastifyInstance } from 'fastify';
import type { GatewayDeps } from '../gateway/types.js';
import type { Store } from '../store/types.js';

/**
 * What an area adds to the gateway, without the gateway knowing the area. The gateway fans each call out to every
 * area's handler in the areas' order: READY extras merge in that order; the first presence or command handler that
 * returns true (or 'invalid') owns the update; every session handler sees every change.
 */
export type GatewayHandlers = Pick<
  GatewayDeps,
  'readyExtras' | 'userPresence' | 'sessionsChanged' | 'sessionsObserved' | 'identified' | 'command'
>;

/**
 * Data that follows an account through merge and unmerge (guild memberships, friends, lobby memberships, DMs…).
 * Runs inside the merge/unmerge transaction.
 */
export interface AccountMover {
  name: string;
  /** Provisional `fromUserId` is being merged into full account `toUserId` (then deleted). */
  merge?(store: Store, fromUserId: string, toUserId: string): void;
  /** Full account `fullUserId` unlinks from `applicationId`; `provisionalUserId` is the new stand-in account. */
  unmerge?(store: Store, change: { fullUserId: string; provisionalUserId: string; applicationId: string }): void;
}

/** Every account mover of the assembled areas, in the areas' order; complete once startPlatform assembled them. */
export type AccountMovers = () => readonly AccountMover[];

export interface PlatformArea {
  /** Unique among the areas; what other areas name in `dependencies`. */
  name: string;
  /** Areas assembled before this one (their routes and hooks come first); a missing one fails the start. */
  dependencies?: readonly string[];
  /** Registers the area's routes and request hooks (in the areas' order: fastify hooks apply in that order). */
  routes?(app: FastifyInstance): void;
  gateway?: GatewayHandlers;
  accountMovers?: readonly AccountMover[];
  /**
   * Stops the area's timers and listeners when the server closes (a fastify onClose hook: they run in the reverse
   * of the areas' order, so an area closes before the areas it depends on).
   */
  close?(): Promise<void> | void;
}
