/**
 * DAVE with unmodified @discordjs/voice 0.19.2 clients (its own DAVE stack, @snazzah/davey) and a davey test peer,
 * the platform being the external sender: the library's connections form the group, a third member joins, a
 * member leaves, and the relay (tapped) only ever sees DAVE ciphertext of what the library plays.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DavePeer } from '../support/dave-peer.js';
import { peerPacket } from '../support/discordjs-peer-packets.js';
import { startLibraryPeer, tlsVoiceHarness, type LibraryPeer } from '../support/discordjs-runner.js';
import type { Member, VoiceHarness } from '../support/voice-harness.js';

let h: VoiceHarness | undefined;
const libraries: LibraryPeer[] = [];
const peers: DavePeer[] = [];
afterEach(async () => {
  for (const l of libraries.splice(0)) l.process.kill();
  await Promise.all(peers.splice(0).map((p) => p.close().catch(() => undefined)));
  await h?.close();
  h = undefined;
});

const SILENCE = Buffer.from([0xf8, 0xff, 0xfe]);
const played = Array.from({ length: 10 }, (_, n) => peerPacket(100 + n));

async function code(library: LibraryPeer): Promise<string | null> {
  library.send('code');
  return (await library.nextWhere((e) => e.event === 'code')).code as string | null;
}

/** Polls until every library shows the same non-null voice privacy code (and the davey peers show it too). */
async function sameCode(libs: LibraryPeer[], davey: DavePeer[] = []): Promise<string> {
  for (let i = 0; i < 300; i++) {
    const codes = await Promise.all(libs.map(code));
    const all = [...codes, ...davey.map((p) => (p.session.ready ? p.session.voicePrivacyCode : null))];
    if (all[0] && all.every((c) => c === all[0])) return all[0];
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the members never agreed on a voice privacy code');
}

describe('DAVE with @discordjs/voice 0.19.2 (unmodified) peers', () => {
  it('two library clients and a davey peer: group, join, leave; the relay sees only ciphertext', async () => {
    const tapped: { userId: string; payload: Buffer }[] = [];
    const directory = new Map<number, string>();
    const { harness, caFile } = await tlsVoiceHarness({
      voice: {
        relayTap: (p) => {
          directory.set(p.ssrc, p.userId);
          tapped.push({ userId: p.userId, payload: p.payload });
        },
      },
    });
    h = harness;
    const { lobbyId, members } = await h.lobby(['lib1', 'lib2', 'tester']);
    const [m1, m2, tester] = members as [Member, Member, Member];
    const start = (m: Member, listenTo: Member) => {
      const lib = startLibraryPeer(caFile, {
        gatewayUrl: h!.platform.gatewayUrl,
        token: m.user.token,
        userId: m.user.id,
        lobbyId,
        listenTo: listenTo.user.id,
      });
      libraries.push(lib);
      return lib;
    };
    const lib1 = start(m1, m2);
    const ready1 = await lib1.nextWhere((e) => e.event === 'ready');
    expect((ready1.debug as string[]).join('\n')).toMatch(/"dave_protocol_version":1/);
    const lib2 = start(m2, m1);
    await lib2.nextWhere((e) => e.event === 'ready');
    const first = await sameCode([lib1, lib2]);
    expect(h.platform.voice.dave(lobbyId)).toEqual({ epoch: 1n, leaves: [expect.any(String), expect.any(String)] });

    // lib1 plays: lib2 (the library's own DAVE decryptor) gets every frame as played.
    lib1.send('play');
    await lib1.nextWhere((e) => e.event === 'played');
    const heard: string[] = [];
    while (heard.length < played.length) {
      const packet = await lib2.nextWhere((e) => e.event === 'packet');
      if (packet.hex !== SILENCE.toString('hex')) heard.push(packet.hex as string);
    }
    expect(heard).toEqual(played.map((p) => p.toString('hex')));
    const fromLib1 = tapped.filter((t) => t.userId === m1.user.id && !t.payload.equals(SILENCE));
    expect(fromLib1.length).toBe(played.length);
    for (const t of fromLib1) {
      expect(t.payload.subarray(-2)).toEqual(Buffer.from([0xfa, 0xfa]));
      for (const p of played) expect(t.payload.includes(p)).toBe(false);
    }

    // A davey peer joins the established group (late joiner): a new epoch everyone agrees on.
    const client = await h.joinCall(tester, lobbyId, 'aead_aes256_gcm_rtpsize', { maxDaveVersion: 1 });
    const davey = new DavePeer(client, lobbyId, directory);
    peers.push(davey);
    const second = await sameCode([lib1, lib2], [davey]);
    expect(second).not.toBe(first);
    lib1.send('play');
    await lib1.nextWhere((e) => e.event === 'played');
    for (
      let i = 0;
      i < 300 && (davey.decrypted.get(m1.user.id)?.filter((f) => !f.equals(SILENCE)).length ?? 0) < played.length;
      i++
    )
      await new Promise((r) => setTimeout(r, 20));
    expect(davey.decrypted.get(m1.user.id)?.filter((f) => !f.equals(SILENCE))).toEqual(played);

    // lib2 leaves: removed by proposal and commit; lib1 and the davey peer agree on the next epoch.
    const before = h.platform.voice.dave(lobbyId)!;
    expect(before.epoch).toBe(2n);
    lib2.send('leave');
    await lib2.nextWhere((e) => e.event === 'left');
    for (let i = 0; i < 300 && h.platform.voice.dave(lobbyId)?.epoch !== 3n; i++)
      await new Promise((r) => setTimeout(r, 20));
    const third = await sameCode([lib1], [davey]);
    expect(third).not.toBe(second);
    // Its leaf is blank now (or truncated away when it was the last one).
    const expected = before.leaves.map((u) => (u === m2.user.id ? null : u));
    while (expected.at(-1) === null) expected.pop();
    expect(h.platform.voice.dave(lobbyId)).toEqual({ epoch: 3n, leaves: expected });

    // The davey peer leaves too: lib1 is alone → sole-member reset (op 24 epoch 1, op 21 transition 0); the
    // library starts over with a fresh key package and no group (no privacy code) until someone joins.
    tester.gateway.send(4, { guild_id: null, channel_id: null, self_mute: false, self_deaf: false });
    await lib1.nextWhere((e) => e.event === 'transitioned' && e.id === 0);
    for (let i = 0; i < 300 && h.platform.voice.dave(lobbyId)?.epoch !== 0n; i++)
      await new Promise((r) => setTimeout(r, 20));
    expect(h.platform.voice.dave(lobbyId)).toEqual({ epoch: 0n, leaves: [] });
    expect(await code(lib1)).toBeNull();
  });
});
