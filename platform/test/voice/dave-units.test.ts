/** Unit tests of the DAVE delivery service's MLS pieces (src/voice/dave/mls.ts, ops.ts) against davey's output. */
import davey from '@snazzah/davey';
import { encodeMlsMessage } from 'ts-mls';
import { decodeKeyPackage } from 'ts-mls/keyPackage.js';
import { describe, expect, it } from 'vitest';
import {
  checkKeyPackage,
  DaveInputError,
  ExternalSenderKey,
  parseCommitWelcome,
  u64be,
  welcomeFor,
} from '../../src/voice/dave/mls.js';
import { mlsVector, proposalsAppend, proposalsRevoke } from '../../src/voice/dave/ops.js';

const LOBBY = '1300000000000000001';

describe('DAVE MLS pieces', () => {
  it('accepts a bare KeyPackage and one wrapped in MLSMessage, with the same KeyPackageRef', async () => {
    const session = new davey.DAVESession(1, '42', LOBBY);
    const bare = session.getSerializedKeyPackage();
    const keyPackage = decodeKeyPackage(Uint8Array.from(bare), 0)![0];
    const wrapped = encodeMlsMessage({ version: 'mls10', wireformat: 'mls_key_package', keyPackage });
    const a = await checkKeyPackage(bare, '42');
    const b = await checkKeyPackage(wrapped, '42');
    expect(a.ref).toMatch(/^[0-9a-f]{64}$/);
    expect(b.ref).toBe(a.ref);
  });

  it('refuses a truncated key package (decode), another user’s (invalid) and a bad signature (invalid)', async () => {
    const bare = new davey.DAVESession(1, '42', LOBBY).getSerializedKeyPackage();
    await expect(checkKeyPackage(bare.subarray(0, bare.length - 1), '42')).rejects.toMatchObject({ kind: 'decode' });
    await expect(checkKeyPackage(bare, '43')).rejects.toMatchObject({ kind: 'invalid' });
    const tampered = Buffer.from(bare);
    tampered[tampered.length - 5]! ^= 0x01;
    await expect(checkKeyPackage(tampered, '42')).rejects.toMatchObject({
      kind: 'invalid',
      message: 'op 26: bad KeyPackage signature',
    });
  });

  it('signs an Add that a davey member commits, and splits the Welcome for the joiner only', async () => {
    const sender = await ExternalSenderKey.create();
    expect(sender.publicKey.length).toBe(65);
    const a = new davey.DAVESession(1, '1', LOBBY);
    const b = new davey.DAVESession(1, '2', LOBBY);
    a.setExternalSender(sender.packagePayload());
    const kb = await checkKeyPackage(b.getSerializedKeyPackage(), '2');
    const add = await sender.propose(u64be(LOBBY), 0n, { proposalType: 'add', add: { keyPackage: kb.keyPackage } });
    const append = proposalsAppend([add.message]);
    const { commit, welcome } = a.processProposals(append[0]!, append.subarray(1));
    const parsed = parseCommitWelcome(Buffer.concat([commit!, welcome!]));
    expect(parsed.epoch).toBe(0n);
    expect(parsed.senderLeaf).toBe(0);
    expect(
      parsed.commit.proposals.map((p) =>
        p.proposalOrRefType === 'reference' ? Buffer.from(p.reference).toString('hex') : null,
      ),
    ).toEqual([add.ref]);
    expect(parsed.message.equals(commit!)).toBe(true);
    const forB = welcomeFor(parsed.welcome!, kb.ref)!;
    b.setExternalSender(sender.packagePayload());
    b.processWelcome(forB);
    a.processCommit(commit!);
    expect(b.epoch).toBe(1n);
    expect(b.voicePrivacyCode).toBe(a.voicePrivacyCode);
    expect(welcomeFor(parsed.welcome!, '00'.repeat(32))).toBeNull();
  });

  it('refuses an op 28 that is not a commit or carries garbage after it', () => {
    expect(() => parseCommitWelcome(Buffer.from([0xff]))).toThrow(DaveInputError);
    const kp = new davey.DAVESession(1, '42', LOBBY).getSerializedKeyPackage();
    expect(() => parseCommitWelcome(kp)).toThrow(DaveInputError);
  });

  it('encodes MLS variable-length vectors with 1-, 2- and 4-byte headers, and op 27 revoke', () => {
    expect(mlsVector(Buffer.alloc(63)).subarray(0, 1)).toEqual(Buffer.from([63]));
    expect(mlsVector(Buffer.alloc(64)).subarray(0, 2)).toEqual(Buffer.from([0x40, 64]));
    expect(mlsVector(Buffer.alloc(0x4000)).subarray(0, 4)).toEqual(Buffer.from([0x80, 0, 0x40, 0]));
    expect(proposalsRevoke(['ab'.repeat(32)])).toEqual(
      Buffer.concat([Buffer.from([1, 33, 32]), Buffer.alloc(32, 0xab)]),
    );
  });
});
