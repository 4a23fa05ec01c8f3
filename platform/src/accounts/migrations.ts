import type { AccountMigration } from '../context.js';

export type { AccountMigration } from '../context.js';

/** What moves an account's data from one user to another on merge and unmerge, for the areas of the core. */
export const CORE_ACCOUNT_MOVERS: AccountMigration[] = [
  {
    name: 'guild memberships',
    merge: (ctx, from, to) => ctx.store.guilds.moveMemberships(from, to),
  },
  {
    name: 'connections',
    merge: (ctx, from, to) => ctx.store.connections.moveAll(from, to),
  },
];
