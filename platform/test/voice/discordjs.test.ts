/**
 * Interoperability: an unmodified published voice client library (@discordjs/voice 0.19.2, the version with DAVE
 * support) joins a lobby call through the platform over wss and exchanges Opus packets with the test client. It
 * runs in its own process (support/discordjs-peer.ts), trusting the platform's certificate through
 * NODE_EXTRA_CA_CERTS, because it always connects with wss:// and takes no TLS options. The library only talks to
 * the main gateway through an adapter, which maps a lobby call onto its guild-based API (op 4 goes out with
 * `guild_id: null` and our `lobby_id`; VOICE_SERVER_UPDATE's null `guild_id` becomes the lobby id, which the
 * library sends back as Identify's `server_id`).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { peerPacket } from '../support/discordjs-peer-packets.js';
import { startLibraryPeer, tlsVoiceHarness, type LibraryPeer } from '../support/discordjs-runner.js';
import { VoiceSocket } from '../support/voice-client.js';
import type { Member, VoiceHarness } from '../support/voice-harness.js';

let h: VoiceHarness | undefined;
let peer: LibraryPeer | undefined;
afterEach(async () => {
  peer?.process.kill();
  peer = undefined;
  await h?.close();
  h = undefined;
});

/** This file exercises the library with DAVE off (transport encryption only): voice-dave-discordjs has DAVE on. */
const tlsHarness = () => tlsVoiceHarness({ voice: { requireE2ee: false } });

function startPeer(caFile: string, config: Record<string, string>): LibraryPeer {
  peer = startLibraryPeer(caFile, config);
  return peer;
}

const SILENCE = Buffer.from([0xf8, 0xff, 0xfe]);

describe('@discordjs/voice 0.19.2 (unmodified) in a lobby call', () => {
  it('joins over wss without DAVE and exchanges Opus packets with the test client both ways', async () => {
    const { harness, caFile } = await tlsHarness();
    h = harness;
    const { lobbyId, members } = await h.lobby(['library', 'tester']);
    const [library, tester] = members as [Member, Member];

    const lib = startPeer(caFile, {
      gatewayUrl: h.platform.gatewayUrl,
      token: library.user.token,
      userId: library.user.id,
      lobbyId,
      listenTo: tester.user.id,
    });
    const ready = await lib.next();
    expect(ready.event, JSON.stringify(ready)).toBe('ready');
    // It offered DAVE (max_dave_protocol_version 1) and accepted version 0: transport encryption only.
    const debug = (ready.debug as string[]).join('\n');
    expect(debug).toMatch(/"max_dave_protocol_version":1/);
    expect(debug).toMatch(/"dave_protocol_version":0/);
    expect(debug).toMatch(/"mode":"aead_aes256_gcm_rtpsize"/);

    // Test client → library: the library maps our SSRC from the server's op 5 and hands out the packets as sent.
    const client = await h.joinCall(tester, lobbyId, 'aead_aes256_gcm_rtpsize');
    client.speaking(1);
    expect(await lib.next()).toEqual({ event: 'ssrc', userId: tester.user.id, audioSSRC: client.ssrc });
    for (let n = 0; n < 20; n++) client.sendFrame(peerPacket(n));
    for (let n = 0; n < 20; n++)
      expect(await lib.next()).toEqual({ event: 'packet', hex: peerPacket(n).toString('hex') });

    // Library → test client: it sends op 5 first, plays the packets, then silence frames (F8 FF FE; this version
    // sends four of them after a stream ends, observed here; the published advice is five).
    lib.send('play');
    const speaking = await client.socket.nextOf(5);
    expect(speaking.d).toMatchObject({ user_id: library.user.id, speaking: 1 });
    const received: Buffer[] = [];
    for (let n = 0; n < 14; n++) {
      const rtp = await client.receive();
      expect(rtp.ssrc).toBe(speaking.d.ssrc);
      received.push(rtp.payload);
    }
    expect(received).toEqual([...Array.from({ length: 10 }, (_, n) => peerPacket(100 + n)), ...Array(4).fill(SILENCE)]);
    expect(await lib.next()).toEqual({ event: 'played' });

    lib.send('leave');
    expect(await lib.next()).toEqual({ event: 'left' });
    // Leaving through the library: op 4 with channel_id null → out of the call; the test client sees op 13.
    expect((await client.socket.nextOf(13)).d).toEqual({ user_id: library.user.id });
    expect(h.platform.voice.stats().calls[lobbyId]).toEqual([tester.user.id]);
  });

  it('the voice gateway serves wss when the platform runs TLS (plain ws fails)', async () => {
    h = (await tlsHarness()).harness;
    const endpoint = h.platform.voice.endpoint;
    const secure = await VoiceSocket.open(endpoint, { ca: h.platform.caCertPem! });
    expect((await secure.next()).op).toBe(8);
    await secure.close();
    await expect(VoiceSocket.open(endpoint)).rejects.toThrow();
  });
});
