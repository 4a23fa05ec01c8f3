/**
 * DAVE end-to-end encryption with the platform as external sender and relay (PROTOCOL.md §13.7), driven by
 * independent peers: `@snazzah/davey` (OpenMLS) sessions behind the test voice client, over the real voice gateway
 * and the real UDP relay. The relay tap (a devMode start option) shows what the platform can see of the media.
 */
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { DaveService } from '../../src/voice/dave/service.js';
import { startTestPlatform } from '../support/platform.js';
import { DavePeer } from '../support/dave-peer.js';
import { startVoiceHarness, type Member, type VoiceHarness } from '../support/voice-harness.js';

let h: VoiceHarness | undefined;
const peers: DavePeer[] = [];
afterEach(async () => {
  await Promise.all(peers.splice(0).map((p) => p.close().catch(() => undefined)));
  await h?.close();
  h = undefined;
});

const MODE = 'aead_aes256_gcm_rtpsize' as const;
/** A recognisable Opus-like frame: TOC byte, sender, sequence number. */
const frame = (sender: number, n: number): Buffer =>
  Buffer.concat([Buffer.from([0xfc, sender]), Buffer.from(`opus-frame-${sender}-${n}-`.padEnd(40, 'x'))]);

async function until(what: string, check: () => boolean, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) {
      const states = peers.map(
        (p) => `${p.userId} ops ${p.ops.join(',')} status ${p.session.status} epoch ${p.session.epoch}`,
      );
      throw new Error(`timed out waiting for ${what}; peers: ${states.join(' | ')}`);
    }
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function join(member: Member, lobbyId: string, directory: Map<number, string>): Promise<DavePeer> {
  const client = await h!.joinCall(member, lobbyId, MODE, { maxDaveVersion: 1 });
  const peer = new DavePeer(client, lobbyId, directory);
  peers.push(peer);
  return peer;
}

/** Every peer in `group` is ready at the same epoch with the same voice privacy code. */
async function agreed(group: DavePeer[]): Promise<void> {
  await until(`a common epoch for ${group.length} peers`, () => {
    if (!group.every((p) => p.session.ready)) return false;
    const epochs = new Set(group.map((p) => String(p.session.epoch)));
    const codes = new Set(group.map((p) => p.session.voicePrivacyCode));
    return epochs.size === 1 && codes.size === 1;
  });
}

