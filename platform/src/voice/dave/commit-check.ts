/**
 * Which op 28 commit may win an epoch (PROTOCOL.md §13.7): the rules the delivery service can check without group
 * secrets. Returns why a commit is dropped, or null when it is valid.
 */
import { hex, u64be, welcomeFor, type ParsedCommit } from './mls.js';

export interface EpochView {
  groupId: Uint8Array;
  /** 0 = no group yet. */
  epoch: bigint;
  /** User id per leaf. */
  leaves: readonly (string | null)[];
  /** The epoch's proposals by ref (hex). */
  proposals: ReadonlyMap<string, { kind: 'add' | 'remove'; userId: string }>;
  /** KeyPackageRef (hex) of each pending member. */
  keyPackageRefs: ReadonlyMap<string, string>;
}

export function commitProblem(view: EpochView, committer: string, c: ParsedCommit): string | null {
  if (hex(c.groupId) !== hex(view.groupId)) return 'wrong group id';
  if (c.epoch !== view.epoch) return `epoch ${c.epoch}, current ${view.epoch}`;
  const noGroup = view.epoch === 0n;
  if (noGroup) {
    // Before the group exists the committer is a pending member at leaf 0 of its own single-member group.
    if (!view.keyPackageRefs.has(committer) || c.senderLeaf !== 0) return 'not a pending member';
  } else if (view.leaves[c.senderLeaf] !== committer) return 'committer is not at the sender leaf';
  const expected = new Set(
    [...view.proposals].filter(([, p]) => !(noGroup && p.userId === committer)).map(([ref]) => ref),
  );
  if (expected.size === 0) return 'no proposal to commit';
  const refs = c.commit.proposals.map((p) => (p.proposalOrRefType === 'reference' ? hex(p.reference) : null));
  if (refs.some((r) => r === null)) return 'inline proposals are not allowed';
  if (new Set(refs).size !== refs.length || refs.length !== expected.size || refs.some((r) => !expected.has(r!)))
    return 'does not reference exactly the proposals of the epoch';
  const identity = c.commit.path?.leafNode.credential;
  if (identity && (identity.credentialType !== 'basic' || hex(identity.identity) !== hex(u64be(committer))))
    return 'path changes the committer credential';
  const adds = refs.map((r) => view.proposals.get(r!)!).filter((p) => p.kind === 'add');
  if (adds.length > 0) {
    if (!c.welcome) return 'adds without a Welcome';
    for (const add of adds)
      if (!welcomeFor(c.welcome, view.keyPackageRefs.get(add.userId)!)) return `no Welcome secrets for ${add.userId}`;
  }
  return null;
}
