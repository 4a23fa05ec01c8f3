import type { PlatformKernel } from '../../kernel.js';
import { RelationshipType, type RelationshipRecord } from '../../store/social-types.js';
import type { ApplicationRecord } from '../../store/types.js';
import { userJson } from '../../users/serialize.js';

/**
 * The relationship objects of `userId` as seen from `app` (PROTOCOL.md §10.1): one per other user, both axes —
 * `type` is the platform axis, `game_type` the application's game axis.
 */
export function relationshipsJson(
  ctx: PlatformKernel,
  userId: string,
  app: ApplicationRecord,
): Record<string, unknown>[] {
  const byOther = new Map<string, { platform?: RelationshipRecord; game?: RelationshipRecord }>();
  for (const row of ctx.store.relationships.listForUser(userId, app.id)) {
    const entry = byOther.get(row.otherId) ?? {};
    entry[row.axis] = row;
    byOther.set(row.otherId, entry);
  }
  const out: Record<string, unknown>[] = [];
  for (const [otherId, { platform, game }] of byOther) {
    const other = ctx.store.users.get(otherId);
    if (!other) continue;
    const spam = [platform, game].some((r) => r?.type === RelationshipType.PendingIncoming && r.isSpamRequest);
    out.push({
      id: otherId,
      type: platform?.type ?? RelationshipType.None,
      game_type: game?.type ?? RelationshipType.None,
      is_spam_request: spam,
      since: new Date((platform ?? game)!.since).toISOString(),
      user: userJson(ctx, other, { app }),
    });
  }
  return out;
}
