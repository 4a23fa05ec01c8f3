import type { PlatformContext } from '../context.js';

/**
 * Data that follows an account through merge and unmerge. Each feature area that stores per-user data adds one
 * (friends, lobby memberships, DMs… arrive with later features). Runs inside the merge/unmerge transaction.
 */
export interface AccountMigration {
  name: string;
  /** Provisional `fromUserId` is being merged into full account `toUserId` (then deleted). */
  merge?(ctx: PlatformContext, fromUserId: string, toUserId: string): void;
  /** Full account `fullUserId` unlinks from `applicationId`; `provisionalUserId` is the new stand-in account. */
  unmerge?(ctx: PlatformContext, change: { fullUserId: string; provisionalUserId: string; applicationId: string }): void;
}

export const CORE_MIGRATIONS: AccountMigration[] = [
  {
    name: 'guild memberships',
    merge: (ctx, from, to) => ctx.store.guilds.moveMemberships(from, to),
  },
  {
    name: 'connections',
    merge: (ctx, from, to) => ctx.store.connections.moveAll(from, to),
  },
];
