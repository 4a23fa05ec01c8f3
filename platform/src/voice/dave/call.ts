/**
 * One call's DAVE group as the delivery service sees it (PROTOCOL.md §13.7): who holds which leaf, the key packages
 * of those waiting to join, the external proposals of the current epoch, the commit picked for it and the
 * transition that follows. It holds no group secret; every MLS check it makes is structural or a signature of its
 * own. All client input for a call goes through one queue (ts-mls is async), so events are handled in order.
 */
import type { Logger } from 'pino';
import type { VoiceSession } from '../session.js';
import { commitProblem } from './commit-check.js';
import {
  checkKeyPackage,
  DaveInputError,
  hex,
  parseCommitWelcome,
  u64be,
  welcomeFor,
  type CheckedKeyPackage,
  type ExternalSenderKey,
  type ParsedCommit,
} from './mls.js';
import { DAVE_PROTOCOL_VERSION, DaveOp, proposalsAppend, proposalsRevoke, withTransition } from './ops.js';

export interface DaveCallHost {
  /** Closes a client's voice connection with a published close code. */
  refuse(session: VoiceSession, code: number, reason: string): void;
  transitionTimeoutMs: number;
  logger: Logger;
  /** Test observer: a commit was dropped (stale epoch, another commit won, not the epoch's proposals…). */
  onCommitDropped?(lobbyId: string, problem: string): void;
}

interface Candidate {
  session: VoiceSession;
  keyPackage: CheckedKeyPackage;
}

interface PendingProposal {
  kind: 'add' | 'remove';
  userId: string;
  /** Remove: the leaf removed. */
  leaf: number;
  message: Buffer;
  /** Who received it (for a revoke). */
  audience: Set<string>;
}

interface Transition {
  id: number;
  awaiting: Set<string>;
  timer: NodeJS.Timeout;
}

export class DaveCall {
  /** Live DAVE sessions of the call by user id. */
  readonly sessions = new Map<string, VoiceSession>();
  /** 0 = no group yet (every pending member has its own single-member group at epoch 0). */
  epoch = 0n;
  /** User id per leaf index of the group (null = blank). */
  leaves: (string | null)[] = [];
  private readonly candidates = new Map<string, Candidate>();
  /** Proposals of the current epoch by ProposalRef (hex), in the order made. */
  private readonly proposals = new Map<string, PendingProposal>();
  private transition: Transition | null = null;
  private nextTransitionId = 1;
  private queue: Promise<void> = Promise.resolve();
  private readonly groupId: Uint8Array;
  private senderKey: ExternalSenderKey | null;

  constructor(
    readonly lobbyId: string,
    sender: ExternalSenderKey | null,
    private readonly host: DaveCallHost,
  ) {
    this.groupId = u64be(lobbyId);
    this.senderKey = sender;
  }

  private get sender(): ExternalSenderKey {
    if (!this.senderKey) throw new Error('dave: no external sender yet');
    return this.senderKey;
  }

  /** Runs `work` after everything queued before it; a failure is logged, never thrown into the gateway. */
  enqueue(work: () => Promise<void> | void): Promise<void> {
    this.queue = this.queue
      .then(work)
      .catch((error: unknown) =>
        this.host.logger.error({ err: error, lobbyId: this.lobbyId }, 'dave: call event failed'),
      );
    return this.queue;
  }

  // ── membership ────────────────────────────────────────────────────────────────────────────────────────

  /**
   * After Session Description. The session counts at once (its op 26 may come before the key pair exists); op 25
   * goes out from the queue, so it follows op 4 and precedes any proposal.
   */
  joined(session: VoiceSession, createSender: () => Promise<ExternalSenderKey>): void {
    this.sessions.set(session.userId, session);
    void this.enqueue(async () => {
      this.senderKey ??= await createSender();
      if (this.sessions.get(session.userId) === session)
        session.sendBinary(DaveOp.ExternalSender, this.sender.packagePayload());
    });
  }

  /**
   * The session left. It stops counting at once (a reconnecting client's new session may join before the queue
   * gets here); its proposals and leaf are dealt with in order, from the queue.
   */
  left(session: VoiceSession): Promise<void> {
    if (this.sessions.get(session.userId) !== session) return Promise.resolve();
    this.sessions.delete(session.userId);
    return this.enqueue(async () => {
      if (this.sessions.has(session.userId)) return; // back already: its new key package re-adds it (onKeyPackage)
      this.notReady(session.userId);
      await this.withdraw(session.userId);
      this.resetIfAlone();
    });
  }