describe('DAVE: the platform as external sender (davey peers)', () => {
  it('forms a group, adds a late joiner, and relays only ciphertext that the members decrypt', async () => {
    const tapped: Buffer[] = [];
    h = await startVoiceHarness({ voice: { relayTap: (p) => tapped.push(p.payload) } });
    const { lobbyId, members } = await h.lobby(['a', 'b', 'c']);
    const directory = new Map<number, string>();
    const a = await join(members[0]!, lobbyId, directory);
    const b = await join(members[1]!, lobbyId, directory);
    await agreed([a, b]);
    expect(a.client.sessionDescription.d.dave_protocol_version).toBe(1);
    expect(h.platform.voice.dave(lobbyId)).toMatchObject({ epoch: 1n });

    // The late joiner: added by an external proposal, welcomed, and every member agrees on the next epoch.
    const c = await join(members[2]!, lobbyId, directory);
    await agreed([a, b, c]);
    expect(a.session.epoch).toBe(2n);
    expect(h.platform.voice.dave(lobbyId)?.leaves).toEqual([a.userId, b.userId, c.userId]);

    const sent: Buffer[] = [];
    for (let n = 0; n < 20; n++) {
      const plain = frame(1, n);
      sent.push(plain);
      const out = a.sendOpus(plain);
      expect(out.subarray(-2)).toEqual(Buffer.from([0xfa, 0xfa]));
    }
    await until(
      '20 frames at b and c',
      () => (b.decrypted.get(a.userId)?.length ?? 0) === 20 && (c.decrypted.get(a.userId)?.length ?? 0) === 20,
    );
    expect(b.decrypted.get(a.userId)).toEqual(sent);
    expect(c.decrypted.get(a.userId)).toEqual(sent);
    // What the relay saw after transport decryption: DAVE frames (0xFAFA marker), none containing a sent frame.
    expect(tapped.length).toBeGreaterThanOrEqual(20);
    for (const payload of tapped) {
      expect(payload.subarray(-2)).toEqual(Buffer.from([0xfa, 0xfa]));
      for (const plain of sent) expect(payload.includes(plain.subarray(2, 20))).toBe(false);
    }
  });

  it('removes a member who leaves; it cannot decrypt what is sent after the epoch change; sole-member reset', async () => {
    h = await startVoiceHarness();
    const { lobbyId, members } = await h.lobby(['a', 'b', 'c']);
    const directory = new Map<number, string>();
    const [a, b, c] = [
      await join(members[0]!, lobbyId, directory),
      await join(members[1]!, lobbyId, directory),
      await join(members[2]!, lobbyId, directory),
    ];
    await agreed([a, b, c]);
    const before = a.session.epoch!;

    // c leaves the call (op 4 with channel_id null): a remove proposal, a commit, a new epoch for a and b.
    members[2]!.gateway.send(4, { guild_id: null, channel_id: null, self_mute: false, self_deaf: false });
    await until(
      'the epoch after the removal',
      () => a.session.epoch === before + 1n && b.session.epoch === before + 1n,
    );
    await agreed([a, b]);
    expect(h.platform.voice.dave(lobbyId)?.leaves).toEqual([a.userId, b.userId]);
    const secret = frame(1, 99);
    const ciphertext = a.sendOpus(secret);
    await until('b decrypts after the removal', () => (b.decrypted.get(a.userId) ?? []).some((f) => f.equals(secret)));
    // The removed member's last state cannot open a frame of the new epoch.
    expect(() => c.session.decrypt(a.userId, 0, ciphertext)).toThrow();

    // b leaves: a is alone → op 24 epoch 1 + op 21 transition 0, and a sends a fresh key package.
    members[1]!.gateway.send(4, { guild_id: null, channel_id: null, self_mute: false, self_deaf: false });
    await until('the sole-member reset', () => a.ops.includes(24) && a.ops.includes(21));
    await until('a back to a pending group', () => !a.session.ready);
    await until('the service reset', () => h!.platform.voice.dave(lobbyId)?.epoch === 0n);
  });

  it('no audio lost at key changes: members join and leave while six stay and talk (lost = 0)', async () => {
    h = await startVoiceHarness();
    // A 10-participant call: six stay and talk the whole time, four come and go one after another.
    const names = ['s1', 's2', 's3', 's4', 's5', 's6', 'v1', 'v2', 'v3', 'v4'];
    const { lobbyId, members } = await h.lobby(names);
    const directory = new Map<number, string>();
    const stayers: DavePeer[] = [];
    for (const m of members.slice(0, 6)) stayers.push(await join(m, lobbyId, directory));
    await agreed(stayers);

    const sent = new Map<string, Buffer[]>(stayers.map((p) => [p.userId, []]));
    let n = 0;
    const talk = setInterval(() => {
      stayers.forEach((p, i) => {
        const plain = frame(i, n);
        sent.get(p.userId)!.push(plain);
        p.sendOpus(plain);
      });
      n++;
    }, 20);
    const transitions: number[] = [];
    const heardByVisitors: { v: DavePeer; from: number; to: number }[] = [];
    try {
      // Visitors join and leave one after another: every change is a commit and a transition.
      for (const visitor of members.slice(6)) {
        const epoch = stayers[0]!.session.epoch!;
        const started = Date.now();
        const v = await join(visitor, lobbyId, directory);
        await agreed([...stayers, v]);
        transitions.push(Date.now() - started);
        expect(stayers[0]!.session.epoch).toBe(epoch + 1n);
        // The late joiner hears every frame sent after the transition that added it (until it leaves).
        const from = n;
        await new Promise((r) => setTimeout(r, 200));
        const to = n;
        await new Promise((r) => setTimeout(r, 100));
        heardByVisitors.push({ v, from, to });
        visitor.gateway.send(4, { guild_id: null, channel_id: null, self_mute: false, self_deaf: false });
        await until('the removal commit', () => stayers.every((p) => p.session.epoch === epoch + 2n));
        await new Promise((r) => setTimeout(r, 200));
      }
    } finally {
      clearInterval(talk);
    }
    let lost = 0;
    let decrypted = 0;
    let total = 0;
    for (const sender of stayers) {
      const frames = sent.get(sender.userId)!;
      for (const receiver of stayers) {
        if (receiver === sender) continue;
        total += frames.length;
        await until(
          `${receiver.userId} has ${sender.userId}'s frames`,
          () => (receiver.decrypted.get(sender.userId)?.length ?? 0) >= frames.length,
          5000,
        ).catch(() => undefined);
        const got = new Set((receiver.decrypted.get(sender.userId) ?? []).map((f) => f.toString('hex')));
        const missing = frames.filter((f) => !got.has(f.toString('hex'))).length;
        lost += missing;
        decrypted += frames.length - missing;
      }
    }
    let lateMissing = 0;
    let lateExpected = 0;
    for (const { v, from, to } of heardByVisitors) {
      for (const sender of stayers) {
        const got = new Set((v.decrypted.get(sender.userId) ?? []).map((f) => f.toString('hex')));
        const expected = sent.get(sender.userId)!.slice(from, to);
        lateExpected += expected.length;
        lateMissing += expected.filter((f) => !got.has(f.toString('hex'))).length;
      }
    }
    console.log(
      `dave churn: stayer→stayer frames expected ${total}, decrypted ${decrypted}, lost ${lost}; ` +
        `late joiners: expected ${lateExpected}, lost ${lateMissing}; ` +
        `transition windows (join → common epoch) ${transitions.join(', ')} ms`,
    );
    expect(lost).toBe(0);
    expect(decrypted).toBe(total);
    expect(lateExpected).toBeGreaterThan(0);
    expect(lateMissing).toBe(0);
  });
});

