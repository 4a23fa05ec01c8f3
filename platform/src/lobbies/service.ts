import type { PlatformKernel } from '../kernel.js';
import type { BusEvent } from '../events/bus.js';
import type { LobbyMemberRecord, LobbyRecord, StringMap } from '../store/lobby-types.js';
import { enqueueWebhookEvent } from '../webhooks/events.js';
import { LobbyErrors } from './errors.js';
import type { LobbyLimits } from './limits.js';
import { lobbyJson, memberJson, type HasSession, type Json } from './serialize.js';

/** Member flag: may link the lobby to a guild channel (settable only by the application's bot). */
export const CAN_LINK_LOBBY = 1 << 0;

/**
 * Gateway dispatches collected during a transaction; they go out only after it committed, so a failed request
 * never announces anything.
 */
export class PendingEvents {
  readonly dispatches: BusEvent[] = [];
  webhooks = false;

  /** To the sessions of `userIds` for the lobby's application. */
  send(lobby: LobbyRecord, userIds: string[], t: string, d: unknown): void {
    if (userIds.length > 0) this.dispatches.push({ t, d, to: { userIds, applicationId: lobby.applicationId } });
  }
}

export interface MemberChange {
  metadata?: StringMap | null;
  flags?: number;
  /** null clears, undefined keeps. */
  additionalName?: string | null;
  joinedBySecret?: boolean;
}

/** A member as the routes receive it (`additional_name: null` clears, absent fields are kept). */
export interface MemberBody {
  metadata?: StringMap | null | undefined;
  flags?: number | undefined;
  additional_name?: string | null | undefined;
}

export function memberChange(body: MemberBody): MemberChange {
  return {
    ...(body.metadata !== undefined && { metadata: body.metadata }),
    ...(body.flags !== undefined && { flags: body.flags }),
    ...(body.additional_name !== undefined && { additionalName: body.additional_name }),
  };
}

/** What the lobby service needs besides the kernel. */
export interface LobbyServiceDeps {
  limits: LobbyLimits;
  /** Whether a member holds a gateway session for the lobby's application (`connected`, the idle clock). */
  hasSession: HasSession;
  /** Starts webhook delivery of the events a change queued (after its transaction). */
  wakeWebhooks(): void;
}

/**
 * Lobby state changes with their dispatches (PROTOCOL.md §10.5): every membership change, lobby update and deletion
 * goes through here so the audiences and the idle bookkeeping stay in one place.
 */
export class Lobbies {
  constructor(
    readonly ctx: PlatformKernel,
    private readonly deps: LobbyServiceDeps,
  ) {}

  get limits(): LobbyLimits {
    return this.deps.limits;
  }

  /** Runs `fn` in a transaction, then publishes what it collected. */
  run<T>(fn: (pending: PendingEvents) => T): T {
    const pending = new PendingEvents();
    const result = this.ctx.store.transaction(() => fn(pending));
    for (const event of pending.dispatches) this.ctx.bus.publish(event);
    if (pending.webhooks) this.deps.wakeWebhooks();
    return result;
  }

  json(lobby: LobbyRecord, view: { bot?: boolean } = {}): Json {
    return lobbyJson(this.ctx, this.deps.hasSession, lobby, view);
  }

  memberJson(lobby: LobbyRecord, member: LobbyMemberRecord): Json {
    return memberJson(this.ctx, this.deps.hasSession, lobby, member);
  }

  memberIds(lobby: LobbyRecord): string[] {
    return this.ctx.store.lobbies.members(lobby.id).map((member) => member.userId);
  }

  create(
    fields: Pick<
      LobbyRecord,
      'applicationId' | 'secret' | 'metadata' | 'flags' | 'idleTimeoutSeconds' | 'overrideWebhookUrl'
    >,
  ): LobbyRecord {
    const now = this.ctx.now();
    const lobby: LobbyRecord = {
      id: this.ctx.ids.next(),
      ...fields,
      secretExpiresAt: fields.secret === null ? null : now + this.limits.secretJoinableSeconds * 1000,
      linkedChannelId: null,
      // Nobody is a member yet, so nobody is connected: the idle clock starts now.
      idleSince: now,
      createdAt: now,
    };
    this.ctx.store.lobbies.insert(lobby);
    return lobby;
  }

  /** Stores lobby changes and sends LOBBY_UPDATE to every member when something visible changed. */
  update(lobby: LobbyRecord, next: LobbyRecord, pending: PendingEvents): LobbyRecord {
    this.ctx.store.lobbies.update(next);
    const visible = (l: LobbyRecord) => JSON.stringify([l.metadata, l.flags, l.linkedChannelId]);
    if (visible(lobby) !== visible(next)) pending.send(next, this.memberIds(next), 'LOBBY_UPDATE', this.json(next));
    return next;
  }