  /** Op 26. A member sending one again (after a local reset) is removed and re-added. */
  async onKeyPackage(session: VoiceSession, payload: Buffer): Promise<void> {
    if (this.sessions.get(session.userId) !== session) return;
    const keyPackage = await this.checked(session, () => checkKeyPackage(payload, session.userId));
    if (!keyPackage) return;
    await this.withdraw(session.userId);
    this.candidates.set(session.userId, { session, keyPackage });
    const { message, ref } = await this.sender.propose(this.groupId, this.epoch, {
      proposalType: 'add',
      add: { keyPackage: keyPackage.keyPackage },
    });
    // Before a group exists each pending member gets only the OTHER pending members' adds (its own would be a
    // duplicate of its own leaf), and a newcomer gets the adds already in flight.
    const audience = this.epoch === 0n ? this.otherCandidates(session.userId) : this.liveMembers();
    this.proposals.set(ref, {
      kind: 'add',
      userId: session.userId,
      leaf: -1,
      message,
      audience: new Set(audience.map((s) => s.userId)),
    });
    for (const other of audience) other.sendBinary(DaveOp.Proposals, proposalsAppend([message]));
    if (this.epoch === 0n) {
      const inFlight = [...this.proposals.values()].filter((p) => p.kind === 'add' && p.userId !== session.userId);
      for (const p of inFlight) p.audience.add(session.userId);
      if (inFlight.length > 0) session.sendBinary(DaveOp.Proposals, proposalsAppend(inFlight.map((p) => p.message)));
    }
  }

  /** Op 28: the first valid commit for the current epoch wins; the others are dropped. */
  async onCommit(session: VoiceSession, payload: Buffer): Promise<void> {
    if (this.sessions.get(session.userId) !== session) return;
    let parsed: ParsedCommit;
    try {
      parsed = parseCommitWelcome(payload);
    } catch (error) {
      return this.refuseInput(session, error);
    }
    const problem = commitProblem(
      {
        groupId: this.groupId,
        epoch: this.epoch,
        leaves: this.leaves,
        proposals: this.proposals,
        keyPackageRefs: new Map([...this.candidates].map(([userId, c]) => [userId, c.keyPackage.ref])),
      },
      session.userId,
      parsed,
    );
    if (problem) {
      this.host.logger.debug({ lobbyId: this.lobbyId, userId: session.userId, problem }, 'dave: commit dropped');
      this.host.onCommitDropped?.(this.lobbyId, problem);
      return;
    }
    this.accept(session, parsed);
  }

  /** Op 23. */
  onReady(session: VoiceSession, transitionId: number): void {
    if (this.transition?.id === transitionId) this.notReady(session.userId);
  }

  /** Op 31: the client could not process a commit or welcome; it resets and sends a new key package. */
  async onInvalid(session: VoiceSession): Promise<void> {
    if (this.sessions.get(session.userId) !== session) return;
    this.notReady(session.userId);
    await this.withdraw(session.userId);
  }

  get empty(): boolean {
    return this.sessions.size === 0;
  }

  /** Stops the transition timer (the call is gone). */
  dispose(): void {
    if (this.transition) clearTimeout(this.transition.timer);
    this.transition = null;
  }

  // ── commits ───────────────────────────────────────────────────────────────────────────────────────────

  private accept(committer: VoiceSession, c: ParsedCommit): void {
    const applied = c.commit.proposals.map((p) => this.proposals.get(hex((p as { reference: Uint8Array }).reference))!);
    const before = new Set(this.epoch === 0n ? [committer.userId] : this.leaves.filter((u): u is string => u !== null));
    if (this.epoch === 0n) this.leaves = [committer.userId];
    // RFC 9420 §12.3: removes blank their leaves and the tree is truncated; adds fill the leftmost blank, else append.
    for (const p of applied) if (p.kind === 'remove') this.leaves[p.leaf] = null;
    while (this.leaves.length > 0 && this.leaves[this.leaves.length - 1] === null) this.leaves.pop();
    const joiners: Candidate[] = [];
    for (const p of applied) {
      if (p.kind !== 'add') continue;
      const blank = this.leaves.indexOf(null);
      if (blank === -1) this.leaves.push(p.userId);
      else this.leaves[blank] = p.userId;
      joiners.push(this.candidates.get(p.userId)!);
      this.candidates.delete(p.userId);
      before.delete(p.userId);
    }
    if (this.epoch === 0n) this.candidates.delete(committer.userId);
    this.proposals.clear();
    this.epoch += 1n;
    const transitionId = this.takeTransitionId();
    // The commit goes to who held the group before it and still does (the committer included); joiners get their
    // Welcome.
    for (const member of this.liveMembers())
      if (before.has(member.userId)) member.sendBinary(DaveOp.AnnounceCommit, withTransition(transitionId, c.message));
    for (const joiner of joiners)
      joiner.session.sendBinary(
        DaveOp.Welcome,
        withTransition(transitionId, welcomeFor(c.welcome!, joiner.keyPackage.ref)!),
      );
    this.startTransition(transitionId);
    // Pending members left over (their key package came after this commit was made) are proposed for the new epoch.
    const leftover = [...this.candidates.values()];
    this.candidates.clear();
    for (const candidate of leftover) void this.enqueue(() => this.onKeyPackageChecked(candidate));
  }

