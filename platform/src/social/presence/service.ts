/**
 * In-memory presence (PROTOCOL.md §10.2): per user a status and one activity per application, plus which
 * applications the user has gateway sessions for. A user without sessions is offline with no activities, and
 * `invisible` is shown to everyone else as offline. Changes go out as PRESENCE_UPDATE to the user's own sessions,
 * their platform friends' sessions (every application) and their game friends' sessions of that friendship's
 * application.
 *
 * Every change — and every new friendship, whose introduction depends on the state — travels on the replicated
 * log's `presence` channel (PROTOCOL.md "Several nodes"): each node applies it to its copy of the state, in the one
 * order, and delivers the resulting PRESENCE_UPDATEs to its own sessions at that entry's place in the order; only
 * the node where the change was made tells the activity listeners. So with several nodes every node knows every
 * user's presence (READY `presences`, invites), an introduction sees every change that came before it, and a
 * friend's updates arrive in the order they were made, whichever nodes made them. On one node a change is applied
 * and delivered before the call returns.
 */
import type { PlatformKernel } from '../../kernel.js';
import type { EventAudience } from '../../events/bus.js';
import type { RelationshipRecord } from '../../store/social-types.js';
import type { RelationshipService } from '../relationships/service.js';
import { publicActivity, type Activity } from './activity.js';

export type Status = 'online' | 'idle' | 'dnd' | 'invisible';

interface UserPresence {
  status: Status;
  activities: Map<string, Activity>;
  /**
   * Per application, how many session sources report the user present: the gateway (its first/last session of
   * the pair) and the local client (its first/last game connection of the application). Each source counts once.
   */
  sessionApps: Map<string, number>;
  /**
   * Recent friendships (`friendKey`) whose friend this node has already sent the user's presence to, with the
   * friendship's `since`. The friendship's introduction comes later in the order, and a node that read the new
   * friendship from the database before it applied that entry has told the friend already: the introduction then
   * skips them, so each friend hears of the user once. Friendships older than RECENT_FRIENDSHIP_MS are not noted
   * (their introductions were applied long ago); the map empties when the user goes offline.
   */
  toldFriends: Map<string, number>;
}

/** How long a friendship counts as recent for `toldFriends` (far beyond any node's lag behind the log). */
const RECENT_FRIENDSHIP_MS = 10 * 60_000;

const friendKey = (friendId: string, applicationId: string) => `${friendId}:${applicationId}`;

export interface PresenceJson {
  user: { id: string };
  status: string;
  activities: Activity[];
  client_status: Record<string, string>;
}

type PresenceEntry =
  | { op: 'update'; userId: string; applicationId: string; status?: Status; activity?: Activity | null }
  | { op: 'sessions'; userId: string; applicationId: string; present: boolean }
  /** `a` and `b` became friends (`applicationId` '' on the platform axis; `since` names the friendship). */
  | { op: 'friends'; a: string; b: string; applicationId: string; since: number };

/** Told when a user's activity for an application is replaced or cleared (invites follow the party). */
export type ActivityListener = (userId: string, applicationId: string, activity: Activity | undefined) => void;

export class PresenceService {
  private readonly users = new Map<string, UserPresence>();
  private readonly activityListeners: ActivityListener[] = [];

  constructor(
    private readonly ctx: PlatformKernel,
    private readonly relationships: RelationshipService,
  ) {
    // History too: a node that starts later learns who is online and doing what.
    ctx.bus.log.on<PresenceEntry>('presence', (entry, origin, fromHistory) => this.apply(entry, origin, !fromHistory), {
      history: true,
    });
  }

  onActivityChange(listener: ActivityListener): void {
    this.activityListeners.push(listener);
  }

  activity(userId: string, applicationId: string): Activity | undefined {
    return this.users.get(userId)?.activities.get(applicationId);
  }

  /** Sets the status and/or this application's activity (`null` clears it, `undefined` keeps it). */
  update(userId: string, applicationId: string, change: { status?: Status; activity?: Activity | null }): void {
    this.ctx.bus.log.append('presence', { op: 'update', userId, applicationId, ...change } satisfies PresenceEntry);
  }

  /** Gateway or local client: a (user, application) pair got its first session or lost its last one there. */
  sessionsChanged(userId: string, applicationId: string, present: boolean): void {
    this.ctx.bus.log.append('presence', { op: 'sessions', userId, applicationId, present } satisfies PresenceEntry);
  }

  /**
   * Applies an entry on every node, which delivers what it causes to its own sessions (`live`: not while replaying
   * history, before this node has sessions); `origin` (the node that made the change) also tells the listeners.
   */
  private apply(entry: PresenceEntry, origin: boolean, live: boolean): void {
    if (entry.op === 'update') this.applyUpdate(entry, origin, live);
    else if (entry.op === 'sessions')
      this.applySessions(entry.userId, entry.applicationId, entry.present, origin, live);
    else if (live) this.introduce(entry);
  }

  private applyUpdate(
    { userId, applicationId, status, activity }: Extract<PresenceEntry, { op: 'update' }>,
    origin: boolean,
    live: boolean,
  ): void {
    const state = this.state(userId);
    if (status !== undefined) state.status = status;
    if (activity === null) state.activities.delete(applicationId);
    else if (activity !== undefined) state.activities.set(applicationId, activity);
    if (origin && activity !== undefined) this.activityChanged(userId, applicationId, activity ?? undefined);
    if (live) this.publish(userId);
  }

