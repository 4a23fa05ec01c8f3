import type { AccountMigration } from '../context.js';

export type { AccountMigration } from '../context.js';

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
