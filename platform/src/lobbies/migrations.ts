import type { AccountMover } from '../areas/area.js';
import type { Lobbies } from './service.js';

/**
 * Lobby data on merge and unmerge (runs inside their transaction). No dispatches: the accounts involved lose their
 * sessions, and other members see the change in their next READY or lobby fetch.
 *
 * - merge: the provisional account's memberships move to the full account (where both were members, the full
 *   account's membership stays), and its messages are re-attributed. The per-user lobby limit is not applied.
 * - unmerge: the full account's memberships in the application's lobbies, and its messages there, move to the new
 *   provisional account — lobbies are game data and follow the game identity.
 */
export function lobbyMover(lobbies: Lobbies): AccountMover {
  const store = lobbies.ctx.store.lobbies;
  const move = (fromUserId: string, toUserId: string, applicationId?: string): string[] => {
    const moved: string[] = [];
    for (const member of store.membershipsOf(fromUserId)) {
      const lobby = store.get(member.lobbyId);
      if (!lobby || (applicationId !== undefined && lobby.applicationId !== applicationId)) continue;
      store.deleteMember(lobby.id, fromUserId);
      if (!store.member(lobby.id, toUserId)) store.upsertMember({ ...member, userId: toUserId });
      lobbies.refreshIdle(lobby);
      moved.push(lobby.id);
    }
    return moved;
  };
  return {
    name: 'lobby memberships',
    merge: (_store, fromUserId, toUserId) => {
      move(fromUserId, toUserId);
      store.moveMessageAuthor(fromUserId, toUserId);
    },
    unmerge: (_store, { fullUserId, provisionalUserId, applicationId }) => {
      const lobbyIds = move(fullUserId, provisionalUserId, applicationId);
      store.moveMessageAuthor(fullUserId, provisionalUserId, lobbyIds);
    },
  };
}
