/**
 * Relationship transitions (PROTOCOL.md §10.1). Every operation checks all of its rules before it changes
 * anything, runs in one transaction, and publishes RELATIONSHIP_ADD / RELATIONSHIP_REMOVE (one axis per event)
 * after the commit: platform-axis events reach every session of the user, game-axis events only the sessions of
 * that application.
 */
import type { PlatformKernel } from '../../kernel.js';
import type { SocialLimits } from '../limits.js';
import { RelationshipType, type RelationshipAxis, type RelationshipRecord } from '../../store/social-types.js';
import type { ApplicationRecord, UserRecord } from '../../store/types.js';
import { userJson } from '../../users/serialize.js';
import { SocialErrors } from '../errors.js';
import { transact, type PendingEvents } from '../events.js';

export type RemoveAction = 'reject' | 'cancel' | 'remove' | 'unblock';

/**
 * Told when two users become friends on an axis (presence then introduces them to each other). `since` is the
 * friendship's own `since`: with the pair and the application it names this friendship, not an earlier one.
 */
export type FriendshipListener = (
  a: string,
  b: string,
  axis: RelationshipAxis,
  applicationId: string,
  since: number,
) => void;

interface Pair {
  app: ApplicationRecord;
  actor: UserRecord;
  target: UserRecord;
  axis: RelationshipAxis;
}

const { None, Friend, Blocked, PendingIncoming, PendingOutgoing } = RelationshipType;

export class RelationshipService {
  private readonly friendshipListeners: FriendshipListener[] = [];

  constructor(
    private readonly ctx: PlatformKernel,
    private readonly limits: SocialLimits,
  ) {}

  onFriendship(listener: FriendshipListener): void {
    this.friendshipListeners.push(listener);
  }

  /** The user's side of each of their friendships, both axes (one query). */
  friendships(userId: string): RelationshipRecord[] {
    return this.ctx.store.relationships.listOfType(userId, Friend);
  }

  /** Platform friends, or game friends in the application. */
  areFriends(a: string, b: string, applicationId: string): boolean {
    const rels = this.ctx.store.relationships;
    return rels.get(a, b, 'platform', '')?.type === Friend || rels.get(a, b, 'game', applicationId)?.type === Friend;
  }

  /** Either user blocks the other. */
  blockedEitherWay(a: string, b: string): boolean {
    const rels = this.ctx.store.relationships;
    return rels.get(a, b, 'platform', '')?.type === Blocked || rels.get(b, a, 'platform', '')?.type === Blocked;
  }

  /** Friend request, or acceptance of a pending incoming one (PUT type 1, POST by username). */
  request(pair: Pair): void {
    this.checkPair(pair);
    const { actor, target, axis } = pair;
    if (this.blockedEitherWay(actor.id, target.id)) throw SocialErrors.requestBlocked();
    const appKey = axis === 'game' ? pair.app.id : '';
    const rels = this.ctx.store.relationships;
    const mine = rels.get(actor.id, target.id, axis, appKey)?.type ?? None;
    if (mine === Friend) throw SocialErrors.alreadyFriends();
    if (mine === PendingOutgoing) return; // Sending the same request again changes nothing.
    const limits = this.limits;
    const now = this.ctx.now();
    if (mine === PendingIncoming) {
      if (axis === 'platform') {
        for (const user of [actor, target]) {
          if (rels.countPlatformFriends(user.id) >= limits.platformFriends)
            throw SocialErrors.tooManyFriends(limits.platformFriends);
        }
      }
      transact(this.ctx, (events) => {
        this.set(events, pair.app, {
          userId: actor.id,
          otherId: target.id,
          axis,
          applicationId: appKey,
          type: Friend,
          isSpamRequest: false,
          since: now,
        });
        this.set(events, pair.app, {
          userId: target.id,
          otherId: actor.id,
          axis,
          applicationId: appKey,
          type: Friend,
          isSpamRequest: false,
          since: now,
        });
      });
      for (const listener of this.friendshipListeners) listener(actor.id, target.id, axis, appKey, now);
      return;
    }
    if (axis === 'platform' && rels.countPlatformFriends(actor.id) >= limits.platformFriends) {
      throw SocialErrors.tooManyFriends(limits.platformFriends);
    }
    const windowStart = now - limits.spamWindowSeconds * 1000;
    const spam =
      rels.isSpammer(actor.id) || rels.countRequestsSince(actor.id, windowStart) >= limits.spamRequestThreshold;
    transact(this.ctx, (events) => {
      rels.logRequest(actor.id, now, windowStart);
      this.set(events, pair.app, {
        userId: actor.id,
        otherId: target.id,
        axis,
        applicationId: appKey,
        type: PendingOutgoing,
        isSpamRequest: false,
        since: now,
      });
      this.set(events, pair.app, {
        userId: target.id,
        otherId: actor.id,
        axis,
        applicationId: appKey,
        type: PendingIncoming,
        isSpamRequest: spam,
        since: now,
      });
    });
  }

