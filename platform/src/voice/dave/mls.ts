/**
 * The MLS (RFC 9420) pieces the DAVE delivery service needs, on ts-mls: decoding key packages, commits and
 * welcomes, signing external Add/Remove proposals, and the references (KeyPackageRef, ProposalRef) that tie them
 * together. The platform holds no group secrets: it can check structure and the external sender's own
 * signatures, never a member's membership tag (PROTOCOL.md §13.7).
 */
import { p256 } from '@noble/curves/nist.js';
import {
  decodeMlsMessage,
  encodeExternalSender,
  encodeMlsMessage,
  getCiphersuiteFromName,
  getCiphersuiteImpl,
  type CiphersuiteImpl,
  type KeyPackage,
  type MLSMessage,
} from 'ts-mls';
import { makeProposalRef } from 'ts-mls/authenticatedContent.js';
import type { Commit } from 'ts-mls/commit.js';
import type { GroupContext } from 'ts-mls/groupContext.js';
import { decodeKeyPackage, makeKeyPackageRef, verifyKeyPackage } from 'ts-mls/keyPackage.js';
import { protectExternalProposalPublic } from 'ts-mls/messageProtectionPublic.js';
import type { Proposal } from 'ts-mls/proposal.js';
import type { PublicMessage } from 'ts-mls/publicMessage.js';
import { decodeWelcome, encodeWelcome, type Welcome } from 'ts-mls/welcome.js';

/** DAVE protocol version 1 uses MLS 1.0 with ciphersuite 2 only. */
export const DAVE_CIPHERSUITE = 'MLS_128_DHKEMP256_AES128GCM_SHA256_P256' as const;
const LIFETIME_MAX = 2n ** 64n - 1n;

let suite: Promise<CiphersuiteImpl> | null = null;
export function ciphersuite(): Promise<CiphersuiteImpl> {
  suite ??= getCiphersuiteImpl(getCiphersuiteFromName(DAVE_CIPHERSUITE));
  return suite;
}

/** Bad input from a client: the service answers with a close code (DecodeError or BadRequest). */
export class DaveInputError extends Error {
  constructor(
    message: string,
    readonly kind: 'decode' | 'invalid',
  ) {
    super(message);
  }
}

/** DAVE's MLS identity: the user id as 8 big-endian bytes (also the group id for a lobby id). */
export function u64be(id: string): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, BigInt(id));
  return out;
}

export function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('hex');
}

/** The external sender of one call: a fresh P-256 signing key pair, never stored. */
export class ExternalSenderKey {
  private constructor(
    private readonly signKey: Uint8Array,
    /** 65-byte uncompressed point (what libdave/mlspp produce; OpenMLS accepts both forms). */
    readonly publicKey: Uint8Array,
  ) {}

  static async create(): Promise<ExternalSenderKey> {
    const cs = await ciphersuite();
    const { signKey } = await cs.signature.keygen();
    return new ExternalSenderKey(signKey, p256.getPublicKey(signKey, false));
  }

  /** Op 25 payload: `ExternalSender {signature_key<V>, Credential basic identity<V>}`. */
  packagePayload(): Buffer {
    return Buffer.from(
      encodeExternalSender({
        signaturePublicKey: this.publicKey,
        credential: { credentialType: 'basic', identity: new Uint8Array(8) },
      }),
    );
  }

  /** An Add or Remove proposal as a PublicMessage from external sender #0, wrapped in MLSMessage, and its ref. */
  async propose(groupId: Uint8Array, epoch: bigint, proposal: Proposal): Promise<{ message: Buffer; ref: string }> {
    const cs = await ciphersuite();
    // For an external sender the signed FramedContentTBS carries no GroupContext, so only id and epoch matter here.
    const context: GroupContext = {
      version: 'mls10',
      cipherSuite: DAVE_CIPHERSUITE,
      groupId,
      epoch,
      treeHash: new Uint8Array(),
      confirmedTranscriptHash: new Uint8Array(),
      extensions: [],
    };
    const { publicMessage } = await protectExternalProposalPublic(
      this.signKey,
      context,
      new Uint8Array(),
      proposal,
      { senderType: 'external', senderIndex: 0 },
      cs,
    );
    const ref = await makeProposalRef(
      { wireformat: 'mls_public_message', content: publicMessage.content, auth: publicMessage.auth },
      cs.hash,
    );
    const message = encodeMlsMessage({ version: 'mls10', wireformat: 'mls_public_message', publicMessage });
    return { message: Buffer.from(message), ref: hex(ref) };
  }
}

export interface CheckedKeyPackage {
  keyPackage: KeyPackage;
  /** KeyPackageRef (hex): names the joiner's EncryptedGroupSecrets in a Welcome. */
  ref: string;
}