  /**
   * Adds the user or updates their membership. A new member gets LOBBY_CREATE and the others LOBBY_MEMBER_ADD;
   * a changed member goes to every member as LOBBY_MEMBER_UPDATE (the member's own sessions learn their flags).
   * Limits: lobby full → 30050, the user's lobby count → 30051.
   */
  upsertMember(lobby: LobbyRecord, userId: string, change: MemberChange, pending: PendingEvents): LobbyMemberRecord {
    const store = this.ctx.store.lobbies;
    const existing = store.member(lobby.id, userId);
    if (!existing) {
      if (store.countMembers(lobby.id) >= this.limits.maxMembers) throw LobbyErrors.lobbyFull(this.limits.maxMembers);
      if (store.countForUser(userId, lobby.applicationId) >= this.limits.maxLobbiesPerUser) {
        throw LobbyErrors.tooManyLobbies(this.limits.maxLobbiesPerUser);
      }
    }
    const member: LobbyMemberRecord = {
      lobbyId: lobby.id,
      userId,
      metadata: change.metadata === undefined ? (existing?.metadata ?? {}) : (change.metadata ?? {}),
      flags: change.flags ?? existing?.flags ?? 0,
      additionalName: change.additionalName === undefined ? (existing?.additionalName ?? null) : change.additionalName,
      joinedBySecret: (existing?.joinedBySecret ?? false) || (change.joinedBySecret ?? false),
      joinedAt: existing?.joinedAt ?? this.ctx.now(),
    };
    store.upsertMember(member);
    if (!existing) {
      const others = this.memberIds(lobby).filter((id) => id !== userId);
      pending.send(lobby, [userId], 'LOBBY_CREATE', this.json(lobby));
      pending.send(lobby, others, 'LOBBY_MEMBER_ADD', { lobby_id: lobby.id, member: this.memberJson(lobby, member) });
      this.refreshIdle(lobby);
    } else {
      const visible = (m: LobbyMemberRecord) => JSON.stringify([m.metadata, m.flags, m.additionalName]);
      if (visible(existing) !== visible(member)) {
        pending.send(lobby, this.memberIds(lobby), 'LOBBY_MEMBER_UPDATE', {
          lobby_id: lobby.id,
          member: this.memberJson(lobby, member),
        });
      }
    }
    return member;
  }

  /** Removes a member (no-op when absent): LOBBY_DELETE to them, LOBBY_MEMBER_REMOVE to the others. */
  removeMember(lobby: LobbyRecord, userId: string, pending: PendingEvents): boolean {
    const store = this.ctx.store.lobbies;
    if (!store.member(lobby.id, userId)) return false;
    store.deleteMember(lobby.id, userId);
    pending.send(lobby, [userId], 'LOBBY_DELETE', { id: lobby.id });
    pending.send(lobby, this.memberIds(lobby), 'LOBBY_MEMBER_REMOVE', { lobby_id: lobby.id, member: { id: userId } });
    this.refreshIdle(lobby);
    return true;
  }

  /** Deletes the lobby (messages and invites with it): LOBBY_DELETE to every member. */
  delete(lobby: LobbyRecord, pending: PendingEvents): void {
    pending.send(lobby, this.memberIds(lobby), 'LOBBY_DELETE', { id: lobby.id });
    this.ctx.store.lobbies.delete(lobby.id);
  }

  /** Queues a lobby webhook event for the lobby's override URL, else the application's. */
  webhook(lobby: LobbyRecord, type: string, data: unknown, pending: PendingEvents): void {
    const app = this.ctx.store.applications.get(lobby.applicationId);
    if (!app) return;
    enqueueWebhookEvent(this.ctx, app, type, data, lobby.overrideWebhookUrl);
    pending.webhooks = true;
  }

  /**
   * Keeps `idle_since` in step with the members' sessions: null while any member is connected, else the moment the
   * lobby became idle. Reads the stored row so callers holding an older copy cannot undo other changes.
   */
  refreshIdle(lobby: LobbyRecord): void {
    const current = this.ctx.store.lobbies.get(lobby.id);
    if (!current) return;
    const connected = this.ctx.store.lobbies
      .members(current.id)
      .some((m) => this.deps.hasSession(m.userId, current.applicationId));
    if (connected && current.idleSince !== null) this.ctx.store.lobbies.update({ ...current, idleSince: null });
    if (!connected && current.idleSince === null)
      this.ctx.store.lobbies.update({ ...current, idleSince: this.ctx.now() });
  }

  /**
   * Gateway hook, on every node: a user's first / last session for an application → LOBBY_MEMBER_UPDATE
   * (`connected`) to the other members' sessions on this node, at that change's place in the log's order — so with
   * several nodes a member never sees a user's "connected" changes in another order than they happened.
   */
  announceConnection(userId: string, applicationId: string): void {
    for (const lobby of this.ctx.store.lobbies.listForUser(userId, applicationId)) {
      const member = this.ctx.store.lobbies.member(lobby.id, userId);
      const others = this.memberIds(lobby).filter((id) => id !== userId);
      if (!member || others.length === 0) continue;
      const d = { lobby_id: lobby.id, member: this.memberJson(lobby, member) };
      this.ctx.bus.deliverHere({
        t: 'LOBBY_MEMBER_UPDATE',
        d,
        to: { userIds: others, applicationId: lobby.applicationId },
      });
    }
  }

  /** Gateway hook, once in the deployment (the node where the change happened): the user's lobbies' idle clocks. */
  refreshIdleOf(userId: string, applicationId: string): void {
    this.run(() => {
      for (const lobby of this.ctx.store.lobbies.listForUser(userId, applicationId)) this.refreshIdle(lobby);
    });
  }

  /** Deletes idle lobbies whose time ran out; drops messages beyond the history window and expired invites. */
  sweep(): void {
    const now = this.ctx.now();
    this.run((pending) => {
      for (const lobby of this.ctx.store.lobbies.listIdleExpired(now)) this.delete(lobby, pending);
      this.ctx.store.lobbies.pruneMessages(now - this.limits.historySeconds * 1000);
      this.ctx.store.lobbies.pruneInvites(now);
    });
  }
}
