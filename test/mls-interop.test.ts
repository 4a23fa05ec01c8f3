// Interop of svcpp's MLS library (native/core/mls) with ts-mls, an independent implementation from the npm registry:
// key packages created by each side are decoded and validated by the other (both signatures, same KeyPackageRef),
// EncryptWithLabel / DecryptWithLabel (RFC 9420 §5.1.3 over HPKE, ciphersuite 2) work in both directions, and external
// Add/Remove proposals (what DAVE's voice server sends) made by ts-mls are authenticated by svcpp with the same
// ProposalRef, and svcpp's are decoded by ts-mls; and a group created by ts-mls is joined by svcpp through a Welcome,
// with the same epoch authenticator and exporter secrets (the DAVE sender-key base included); and the reverse: a group
// created by svcpp is joined by ts-mls members through svcpp's Welcome, who follow svcpp's add and remove commits (the
// removes with an UpdatePath), while svcpp follows a ts-mls member's remove commit with an UpdatePath.
// The C++ side is build/Release/svcpp_mls_interop (native/tests/core/mls/interop).
import { execFileSync, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getCiphersuiteFromName, getCiphersuiteImpl, generateKeyPackage, defaultLifetime } from 'ts-mls';
import type { Capabilities } from 'ts-mls';
import { decodeKeyPackage, encodeKeyPackage, makeKeyPackageRef, verifyKeyPackage } from 'ts-mls/keyPackage.js';
import { verifyLeafNodeSignatureKeyPackage } from 'ts-mls/leafNode.js';
import { decryptWithLabel, encryptWithLabel } from 'ts-mls/crypto/hpke.js';
import {
  acceptAll,
  createCommit,
  createGroup,
  decodeMlsMessage,
  emptyPskIndex,
  encodeMlsMessage,
  joinGroup,
  mlsExporter,
  processMessage,
} from 'ts-mls';
import type { ClientState, GroupContext, Proposal } from 'ts-mls';
import { decodeWelcome } from 'ts-mls/welcome.js';
import { addUnappliedProposal } from 'ts-mls/unappliedProposals.js';
import { protectExternalProposalPublic } from 'ts-mls/messageProtectionPublic.js';
import { encodeExternalSender } from 'ts-mls/externalSender.js';
import { makeProposalRef } from 'ts-mls/authenticatedContent.js';

const binary = join(import.meta.dirname, '../build/Release/svcpp_mls_interop');
const SUITE = 'MLS_128_DHKEMP256_AES128GCM_SHA256_P256' as const;

function run(...args: string[]): Record<string, unknown> {
  return JSON.parse(execFileSync(binary, args, { encoding: 'utf8' }));
}
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const bytes = (h: string) => new Uint8Array(Buffer.from(h, 'hex'));

// The DAVE profile of a leaf (as the DAVE clients send it).
const daveCapabilities: Capabilities = {
  versions: ['mls10'],
  ciphersuites: [SUITE],
  extensions: [],
  proposals: [],
  credentials: ['basic'],
};