describe('DAVE: recovery', () => {
  it('op 31: a member that failed a transition is removed and re-added, and the group agrees again', async () => {
    h = await startVoiceHarness();
    const { lobbyId, members } = await h.lobby(['a', 'b', 'c']);
    const directory = new Map<number, string>();
    const [a, b, c] = [
      await join(members[0]!, lobbyId, directory),
      await join(members[1]!, lobbyId, directory),
      await join(members[2]!, lobbyId, directory),
    ];
    await agreed([a, b, c]);
    const epoch = h.platform.voice.dave(lobbyId)!.epoch;
    const leaves = h.platform.voice.dave(lobbyId)!.leaves;
    b.invalidate(1);
    // b's removal and its re-add (in one commit, or two when a member commits the removal before b's new key
    // package arrives); b gets its old leaf back, the leftmost blank.
    await until('the recovery commits', () => h!.platform.voice.dave(lobbyId)!.epoch > epoch && b.session.ready);
    await agreed([a, b, c]);
    expect(h.platform.voice.dave(lobbyId)?.leaves).toEqual(leaves);
    const plain = frame(2, 1);
    b.sendOpus(plain);
    await until('a and c decrypt b again', () =>
      [a, c].every((p) => (p.decrypted.get(b.userId) ?? []).some((f) => f.equals(plain))),
    );
  });
});