/**
 * Op 26: a KeyPackage, bare (what libdave and davey send) or wrapped in MLSMessage (what the published text says).
 * Checked: whole payload consumed, MLS 1.0, suite 2, basic credential = the session's user, lifetime 0…2^64−1,
 * signature.
 */
export async function checkKeyPackage(input: Uint8Array, userId: string): Promise<CheckedKeyPackage> {
  const payload = Uint8Array.from(input);
  let keyPackage: KeyPackage | undefined;
  const bare = safeDecode(() => decodeKeyPackage(payload, 0));
  if (bare && bare[1] === payload.length) keyPackage = bare[0];
  else {
    const wrapped = safeDecode(() => decodeMlsMessage(payload, 0));
    if (wrapped && wrapped[1] === payload.length && wrapped[0].wireformat === 'mls_key_package')
      keyPackage = wrapped[0].keyPackage;
  }
  if (!keyPackage) throw new DaveInputError('op 26: not a KeyPackage', 'decode');
  if (keyPackage.version !== 'mls10' || keyPackage.cipherSuite !== DAVE_CIPHERSUITE)
    throw new DaveInputError('op 26: MLS 1.0 with ciphersuite 2 required', 'invalid');
  const { credential, lifetime } = keyPackage.leafNode as typeof keyPackage.leafNode & {
    lifetime?: { notBefore: bigint; notAfter: bigint };
  };
  if (credential.credentialType !== 'basic' || hex(credential.identity) !== hex(u64be(userId)))
    throw new DaveInputError('op 26: the credential must be the session user id (u64 big-endian)', 'invalid');
  if (lifetime && (lifetime.notBefore !== 0n || lifetime.notAfter !== LIFETIME_MAX))
    throw new DaveInputError('op 26: lifetime must be 0…2^64−1', 'invalid');
  const cs = await ciphersuite();
  // A malformed DER signature makes the verifier throw: the same answer as a wrong one.
  const verified = await verifyKeyPackage(keyPackage, cs.signature).catch(() => false);
  if (!verified) throw new DaveInputError('op 26: bad KeyPackage signature', 'invalid');
  return { keyPackage, ref: hex(await makeKeyPackageRef(keyPackage, cs.hash)) };
}

export interface ParsedCommit {
  /** The commit as received (MLSMessage), forwarded unchanged in op 29. */
  message: Buffer;
  epoch: bigint;
  groupId: Uint8Array;
  /** The committer's leaf index in its (possibly pending) group. */
  senderLeaf: number;
  commit: Commit;
  welcome: Welcome | null;
}

/** Op 28: `MLSMessage commit` (a PublicMessage from a member) followed by an optional bare Welcome. */
export function parseCommitWelcome(input: Uint8Array): ParsedCommit {
  // ts-mls decoders want a plain array of their own (a pooled Buffer's byteOffset confuses some of them).
  const payload = Uint8Array.from(input);
  const decoded = safeDecode(() => decodeMlsMessage(payload, 0));
  if (!decoded) throw new DaveInputError('op 28: not an MLSMessage', 'decode');
  const [message, used] = decoded as [MLSMessage, number];
  if (message.wireformat !== 'mls_public_message')
    throw new DaveInputError('op 28: the commit must be a PublicMessage', 'invalid');
  const publicMessage: PublicMessage = message.publicMessage;
  const content = publicMessage.content;
  if (content.contentType !== 'commit' || content.sender.senderType !== 'member')
    throw new DaveInputError('op 28: not a commit from a member', 'invalid');
  let welcome: Welcome | null = null;
  if (used < payload.length) {
    const rest = payload.slice(used);
    const w = safeDecode(() => decodeWelcome(rest, 0));
    if (!w || w[1] !== rest.length) throw new DaveInputError('op 28: trailing bytes are not a Welcome', 'decode');
    welcome = w[0];
  }
  return {
    message: Buffer.from(payload.subarray(0, used)),
    epoch: content.epoch,
    groupId: content.groupId,
    senderLeaf: content.sender.leafIndex,
    commit: content.commit,
    welcome,
  };
}

/** The Welcome for one joiner: only its own EncryptedGroupSecrets (bare Welcome, op 30). */
export function welcomeFor(welcome: Welcome, keyPackageRef: string): Buffer | null {
  const secret = welcome.secrets.find((s) => hex(s.newMember) === keyPackageRef);
  return secret ? Buffer.from(encodeWelcome({ ...welcome, secrets: [secret] })) : null;
}

/** ts-mls decoders return undefined on most bad input but may throw on some: both mean "not decodable". */
function safeDecode<T>(decode: () => T | undefined): T | undefined {
  try {
    return decode();
  } catch {
    return undefined;
  }
}