  /** PUT type 2: the blocker keeps one platform row (blocked); everything else between the two goes, both ways. */
  block(app: ApplicationRecord, actor: UserRecord, target: UserRecord): void {
    if (actor.id === target.id) throw SocialErrors.cannotFriendSelf();
    const rels = this.ctx.store.relationships;
    if (rels.get(actor.id, target.id, 'platform', '')?.type === Blocked) return;
    transact(this.ctx, (events) => {
      for (const row of rels.between(actor.id, target.id)) this.drop(events, app, row);
      // The blocked user's side disappears, except their own block of the actor.
      for (const row of rels.between(target.id, actor.id)) if (row.type !== Blocked) this.drop(events, app, row);
      this.set(events, app, {
        userId: actor.id,
        otherId: target.id,
        axis: 'platform',
        applicationId: '',
        type: Blocked,
        isSpamRequest: false,
        since: this.ctx.now(),
      });
    });
  }

  /** DELETE with an action: each action needs its own state on the actor's side of the axis. */
  remove(pair: Pair, action: RemoveAction): void {
    const { actor, target, axis, app } = pair;
    if (actor.id === target.id) throw SocialErrors.cannotFriendSelf();
    if (action === 'unblock') {
      if (axis === 'game') throw SocialErrors.invalidTransition();
    } else if (axis === 'platform' && (actor.isProvisional || target.isProvisional)) {
      throw SocialErrors.provisionalNoPlatformAxis();
    }
    const appKey = axis === 'game' ? app.id : '';
    const rels = this.ctx.store.relationships;
    const mine = rels.get(actor.id, target.id, axis, appKey);
    const needed = { reject: PendingIncoming, cancel: PendingOutgoing, remove: Friend, unblock: Blocked }[action];
    if (mine?.type !== needed) throw SocialErrors.invalidTransition();
    transact(this.ctx, (events) => {
      this.drop(events, app, mine);
      if (action === 'unblock') return;
      const theirs = rels.get(target.id, actor.id, axis, appKey);
      if (theirs) this.drop(events, app, theirs);
      // Ending a platform friendship ends the game friendships (and pending game requests) of the pair too.
      if (action === 'remove' && axis === 'platform') {
        for (const row of [...rels.between(actor.id, target.id), ...rels.between(target.id, actor.id)]) {
          if (row.axis === 'game') this.drop(events, app, row);
        }
      }
    });
  }

  private checkPair({ actor, target, axis }: Pair): void {
    if (actor.id === target.id) throw SocialErrors.cannotFriendSelf();
    if (axis === 'platform' && (actor.isProvisional || target.isProvisional))
      throw SocialErrors.provisionalNoPlatformAxis();
  }

  private set(events: PendingEvents, app: ApplicationRecord, record: RelationshipRecord): void {
    this.ctx.store.relationships.put(record);
    events.add(this.event('RELATIONSHIP_ADD', app, record, record.type));
  }

  private drop(events: PendingEvents, app: ApplicationRecord, record: RelationshipRecord): void {
    this.ctx.store.relationships.delete(record.userId, record.otherId, record.axis, record.applicationId);
    events.add(this.event('RELATIONSHIP_REMOVE', app, record, None));
  }

  private event(t: string, app: ApplicationRecord, record: RelationshipRecord, type: number) {
    const other = this.ctx.store.users.get(record.otherId);
    return {
      t,
      d: {
        id: record.otherId,
        axis: record.axis,
        ...(record.axis === 'game' && { application_id: record.applicationId }),
        type,
        is_spam_request: type === PendingIncoming && record.isSpamRequest,
        user: other ? userJson(this.ctx, other, { app }) : { id: record.otherId },
      },
      to:
        record.axis === 'platform'
          ? { userIds: [record.userId] }
          : { userIds: [record.userId], applicationId: record.applicationId },
    };
  }
}
