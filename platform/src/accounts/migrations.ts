import type { AccountMover, PlatformArea } from '../areas/area.js';

/** What moves an account's data from one user to another on merge and unmerge, for the areas of the core. */
export const CORE_ACCOUNT_MOVERS: readonly AccountMover[] = [
  {
    name: 'guild memberships',
    merge: (store, from, to) => store.guilds.moveMemberships(from, to),
  },
  {
    name: 'connections',
    merge: (store, from, to) => store.connections.moveAll(from, to),
  },
];

/**
 * The accounts area: the core's account movers, and no routes of its own (merge and unmerge are OAuth2 and
 * partner-SDK operations).
 */
export function accountsArea(): PlatformArea {
  return { name: 'accounts', accountMovers: CORE_ACCOUNT_MOVERS };
}