  private async onKeyPackageChecked(candidate: Candidate): Promise<void> {
    if (
      this.sessions.get(candidate.session.userId) !== candidate.session ||
      this.candidates.has(candidate.session.userId)
    )
      return;
    this.candidates.set(candidate.session.userId, candidate);
    const { message, ref } = await this.sender.propose(this.groupId, this.epoch, {
      proposalType: 'add',
      add: { keyPackage: candidate.keyPackage.keyPackage },
    });
    const audience = this.liveMembers();
    this.proposals.set(ref, {
      kind: 'add',
      userId: candidate.session.userId,
      leaf: -1,
      message,
      audience: new Set(audience.map((s) => s.userId)),
    });
    for (const member of audience) member.sendBinary(DaveOp.Proposals, proposalsAppend([message]));
  }

  // ── transitions ───────────────────────────────────────────────────────────────────────────────────────

  /** Every member of the new epoch answers op 23 (or the timeout passes); then op 22 switches their send keys. */
  private startTransition(id: number): void {
    if (this.transition) this.execute();
    const awaiting = new Set(this.liveMembers().map((s) => s.userId));
    const timer = setTimeout(() => this.execute(), this.host.transitionTimeoutMs);
    timer.unref();
    this.transition = { id, awaiting, timer };
  }

  private notReady(userId: string): void {
    if (!this.transition) return;
    this.transition.awaiting.delete(userId);
    if (this.transition.awaiting.size === 0) this.execute();
  }

  private execute(): void {
    const transition = this.transition;
    if (!transition) return;
    clearTimeout(transition.timer);
    this.transition = null;
    for (const member of this.liveMembers()) member.send(DaveOp.ExecuteTransition, { transition_id: transition.id });
  }

  private takeTransitionId(): number {
    const id = this.nextTransitionId;
    this.nextTransitionId = id >= 0xffff ? 1 : id + 1;
    return id;
  }

  // ── helpers ───────────────────────────────────────────────────────────────────────────────────────────

  /** The user leaves the group or the queue of joiners: its add is revoked, or its leaf gets a remove proposal. */
  private async withdraw(userId: string): Promise<void> {
    this.candidates.delete(userId);
    for (const [ref, p] of [...this.proposals]) {
      if (p.userId !== userId || p.kind !== 'add') continue;
      this.proposals.delete(ref);
      for (const to of p.audience) this.sessions.get(to)?.sendBinary(DaveOp.Proposals, proposalsRevoke([ref]));
    }
    const leaf = this.leaves.indexOf(userId);
    if (leaf === -1 || [...this.proposals.values()].some((p) => p.kind === 'remove' && p.leaf === leaf)) return;
    const { message, ref } = await this.sender.propose(this.groupId, this.epoch, {
      proposalType: 'remove',
      remove: { removed: leaf },
    });
    const audience = this.liveMembers().filter((s) => s.userId !== userId);
    this.proposals.set(ref, {
      kind: 'remove',
      userId,
      leaf,
      message,
      audience: new Set(audience.map((s) => s.userId)),
    });
    for (const member of audience) member.sendBinary(DaveOp.Proposals, proposalsAppend([message]));
  }

  /**
   * Nobody left who could commit for the others: a sole member, or only pending members of a group whose members
   * all left. Everyone remaining starts over (op 24 epoch 1, then op 21 transition 0) and sends a new key package.
   */
  private resetIfAlone(): void {
    if (this.epoch === 0n || this.sessions.size === 0) return;
    const removed = new Set([...this.proposals.values()].filter((p) => p.kind === 'remove').map((p) => p.userId));
    const members = this.liveMembers().filter((s) => !removed.has(s.userId));
    if (members.length > 0 && this.sessions.size > 1) return;
    this.dispose();
    this.epoch = 0n;
    this.leaves = [];
    this.candidates.clear();
    this.proposals.clear();
    for (const session of this.sessions.values()) {
      session.send(DaveOp.PrepareEpoch, { protocol_version: DAVE_PROTOCOL_VERSION, epoch: 1 });
      session.send(DaveOp.PrepareTransition, { protocol_version: DAVE_PROTOCOL_VERSION, transition_id: 0 });
    }
  }

  /**
   * Members who hold their group state: connected, not being removed, not waiting to be re-added (after op 31 or a
   * new key package they have no group any more and must not get its proposals, commits or transitions).
   */
  private liveMembers(): VoiceSession[] {
    const removing = new Set([...this.proposals.values()].filter((p) => p.kind === 'remove').map((p) => p.userId));
    return this.leaves.flatMap((userId) =>
      userId !== null && this.sessions.has(userId) && !removing.has(userId) && !this.candidates.has(userId)
        ? [this.sessions.get(userId)!]
        : [],
    );
  }

  private otherCandidates(userId: string): VoiceSession[] {
    return [...this.candidates.values()].filter((c) => c.session.userId !== userId).map((c) => c.session);
  }

  private async checked<T>(session: VoiceSession, work: () => Promise<T>): Promise<T | null> {
    try {
      return await work();
    } catch (error) {
      this.refuseInput(session, error);
      return null;
    }
  }

  private refuseInput(session: VoiceSession, error: unknown): void {
    if (!(error instanceof DaveInputError)) throw error;
    // 4002: not decodable at all; 4020: well-formed MLS the protocol does not allow.
    this.host.refuse(session, error.kind === 'decode' ? 4002 : 4020, error.message);
  }
}