describe('DAVE: transitions', () => {
  it('op 22 goes out once every member confirmed with op 23, or after the timeout when one never does', async () => {
    h = await startVoiceHarness({ voice: { daveTransitionTimeoutMs: 1500 } });
    const { lobbyId, members } = await h.lobby(['a', 'b', 'c']);
    const directory = new Map<number, string>();
    const a = await join(members[0]!, lobbyId, directory);
    const b = await join(members[1]!, lobbyId, directory);
    await agreed([a, b]);
    await until('op 22 for the first epoch', () => a.ops.includes(22) && b.ops.includes(22));
    // b stops confirming: the next transition (c joins) executes only when the timeout passes.
    b.confirmsTransitions = false;
    const executed = a.ops.filter((op) => op === 22).length;
    const c = await join(members[2]!, lobbyId, directory);
    await agreed([a, b, c]);
    // b never sent op 23 for it, so only the timeout can have executed this transition.
    await until(
      'op 22 after the timeout',
      () => a.ops.filter((op) => op === 22).length > executed && c.ops.includes(22),
      5000,
    );
  });
});

describe('DAVE: policy and bad input', () => {
  it('refuses a client that announces no DAVE support with 4017 (no unencrypted calls)', async () => {
    h = await startVoiceHarness();
    const { lobbyId, members } = await h.lobby(['plain']);
    await expect(h.joinCall(members[0]!, lobbyId, MODE)).rejects.toThrow();
    expect(h.platform.voice.stats().calls[lobbyId]).toBeUndefined();
  });

  it('refuses the relay tap outside development mode', async () => {
    await expect(startTestPlatform({ devMode: false, voice: { relayTap: () => undefined } })).rejects.toThrow(
      /relayTap needs devMode/,
    );
  });

  it('closes a malformed op 26 with 4002 and a key package of another user with 4020', async () => {
    h = await startVoiceHarness();
    const { lobbyId, members } = await h.lobby(['x', 'y']);
    const x = await h.joinCall(members[0]!, lobbyId, MODE, { maxDaveVersion: 1 });
    x.socket.sendRaw(Buffer.from([26, 0x00, 0x01, 0xff]));
    expect((await x.socket.expectClose()).code).toBe(4002);

    const y = await h.joinCall(members[1]!, lobbyId, MODE, { maxDaveVersion: 1 });
    const davey = (await import('@snazzah/davey')).default;
    const stranger = new davey.DAVESession(1, '123456789', lobbyId);
    y.socket.sendRaw(Buffer.concat([Buffer.from([26]), stranger.getSerializedKeyPackage()]));
    expect((await y.socket.expectClose()).code).toBe(4020);
  });

  it('drops a commit for a stale epoch; a malformed op 28 closes with 4002; server-only ops close with 4001', async () => {
    const dropped: string[] = [];
    h = await startVoiceHarness({
      voice: {
        dave: new DaveService({
          logger: pino({ level: 'silent' }),
          onCommitDropped: (_lobby, problem) => dropped.push(problem),
        }),
      },
    });
    const { lobbyId, members } = await h.lobby(['a', 'b', 'z']);
    const directory = new Map<number, string>();
    const a = await join(members[0]!, lobbyId, directory);
    const b = await join(members[1]!, lobbyId, directory);
    await agreed([a, b]);
    const state = h.platform.voice.dave(lobbyId)!;
    const announced = b.ops.filter((op) => op === 29 || op === 30).length;
    // a's epoch-0 commit again, now that the group is at epoch 1: dropped, nothing changes.
    const before = dropped.length;
    a.client.socket.sendRaw(Buffer.concat([Buffer.from([28]), a.commits[0]!]));
    await until('the replay dropped', () => dropped.length > before);
    expect(dropped.at(-1)).toBe(`epoch 0, current ${state.epoch}`);
    expect(h.platform.voice.dave(lobbyId)).toEqual(state);
    expect(b.ops.filter((op) => op === 29 || op === 30).length).toBe(announced);
    a.client.socket.sendRaw(Buffer.from([28, 0xff, 0x00]));
    expect((await a.client.socket.expectClose()).code).toBe(4002);

    const z = await h.joinCall(members[2]!, lobbyId, MODE, { maxDaveVersion: 1 });
    z.socket.send(22, { transition_id: 1 });
    expect((await z.socket.expectClose()).code).toBe(4001);
  });
});