describe('MLS interop with ts-mls', () => {
  it('the interop executable is built', () => {
    expect(existsSync(binary)).toBe(true);
  });

  it('ts-mls decodes and validates a key package svcpp created', async () => {
    const cs = await getCiphersuiteImpl(getCiphersuiteFromName(SUITE));
    const created = run('create-key-package', '1234567890123456789') as { keyPackage: string; ref: string };
    const decoded = decodeKeyPackage(bytes(created.keyPackage), 0);
    expect(decoded).toBeDefined();
    const [kp, consumed] = decoded!;
    expect(consumed).toBe(created.keyPackage.length / 2);
    expect(kp.cipherSuite).toBe(SUITE);
    expect(kp.leafNode.credential.credentialType).toBe('basic');
    expect(hex((kp.leafNode.credential as { identity: Uint8Array }).identity)).toBe(
      BigInt('1234567890123456789').toString(16).padStart(16, '0'),
    );
    expect(await verifyKeyPackage(kp, cs.signature)).toBe(true);
    expect(await verifyLeafNodeSignatureKeyPackage(kp.leafNode, cs.signature)).toBe(true);
    expect(hex(await makeKeyPackageRef(kp, cs.hash))).toBe(created.ref);
    expect(hex(encodeKeyPackage(kp))).toBe(created.keyPackage);
  });

  it('svcpp decodes and validates a key package ts-mls created', async () => {
    const cs = await getCiphersuiteImpl(getCiphersuiteFromName(SUITE));
    const identity = bytes('00000000000004d2');
    const { publicPackage } = await generateKeyPackage(
      { credentialType: 'basic', identity },
      daveCapabilities,
      defaultLifetime,
      [],
      cs,
    );
    const encoded = hex(encodeKeyPackage(publicPackage));
    const result = run('validate-key-package', encoded);
    expect(result).toEqual({
      ok: true,
      ref: hex(await makeKeyPackageRef(publicPackage, cs.hash)),
      identity: hex(identity),
    });
  });

  it('svcpp rejects a ts-mls key package whose signature was altered', async () => {
    const cs = await getCiphersuiteImpl(getCiphersuiteFromName(SUITE));
    const { publicPackage } = await generateKeyPackage(
      { credentialType: 'basic', identity: bytes('0000000000000001') },
      daveCapabilities,
      defaultLifetime,
      [],
      cs,
    );
    const tampered = { ...publicPackage, signature: publicPackage.signature.slice() };
    tampered.signature[tampered.signature.length - 1] ^= 1;
    const result = run('validate-key-package', hex(encodeKeyPackage(tampered)));
    expect(result.ok).toBe(false);
    expect(String(result.error)).toMatch(/signature/);
  });

  it('EncryptWithLabel by ts-mls opens in svcpp, and the reverse', async () => {
    const cs = await getCiphersuiteImpl(getCiphersuiteFromName(SUITE));
    const context = bytes('c0ffee');
    const secret = bytes('11'.repeat(32));

    // ts-mls seals to a key pair whose private key svcpp uses.
    const ikm = crypto.getRandomValues(new Uint8Array(32));
    const pair = await cs.hpke.deriveKeyPair(ikm);
    const sealed = await encryptWithLabel(pair.publicKey, 'UpdatePathNode', context, secret, cs.hpke);
    const privateHex = hex(await cs.hpke.exportPrivateKey(pair.privateKey));
    const opened = run('open-with-label', privateHex, 'UpdatePathNode', hex(context), hex(sealed.enc), hex(sealed.ct));
    expect(opened).toEqual({ ok: true, plaintext: hex(secret) });

    // svcpp seals to the same public key; ts-mls opens.
    const publicHex = hex(await cs.hpke.exportPublicKey(pair.publicKey));
    const ours = run('seal-with-label', publicHex, 'UpdatePathNode', hex(context), hex(secret)) as {
      kemOutput: string;
      ciphertext: string;
    };
    const plaintext = await decryptWithLabel(
      pair.privateKey,
      'UpdatePathNode',
      context,
      bytes(ours.kemOutput),
      bytes(ours.ciphertext),
      cs.hpke,
    );
    expect(hex(plaintext)).toBe(hex(secret));

    // A wrong label does not open.
    const wrong = run('open-with-label', privateHex, 'OtherLabel', hex(context), hex(sealed.enc), hex(sealed.ct));
    expect(wrong.ok).toBe(false);
  });

  describe('external proposals', () => {
    const groupId = bytes('0000000000000abc');
    const context: GroupContext = {
      version: 'mls10',
      cipherSuite: SUITE,
      groupId,
      epoch: 4n,
      treeHash: new Uint8Array(32),
      confirmedTranscriptHash: new Uint8Array(32),
      extensions: [],
    };

    async function externalProposal(proposal: Proposal) {
      const cs = await getCiphersuiteImpl(getCiphersuiteFromName(SUITE));
      const server = await cs.signature.keygen();
      const sender = encodeExternalSender({
        signaturePublicKey: server.publicKey,
        credential: { credentialType: 'basic', identity: bytes('0000000000000000') },
      });
      const { publicMessage } = await protectExternalProposalPublic(
        server.signKey,
        context,
        new Uint8Array(),
        proposal,
        { senderType: 'external', senderIndex: 0 },
        cs,
      );
      const message = encodeMlsMessage({ version: 'mls10', wireformat: 'mls_public_message', publicMessage });
      const ref = await makeProposalRef(
        { wireformat: 'mls_public_message', content: publicMessage.content, auth: publicMessage.auth },
        cs.hash,
      );
      return { sender: hex(sender), message: hex(message), ref: hex(ref) };
    }

    it('svcpp authenticates an external Add made by ts-mls', async () => {
      const cs = await getCiphersuiteImpl(getCiphersuiteFromName(SUITE));
      const { publicPackage } = await generateKeyPackage(
        { credentialType: 'basic', identity: bytes('0000000000000007') },
        daveCapabilities,
        defaultLifetime,
        [],
        cs,
      );
      const p = await externalProposal({ proposalType: 'add', add: { keyPackage: publicPackage } });
      const result = run('process-external-proposal', p.sender, hex(groupId), '4', p.message);
      expect(result).toEqual({ ok: true, type: 1, removed: 0, identity: '0000000000000007', ref: p.ref });
    });

    it('svcpp authenticates an external Remove made by ts-mls, and refuses it for another epoch', async () => {
      const p = await externalProposal({ proposalType: 'remove', remove: { removed: 2 } });
      expect(run('process-external-proposal', p.sender, hex(groupId), '4', p.message)).toEqual({
        ok: true,
        type: 3,
        removed: 2,
        identity: '',
        ref: p.ref,
      });
      const stale = run('process-external-proposal', p.sender, hex(groupId), '5', p.message);
      expect(stale.ok).toBe(false);
      expect(String(stale.error)).toMatch(/epoch/);
    });

    it('ts-mls decodes an external Remove made by svcpp', () => {
      const created = run('create-external-remove', hex(groupId), '4', '6') as {
        externalSender: string;
        message: string;
      };
      const decoded = decodeMlsMessage(bytes(created.message), 0);
      expect(decoded).toBeDefined();
      const [message, consumed] = decoded!;
      expect(consumed).toBe(created.message.length / 2);
      expect(message.wireformat).toBe('mls_public_message');
      if (message.wireformat !== 'mls_public_message') return;
      const { content } = message.publicMessage;
      expect(hex(content.groupId)).toBe(hex(groupId));
      expect(content.epoch).toBe(4n);
      expect(content.sender).toEqual({ senderType: 'external', senderIndex: 0 });
      expect(content.contentType).toBe('proposal');
      if (content.contentType !== 'proposal') return;
      expect(content.proposal).toEqual({ proposalType: 'remove', remove: { removed: 6 } });
    });
  });

  describe('joining a ts-mls group through a Welcome', () => {
    // Runs `svcpp_mls_interop join-welcome`: it prints its key package, answers the Welcome we send it, then each
    // commit.
    async function startSvcppMember(userId: bigint) {
      const child = spawn(binary, ['join-welcome', userId.toString()], { stdio: ['pipe', 'pipe', 'inherit'] });
      const exited = new Promise((resolve) => child.on('exit', resolve));
      const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
      const next = async () => JSON.parse((await lines.next()).value as string) as Record<string, unknown>;
      const first = (await next()) as { keyPackage: string };
      return {
        keyPackageHex: first.keyPackage,
        async send(lineHex: string) {
          child.stdin!.write(`${lineHex}\n`);
          return next();
        },
        async close() {
          child.stdin!.end();
          await exited;
        },
      };
    }

    async function joinWithSvcpp(userId: bigint, welcomeFor: (keyPackageHex: string) => Promise<string>) {
      const member = await startSvcppMember(userId);
      const answer = await member.send(await welcomeFor(member.keyPackageHex));
      await member.close();
      return answer;
    }

    it('svcpp joins and derives the same exporter secrets as the ts-mls member', async () => {
      const cs = await getCiphersuiteImpl(getCiphersuiteFromName(SUITE));
      const creator = await generateKeyPackage(
        { credentialType: 'basic', identity: bytes('0000000000000001') },
        daveCapabilities,
        defaultLifetime,
        [],
        cs,
      );
      const state = await createGroup(bytes('00000000000000c4'), creator.publicPackage, creator.privatePackage, [], cs);
      let creatorState = state;
      const answer = await joinWithSvcpp(2n, async (keyPackageHex) => {
        const [keyPackage] = decodeKeyPackage(bytes(keyPackageHex), 0)!;
        const result = await createCommit(
          { state, cipherSuite: cs },
          {
            extraProposals: [{ proposalType: 'add', add: { keyPackage } }],
            ratchetTreeExtension: true,
          },
        );
        creatorState = result.newState;
        expect(result.welcome).toBeDefined();
        return hex(encodeMlsMessage({ version: 'mls10', wireformat: 'mls_welcome', welcome: result.welcome! }));
      });
      const exporterSecret = creatorState.keySchedule.exporterSecret;
      const userIdLe = new Uint8Array(8);
      new DataView(userIdLe.buffer).setBigUint64(0, 2n, true);
      expect(answer).toEqual({
        ok: true,
        epoch: 1,
        ownLeaf: 1,
        epochAuthenticator: hex(creatorState.keySchedule.epochAuthenticator),
        exporter: hex(await mlsExporter(exporterSecret, 'svcpp interop', new Uint8Array(), 32, cs)),
        daveBaseSecret: hex(await mlsExporter(exporterSecret, 'Discord Secure Frames v0', userIdLe, 16, cs)),
      });
    });

    it('svcpp refuses a Welcome that was not made for its key package', async () => {
      const cs = await getCiphersuiteImpl(getCiphersuiteFromName(SUITE));
      const creator = await generateKeyPackage(
        { credentialType: 'basic', identity: bytes('0000000000000001') },
        daveCapabilities,
        defaultLifetime,
        [],
        cs,
      );
      const other = await generateKeyPackage(
        { credentialType: 'basic', identity: bytes('0000000000000003') },
        daveCapabilities,
        defaultLifetime,
        [],
        cs,
      );
      const state = await createGroup(bytes('00000000000000c5'), creator.publicPackage, creator.privatePackage, [], cs);
      const answer = await joinWithSvcpp(2n, async () => {
        const result = await createCommit(
          { state, cipherSuite: cs },
          {
            extraProposals: [{ proposalType: 'add', add: { keyPackage: other.publicPackage } }],
            ratchetTreeExtension: true,
          },
        );
        return hex(encodeMlsMessage({ version: 'mls10', wireformat: 'mls_welcome', welcome: result.welcome! }));
      });
      expect(answer.ok).toBe(false);
      expect(String(answer.error)).toMatch(/no group secrets/);
    });

    it('svcpp follows the ts-mls group through an add commit, and refuses a tampered one', async () => {
      const cs = await getCiphersuiteImpl(getCiphersuiteFromName(SUITE));
      const creator = await generateKeyPackage(
        { credentialType: 'basic', identity: bytes('0000000000000001') },
        daveCapabilities,
        defaultLifetime,
        [],
        cs,
      );
      let state = await createGroup(bytes('00000000000000c6'), creator.publicPackage, creator.privatePackage, [], cs);
      const member = await startSvcppMember(2n);
      const [keyPackage] = decodeKeyPackage(bytes(member.keyPackageHex), 0)!;
      const joined = await createCommit(
        { state, cipherSuite: cs },
        {
          extraProposals: [{ proposalType: 'add', add: { keyPackage } }],
          ratchetTreeExtension: true,
        },
      );
      state = joined.newState;
      const welcome = await member.send(
        hex(encodeMlsMessage({ version: 'mls10', wireformat: 'mls_welcome', welcome: joined.welcome! })),
      );
      expect(welcome.ok).toBe(true);

      // The creator adds a third member (by value, no UpdatePath: what DAVE's adds-only commits look like).
      const third = await generateKeyPackage(
        { credentialType: 'basic', identity: bytes('0000000000000003') },
        daveCapabilities,
        defaultLifetime,
        [],
        cs,
      );
      const added = await createCommit(
        { state, cipherSuite: cs },
        {
          extraProposals: [{ proposalType: 'add', add: { keyPackage: third.publicPackage } }],
          wireAsPublicMessage: true,
          ratchetTreeExtension: true,
        },
      );
      const commitHex = hex(encodeMlsMessage(added.commit));
      const tampered = bytes(commitHex);
      tampered[tampered.length - 40] ^= 1; // inside the signature / tags
      const refused = await member.send(hex(tampered));
      expect(refused.ok).toBe(false);

      const answer = await member.send(commitHex);
      await member.close();
      expect(answer).toEqual({
        ok: true,
        epoch: 2,
        epochAuthenticator: hex(added.newState.keySchedule.epochAuthenticator),
        exporter: hex(
          await mlsExporter(added.newState.keySchedule.exporterSecret, 'svcpp interop', new Uint8Array(), 32, cs),
        ),
      });
    });
  });

  describe('a group created by svcpp', () => {
    // Runs `svcpp_mls_interop host-group`: svcpp creates the group (with a voice-server external sender), commits the
    // external sender's Add/Remove proposals itself, and processes other members' commits.
    async function startSvcppHost(userId: bigint, groupId: Uint8Array) {
      const child = spawn(binary, ['host-group', userId.toString(), hex(groupId)], {
        stdio: ['pipe', 'pipe', 'inherit'],
      });
      const exited = new Promise((resolve) => child.on('exit', resolve));
      const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
      const next = async () => JSON.parse((await lines.next()).value as string) as Record<string, unknown>;
      await next(); // {"externalSender": …}
      return {
        async send(line: string) {
          child.stdin!.write(`${line}\n`);
          return next();
        },
        async close() {
          child.stdin!.end();
          await exited;
        },
      };
    }

    async function tsMember(identityHex: string) {
      const cs = await getCiphersuiteImpl(getCiphersuiteFromName(SUITE));
      const kp = await generateKeyPackage(
        { credentialType: 'basic', identity: bytes(identityHex) },
        daveCapabilities,
        defaultLifetime,
        [],
        cs,
      );
      return { cs, kp };
    }

    async function exporterOf(
      state: { keySchedule: { exporterSecret: Uint8Array } },
      cs: Awaited<ReturnType<typeof getCiphersuiteImpl>>,
    ) {
      return hex(await mlsExporter(state.keySchedule.exporterSecret, 'svcpp interop', new Uint8Array(), 32, cs));
    }

    // A ts-mls member follows svcpp's commit: first the external sender's proposal, then the commit referencing it.
    // ts-mls 1.6.4 reads each external_senders extension as ONE ExternalSender, where RFC 9420 §12.1.8.1 (and DAVE's
    // voice server) puts the list `ExternalSender external_senders<V>` in one extension; so ts-mls cannot authenticate
    // the proposal against svcpp's (RFC) GroupContext. The proposal is entered into its cache under the ProposalRef
    // ts-mls computes itself; the commit is then processed and checked by ts-mls in full.
    async function follow(
      state: ClientState,
      answer: Record<string, unknown>,
      cs: Awaited<ReturnType<typeof getCiphersuiteImpl>>,
    ) {
      const [proposal] = decodeMlsMessage(bytes(answer.proposal as string), 0)!;
      if (proposal.wireformat !== 'mls_public_message' || proposal.publicMessage.content.contentType !== 'proposal') {
        throw new Error('the proposal is not a PublicMessage proposal');
      }
      const { content, auth } = proposal.publicMessage;
      const ref = await makeProposalRef({ wireformat: 'mls_public_message', content, auth }, cs.hash);
      state = {
        ...state,
        unappliedProposals: addUnappliedProposal(ref, state.unappliedProposals, content.proposal, undefined),
      };
      const [commit] = decodeMlsMessage(bytes(answer.commit as string), 0)!;
      if (commit.wireformat !== 'mls_public_message') throw new Error('the commit is not a PublicMessage');
      return (await processMessage(commit, state, emptyPskIndex, acceptAll, cs)).newState;
    }

    it("ts-mls joins through svcpp's Welcome and follows its add and remove commits", async () => {
      const host = await startSvcppHost(1n, bytes('00000000000000d1'));
      const b = await tsMember('0000000000000002');
      const added = await host.send(`add ${hex(encodeKeyPackage(b.kp.publicPackage))}`);
      expect(added.ok).toBe(true);
      const welcome = decodeWelcome(bytes(added.welcome as string), 0)![0];
      let bState = await joinGroup(welcome, b.kp.publicPackage, b.kp.privatePackage, emptyPskIndex, b.cs);
      expect(bState.groupContext.epoch).toBe(1n);
      expect(hex(bState.keySchedule.epochAuthenticator)).toBe(added.epochAuthenticator);
      expect(await exporterOf(bState, b.cs)).toBe(added.exporter);

      // A third member (ts-mls), added by svcpp: the second ts-mls member follows by reference.
      const c = await tsMember('0000000000000003');
      const addedC = await host.send(`add ${hex(encodeKeyPackage(c.kp.publicPackage))}`);
      expect(addedC.ok).toBe(true);
      bState = await follow(bState, addedC, b.cs);
      let cState = await joinGroup(
        decodeWelcome(bytes(addedC.welcome as string), 0)![0],
        c.kp.publicPackage,
        c.kp.privatePackage,
        emptyPskIndex,
        c.cs,
      );
      expect(hex(bState.keySchedule.epochAuthenticator)).toBe(addedC.epochAuthenticator);
      expect(hex(cState.keySchedule.epochAuthenticator)).toBe(addedC.epochAuthenticator);

      // svcpp removes B (a commit with an UpdatePath): C follows it.
      const removed = await host.send('remove 1');
      expect(removed.ok).toBe(true);
      expect(removed.epoch).toBe(3);
      const [removeCommit] = decodeMlsMessage(bytes(removed.commit as string), 0)!;
      expect(
        removeCommit.wireformat === 'mls_public_message' &&
          removeCommit.publicMessage.content.contentType === 'commit' &&
          removeCommit.publicMessage.content.commit.path !== undefined,
      ).toBe(true);
      cState = await follow(cState, removed, c.cs);
      expect(cState.groupContext.epoch).toBe(3n);
      expect(hex(cState.keySchedule.epochAuthenticator)).toBe(removed.epochAuthenticator);
      expect(await exporterOf(cState, c.cs)).toBe(removed.exporter);
      await host.close();
    });

    it("svcpp follows a ts-mls member's commit that removes a member with an UpdatePath", async () => {
      const host = await startSvcppHost(1n, bytes('00000000000000d2'));
      const [b, c, d] = await Promise.all(['0000000000000002', '0000000000000003', '0000000000000004'].map(tsMember));
      const addedB = await host.send(`add ${hex(encodeKeyPackage(b.kp.publicPackage))}`);
      let bState = await joinGroup(
        decodeWelcome(bytes(addedB.welcome as string), 0)![0],
        b.kp.publicPackage,
        b.kp.privatePackage,
        emptyPskIndex,
        b.cs,
      );
      const addedC = await host.send(`add ${hex(encodeKeyPackage(c.kp.publicPackage))}`);
      bState = await follow(bState, addedC, b.cs);
      const addedD = await host.send(`add ${hex(encodeKeyPackage(d.kp.publicPackage))}`);
      bState = await follow(bState, addedD, b.cs);
      let dState = await joinGroup(
        decodeWelcome(bytes(addedD.welcome as string), 0)![0],
        d.kp.publicPackage,
        d.kp.privatePackage,
        emptyPskIndex,
        d.cs,
      );

      // B (ts-mls) removes C (leaf 2): the commit carries an UpdatePath svcpp must decrypt.
      const result = await createCommit(
        { state: bState, cipherSuite: b.cs },
        {
          extraProposals: [{ proposalType: 'remove', remove: { removed: 2 } }],
          wireAsPublicMessage: true,
        },
      );
      const commit = encodeMlsMessage(result.commit);
      const tampered = new Uint8Array(commit);
      tampered[tampered.length - 40] ^= 1;
      const refused = await host.send(`commit ${hex(tampered)}`);
      expect(refused.ok).toBe(false);
      const answer = await host.send(`commit ${hex(commit)}`);
      expect(answer).toEqual({
        ok: true,
        epoch: 4,
        epochAuthenticator: hex(result.newState.keySchedule.epochAuthenticator),
        exporter: await exporterOf(result.newState, b.cs),
      });
      if (result.commit.wireformat !== 'mls_public_message') throw new Error('the commit is not a PublicMessage');
      dState = (await processMessage(result.commit, dState, emptyPskIndex, acceptAll, d.cs)).newState;

      // Then svcpp removes B with its own path commit, in the epoch ts-mls's commit produced: D follows.
      const removedB = await host.send('remove 1');
      expect(removedB.ok).toBe(true);
      dState = await follow(dState, removedB, d.cs);
      expect(dState.groupContext.epoch).toBe(5n);
      expect(hex(dState.keySchedule.epochAuthenticator)).toBe(removedB.epochAuthenticator);
      expect(await exporterOf(dState, d.cs)).toBe(removedB.exporter);
      await host.close();
    });
  });
});
