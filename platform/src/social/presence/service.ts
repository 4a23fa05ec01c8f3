/**
 * In-memory presence (PROTOCOL.md §10.2): per user a status and one activity per application, plus which
 * applications the user has gateway sessions for. A user without sessions is offline with no activities, and
 * `invisible` is shown to everyone else as offline. Changes go out as PRESENCE_UPDATE to the user's own sessions,
 * their platform friends' sessions (every application) and their game friends' sessions of that friendship's
 * application.
 *
 * Every change travels on the replicated log's `presence` channel (PROTOCOL.md "Several nodes"): each node applies
 * it to its copy of the state, in the one order, and only the node where the change was made publishes the
 * resulting PRESENCE_UPDATEs and tells the activity listeners — so with several nodes every node knows every
 * user's presence (READY `presences`, invites) and each update goes out once. On one node a change is applied
 * before the call returns.
 */
import type { PlatformContext } from '../../context.js';
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
}

export interface PresenceJson {
  user: { id: string };
  status: string;
  activities: Activity[];
  client_status: Record<string, string>;
}

type PresenceEntry =
  | { op: 'update'; userId: string; applicationId: string; status?: Status; activity?: Activity | null }
  | { op: 'sessions'; userId: string; applicationId: string; present: boolean };

/** Told when a user's activity for an application is replaced or cleared (invites follow the party). */
export type ActivityListener = (userId: string, applicationId: string, activity: Activity | undefined) => void;

export class PresenceService {
  private readonly users = new Map<string, UserPresence>();
  private readonly activityListeners: ActivityListener[] = [];

  constructor(
    private readonly ctx: PlatformContext,
    private readonly relationships: RelationshipService,
  ) {
    // History too: a node that starts later learns who is online and doing what.
    ctx.bus.log.on<PresenceEntry>('presence', (entry, origin) => this.apply(entry, origin), { history: true });
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

  /** Applies a change on every node; `origin` (the node that made it) also publishes and notifies. */
  private apply(entry: PresenceEntry, origin: boolean): void {
    if (entry.op === 'update') this.applyUpdate(entry, origin);
    else this.applySessions(entry.userId, entry.applicationId, entry.present, origin);
  }

  private applyUpdate({ userId, applicationId, status, activity }: Extract<PresenceEntry, { op: 'update' }>, origin: boolean): void {
    const state = this.state(userId);
    if (status !== undefined) state.status = status;
    if (activity === null) state.activities.delete(applicationId);
    else if (activity !== undefined) state.activities.set(applicationId, activity);
    if (!origin) return;
    if (activity !== undefined) this.activityChanged(userId, applicationId, activity ?? undefined);
    this.publish(userId);
  }

  private applySessions(userId: string, applicationId: string, present: boolean, origin: boolean): void {
    const state = this.state(userId);
    const wasOnline = state.sessionApps.size > 0;
    const sources = state.sessionApps.get(applicationId) ?? 0;
    if (present) {
      state.sessionApps.set(applicationId, sources + 1);
      // The new session is the user's only one and knows it is online; only friends need to hear it.
      if (!wasOnline && origin) this.publish(userId, { self: false });
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
      if (origin) this.publish(userId, { self: false });
    } else if (hadActivity && origin) {
      this.publish(userId);
    }
  }

  /** What others see of the user: never the activities' secrets. */
  view(userId: string): PresenceJson {
    const state = this.users.get(userId);
    const visible = state !== undefined && state.sessionApps.size > 0 && state.status !== 'invisible';
    if (!visible) return { user: { id: userId }, status: 'offline', activities: [], client_status: {} };
    return { user: { id: userId }, status: state.status, activities: [...state.activities.values()].map(publicActivity), client_status: { desktop: state.status } };
  }

  /** READY `presences` of a user session: friends on both axes (the game axis of this application) not offline. */
  friendPresences(userId: string, applicationId: string): PresenceJson[] {
    const ids = new Set(this.relationships.platformFriendIds(userId));
    for (const friend of this.relationships.gameFriends(userId)) if (friend.applicationId === applicationId) ids.add(friend.userId);
    return [...ids].map((id) => this.view(id)).filter((p) => p.status !== 'offline');
  }

  /** Introduces new friends: each one's presence goes to the other's sessions on that axis, if visible. */
  friendsMade(a: string, b: string, applicationId: string): void {
    for (const [from, to] of [
      [a, b],
      [b, a],
    ] as const) {
      const view = this.view(from);
      if (view.status === 'offline') continue;
      this.ctx.bus.publish({ t: 'PRESENCE_UPDATE', d: view, to: applicationId ? { userIds: [to], applicationId } : { userIds: [to] } });
    }
  }

  private state(userId: string): UserPresence {
    let state = this.users.get(userId);
    if (!state) {
      state = { status: 'online', activities: new Map(), sessionApps: new Map() };
      this.users.set(userId, state);
    }
    return state;
  }

  private activityChanged(userId: string, applicationId: string, activity: Activity | undefined): void {
    for (const listener of this.activityListeners) listener(userId, applicationId, activity);
  }

  /** The user sees their own presence as set (invisible and secrets included); friends see `view`. */
  private publish(userId: string, { self } = { self: true }): void {
    const state = this.users.get(userId);
    if (self) {
      const own: PresenceJson =
        state && state.sessionApps.size > 0
          ? { user: { id: userId }, status: state.status, activities: [...state.activities.values()], client_status: { desktop: state.status } }
          : this.view(userId);
      this.ctx.bus.publish({ t: 'PRESENCE_UPDATE', d: own, to: { userIds: [userId] } });
    }
    const view = this.view(userId);
    const platform = this.relationships.platformFriendIds(userId);
    if (platform.length > 0) this.ctx.bus.publish({ t: 'PRESENCE_UPDATE', d: view, to: { userIds: platform } });
    const byApp = new Map<string, string[]>();
    const skip = new Set(platform);
    for (const friend of this.relationships.gameFriends(userId)) {
      if (skip.has(friend.userId)) continue; // Platform friends already got it on every session.
      byApp.set(friend.applicationId, [...(byApp.get(friend.applicationId) ?? []), friend.userId]);
    }
    for (const [applicationId, userIds] of byApp) this.ctx.bus.publish({ t: 'PRESENCE_UPDATE', d: view, to: { userIds, applicationId } });
  }
}
