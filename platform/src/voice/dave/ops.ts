/** DAVE opcodes and payload framing on the voice gateway (PROTOCOL.md §13.7). */
export const DaveOp = {
  PrepareTransition: 21,
  ExecuteTransition: 22,
  TransitionReady: 23,
  PrepareEpoch: 24,
  ExternalSender: 25,
  KeyPackage: 26,
  Proposals: 27,
  CommitWelcome: 28,
  AnnounceCommit: 29,
  Welcome: 30,
  InvalidCommitWelcome: 31,
} as const;

/** The DAVE protocol version served. */
export const DAVE_PROTOCOL_VERSION = 1;

export const ProposalsOp = { Append: 0, Revoke: 1 } as const;

/** Op 27 append: `u8 0 | MLSMessage proposal_messages<V>` (MLS variable-length vector of the concatenated messages). */
export function proposalsAppend(messages: Buffer[]): Buffer {
  return Buffer.concat([Buffer.from([ProposalsOp.Append]), mlsVector(Buffer.concat(messages))]);
}

/** Op 27 revoke: `u8 1 | ProposalRef refs<V>` (each ref itself an opaque<V> HashReference). */
export function proposalsRevoke(refs: string[]): Buffer {
  return Buffer.concat([
    Buffer.from([ProposalsOp.Revoke]),
    mlsVector(Buffer.concat(refs.map((r) => mlsVector(Buffer.from(r, 'hex'))))),
  ]);
}

/** Ops 29/30: `u16 transition_id | body`. */
export function withTransition(transitionId: number, body: Buffer): Buffer {
  const head = Buffer.alloc(2);
  head.writeUInt16BE(transitionId);
  return Buffer.concat([head, body]);
}

/** RFC 9420 §2.1.2 variable-length vector: 1-, 2- or 4-byte length prefix (QUIC-style). */
export function mlsVector(body: Buffer): Buffer {
  const n = body.length;
  let head: Buffer;
  if (n < 0x40) head = Buffer.from([n]);
  else if (n < 0x4000) head = Buffer.from([0x40 | (n >> 8), n & 0xff]);
  else {
    head = Buffer.alloc(4);
    head.writeUInt32BE((0x80000000 | n) >>> 0);
  }
  return Buffer.concat([head, body]);
}
