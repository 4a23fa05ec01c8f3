/**
 * Every live session, indexed for dispatch routing: by id (resume), by user and by application (audiences).
 * Sessions in the indexes are either attached or detached-but-resumable; removing one forgets it for good.
 */
import type { EventAudience } from '../events/bus.js';
import type { Session } from './session.js';
import type { SessionFilter } from './types.js';

export class SessionRegistry<S extends Session = Session> {
  private readonly byId = new Map<string, S>();
  private readonly byUser = new Map<string, Set<S>>();
  private readonly byApp = new Map<string, Set<S>>();

  get size(): number {
    return this.byId.size;
  }

  add(session: S): void {
    this.byId.set(session.id, session);
    addTo(this.byUser, session.userId, session);
    addTo(this.byApp, session.applicationId, session);
  }

  remove(session: S): boolean {
    if (this.byId.get(session.id) !== session) return false;
    this.byId.delete(session.id);
    removeFrom(this.byUser, session.userId, session);
    removeFrom(this.byApp, session.applicationId, session);
    return true;
  }

  /** How many sessions (attached or resumable) the user has for the application. */
  countFor(userId: string, applicationId: string): number {
    let n = 0;
    for (const s of this.byUser.get(userId) ?? []) if (s.applicationId === applicationId) n++;
    return n;
  }

  get(id: string): S | undefined {
    return this.byId.get(id);
  }

  all(): IterableIterator<S> {
    return this.byId.values();
  }

  /** Sessions an event is for: present criteria are ANDed; an audience with no criteria matches nothing. */
  audience(to: EventAudience): S[] {
    const sessions = this.candidates(to);
    const intent = to.intent;
    const without = to.withoutIntent ?? 0;
    // Intent-routed events go to bot sessions that asked for every bit of the intent (PROTOCOL.md §14.3).
    if (intent === undefined) return sessions;
    return sessions.filter(
      (s) => s.identity.kind === 'bot' && (s.intents & intent) === intent && (s.intents & without) === 0,
    );
  }

  private candidates(to: EventAudience): S[] {
    const out: S[] = [];
    if (to.userIds) {
      const seen = to.userIds.length > 1 ? new Set<string>() : null;
      for (const userId of to.userIds) {
        if (seen) {
          if (seen.has(userId)) continue;
          seen.add(userId);
        }
        for (const s of this.byUser.get(userId) ?? []) {
          if (to.applicationId === undefined || s.applicationId === to.applicationId) out.push(s);
        }
      }
      return out;
    }
    if (to.applicationId !== undefined) return [...(this.byApp.get(to.applicationId) ?? [])];
    if (to.all) return [...this.byId.values()];
    return out;
  }

  /** Sessions selected by a handle filter (no criteria selects every session). */
  select(filter: SessionFilter = {}): S[] {
    let candidates: Iterable<S>;
    if (filter.sessionId !== undefined) {
      const s = this.byId.get(filter.sessionId);
      candidates = s ? [s] : [];
    } else if (filter.userId !== undefined) candidates = this.byUser.get(filter.userId) ?? [];
    else if (filter.applicationId !== undefined) candidates = this.byApp.get(filter.applicationId) ?? [];
    else candidates = this.byId.values();
    const out: S[] = [];
    for (const s of candidates) {
      if (filter.userId !== undefined && s.userId !== filter.userId) continue;
      if (filter.applicationId !== undefined && s.applicationId !== filter.applicationId) continue;
      out.push(s);
    }
    return out;
  }
}

function addTo<S>(index: Map<string, Set<S>>, key: string, session: S): void {
  let set = index.get(key);
  if (!set) index.set(key, (set = new Set()));
  set.add(session);
}

function removeFrom<S>(index: Map<string, Set<S>>, key: string, session: S): void {
  const set = index.get(key);
  if (!set) return;
  set.delete(session);
  if (set.size === 0) index.delete(key);
}