  private applySessions(userId: string, applicationId: string, present: boolean, origin: boolean, live: boolean): void {
    const state = this.state(userId);
    const wasOnline = state.sessionApps.size > 0;
    const sources = state.sessionApps.get(applicationId) ?? 0;
    if (present) {
      state.sessionApps.set(applicationId, sources + 1);
      // The new session is the user's only one and knows it is online; only friends need to hear it.
      if (!wasOnline && live) this.publish(userId, { self: false });
      return;
    }
    if (sources > 1) {
      // Another source still holds the pair: nothing changes for anyone.
      state.sessionApps.set(applicationId, sources - 1);
      return;
    }
    state.sessionApps.delete(applicationId);
    const hadActivity = state.activities.delete(applicationId);
    if (hadActivity && origin) this.activityChanged(userId, applicationId, undefined);
    if (state.sessionApps.size === 0) {
      // Gone from every application: offline, and the next session starts from a fresh presence.
      if (origin) for (const appId of [...state.activities.keys()]) this.activityChanged(userId, appId, undefined);
      this.users.delete(userId);
      if (live) this.publish(userId, { self: false });
    } else if (hadActivity && live) {
      this.publish(userId);
    }
  }

  /** New friends: each one's presence goes to the other's sessions on that axis, if visible and not told already. */
  private introduce({ a, b, applicationId, since }: Extract<PresenceEntry, { op: 'friends' }>): void {
    for (const [from, to] of [
      [a, b],
      [b, a],
    ] as const) {
      const told = this.users.get(from)?.toldFriends;
      const key = friendKey(to, applicationId);
      const alreadyTold = told?.get(key) === since;
      told?.delete(key);
      const view = this.view(from);
      if (alreadyTold || view.status === 'offline') continue;
      this.deliver(view, applicationId ? { userIds: [to], applicationId } : { userIds: [to] });
    }
  }

  /** What others see of the user: never the activities' secrets. */
  view(userId: string): PresenceJson {
    const state = this.users.get(userId);
    const visible = state !== undefined && state.sessionApps.size > 0 && state.status !== 'invisible';
    if (!visible) return { user: { id: userId }, status: 'offline', activities: [], client_status: {} };
    return {
      user: { id: userId },
      status: state.status,
      activities: [...state.activities.values()].map(publicActivity),
      client_status: { desktop: state.status },
    };
  }

  /** READY `presences` of a user session: friends on both axes (the game axis of this application) not offline. */
  friendPresences(userId: string, applicationId: string): PresenceJson[] {
    const ids = new Set<string>();
    for (const friend of this.relationships.friendships(userId))
      if (friend.axis === 'platform' || friend.applicationId === applicationId) ids.add(friend.otherId);
    return [...ids].map((id) => this.view(id)).filter((p) => p.status !== 'offline');
  }

  /**
   * Two users became friends (after the commit): each is introduced to the other at this entry's place in the
   * order, so the introduction shows every presence change made before it, on any node.
   */
  friendsMade(a: string, b: string, applicationId: string, since: number): void {
    this.ctx.bus.log.append('presence', { op: 'friends', a, b, applicationId, since } satisfies PresenceEntry);
  }

  private state(userId: string): UserPresence {
    let state = this.users.get(userId);
    if (!state) {
      state = { status: 'online', activities: new Map(), sessionApps: new Map(), toldFriends: new Map() };
      this.users.set(userId, state);
    }
    return state;
  }

  private activityChanged(userId: string, applicationId: string, activity: Activity | undefined): void {
    for (const listener of this.activityListeners) listener(userId, applicationId, activity);
  }

  /**
   * To this node's sessions: the user sees their own presence as set (invisible and secrets included); friends see
   * `view` — platform friends on every session, game friends on that application's sessions.
   */
  private publish(userId: string, { self } = { self: true }): void {
    const state = this.users.get(userId);
    if (self) {
      const own: PresenceJson =
        state && state.sessionApps.size > 0
          ? {
              user: { id: userId },
              status: state.status,
              activities: [...state.activities.values()],
              client_status: { desktop: state.status },
            }
          : this.view(userId);
      this.deliver(own, { userIds: [userId] });
    }
    const view = this.view(userId);
    const friendships = this.relationships.friendships(userId);
    const platform = friendships.filter((f) => f.axis === 'platform').map((f) => f.otherId);
    if (platform.length > 0) this.deliver(view, { userIds: platform });
    const byApp = new Map<string, string[]>();
    const skip = new Set(platform);
    for (const friend of friendships) {
      // Platform friends already got it on every session.
      if (friend.axis !== 'game' || skip.has(friend.otherId)) continue;
      byApp.set(friend.applicationId, [...(byApp.get(friend.applicationId) ?? []), friend.otherId]);
    }
    for (const [applicationId, userIds] of byApp) this.deliver(view, { userIds, applicationId });
    if (state) this.noteTold(state, friendships);
  }

  /** To this node's sessions of `to`, at the place in the order of the entry being applied. */
  private deliver(d: PresenceJson, to: EventAudience): void {
    this.ctx.bus.deliverHere({ t: 'PRESENCE_UPDATE', d, to });
  }

  /** Records the recent friendships whose friend just got the user's presence (see `toldFriends`). */
  private noteTold(state: UserPresence, friendships: RelationshipRecord[]): void {
    const recent = this.ctx.now() - RECENT_FRIENDSHIP_MS;
    for (const [key, since] of state.toldFriends) if (since < recent) state.toldFriends.delete(key);
    for (const friend of friendships)
      if (friend.since >= recent) state.toldFriends.set(friendKey(friend.otherId, friend.applicationId), friend.since);
  }
}
