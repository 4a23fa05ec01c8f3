/**
 * What DAVE membership means for the ciphertext, end to end on both backends: an SDK speaker (Ada) and an SDK listener
 * (Bob) in a call over the real platform (TLS, real UDP), and an independent DAVE participant (Leo: `@snazzah/davey`
 * behind the platform's test voice client) that joins late and later leaves. The platform's relay tap captures Ada's
 * real frames as they cross the relay; Leo's own DAVE session then tries to decrypt them:
 * - frames Ada sent before the epoch that added Leo: none decrypts (a late joiner cannot read the past);
 * - frames Ada sent while Leo was a member: every one decrypts (the control: the method can succeed);
 * - frames Ada sent after the epoch that removed Leo: none decrypts (a leaver cannot read the future),
 *   while Bob goes on decrypting every one of them.
 * And the privacy code the SDK shows equals the one the independent implementation derives for the same epoch.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Call } from '../../lib/index.js';
import { RawClient } from '../../platform/test/gateway/client.js';
import { bearer, request, trustCaByDefault } from '../../platform/test/support/http.js';
import { accessTokenFor, createUser } from '../../platform/test/support/platform.js';
import { DavePeer } from '../../platform/test/support/dave-peer.js';
import { TestVoiceClient } from '../../platform/test/support/voice-client.js';
import { requestVoiceJoin } from '../../platform/test/support/voice-harness.js';
import { BACKENDS } from '../backends.js';
import { connectProvisionalPlayer } from './chat-support.js';
import type { Player } from './player.js';
import { startE2EPlatform, type E2EPlatform } from './harness.js';
import { until } from './support.js';
import { joinCall, untilParticipants, voiceTempDir, writeToneWav } from './voice-support.js';

const SILENCE_FRAME = Buffer.from([0xf8, 0xff, 0xfe]);
/** Frames of Ada's taken per phase: 1 s of audio. */
const SAMPLE = 50;
/** After an epoch change, how long frames sealed with the previous send key may still be in flight on loopback. */
const SETTLE_MS = 300;

interface Tapped {
  lobbyId: string;
  userId: string;
  payload: Buffer;
}

describe.each(BACKENDS)('DAVE membership and ciphertext over %s', (backend) => {
  let e2e: E2EPlatform;
  let ada: Player;
  let bob: Player;
  const dir = voiceTempDir();
  const tapped: Tapped[] = [];
  const raw: Array<{ close(): Promise<unknown> }> = [];

  beforeAll(async () => {
    e2e = await startE2EPlatform({
      devMode: true,
      voice: {
        relayTap: (p) => tapped.push({ lobbyId: p.lobbyId, userId: p.userId, payload: Buffer.from(p.payload) }),
      },
    });
    ada = await connectProvisionalPlayer(e2e, backend, 'Ada');
    bob = await connectProvisionalPlayer(e2e, backend, 'Bob');
    trustCaByDefault(e2e.platform.caCertPem); // the platform's test helpers below speak HTTPS to it
  });
  afterAll(async () => {
    for (const r of raw) await r.close().catch(() => undefined);
    for (const player of [ada, bob]) await player?.client.close();
    await e2e?.close();
  });

  /** Ada's DAVE frames the relay forwards in this lobby from tap index `from` on (the clear silence frame left out). */
  const adaFrames = (lobbyId: bigint, from: number): Buffer[] =>
    tapped
      .slice(from)
      .filter(
        (t) => t.lobbyId === lobbyId.toString() && t.userId === ada.id.toString() && !t.payload.equals(SILENCE_FRAME),
      )
      .map((t) => t.payload);

  /** The next SAMPLE frames Ada sends from now on. */
  const nextAdaFrames = async (lobbyId: bigint): Promise<Buffer[]> => {
    const from = tapped.length;
    await until(() => adaFrames(lobbyId, from).length >= SAMPLE, `${SAMPLE} more of Ada's frames at the relay`);
    return adaFrames(lobbyId, from).slice(0, SAMPLE);
  };

  /** How many of `frames` Leo's DAVE session decrypts as Ada's. */
  const decryptableBy = (leo: DavePeer, frames: Buffer[]): number =>
    frames.filter((payload) => {
      try {
        leo.session.decrypt(ada.id.toString(), 0, payload);
        return true;
      } catch {
        return false;
      }
    }).length;

  /** Every SDK call at the same settled epoch, at least `above`. */
  const settledEpoch = async (calls: Call[], above: bigint, what: string): Promise<bigint> => {
    await until(() => {
      const epochs = new Set(calls.map((c) => c.encryptionState.epoch));
      return epochs.size === 1 && [...epochs][0]! > above && calls.every((c) => !c.encryptionState.transitionPending);
    }, what);
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    return calls[0]!.encryptionState.epoch;
  };

  it('a late joiner cannot decrypt frames from before it joined, a member decrypts every frame, a leaver cannot decrypt frames after it left', async () => {
    const secret = `e2ee-membership-${backend}-${Date.now()}`;
    const lobbyId = await ada.client.createOrJoinLobby(secret);
    await bob.client.createOrJoinLobby(secret);
    const tone = join(dir, `membership-tone-${backend}.wav`);
    writeToneWav(tone, 440, 60); // longer than the test: Ada speaks throughout
    await ada.client.voice.setInputDevice(`file:${tone}`);
    await ada.client.voice.setOutputDevice('null');
    await bob.client.voice.setInputDevice('null');
    await bob.client.voice.setOutputDevice('null');

    const bobCall = await joinCall(bob.client, lobbyId);
    const adaCall = await joinCall(ada.client, lobbyId);
    adaCall.setVadThreshold(false, -50);
    const calls = [adaCall, bobCall];
    await untilParticipants(calls, [ada.id, bob.id]);
    const twoMemberEpoch = await settledEpoch(calls, 0n, 'Ada and Bob share a group');
    const beforeLeo = await nextAdaFrames(lobbyId);

    // Leo: a plain platform user of the same application, in the lobby, joining the call as a published client does.
    const platform = e2e.platform;
    const { id: leoId, username } = await createUser(platform, { username: `leo_${backend}_${Date.now()}` });
    const { access_token: token } = await accessTokenFor(platform, {
      clientId: platform.devApp.id,
      scope: 'sdk.social_layer',
      user: username,
    });
    const joined = await request(`${platform.apiBase}/lobbies`, {
      method: 'PUT',
      headers: bearer(token),
      json: { secret },
    });
    expect(joined.status, joined.text).toBe(200);
    const gateway = await RawClient.open(platform.gatewayUrl, undefined, platform.caCertPem);
    raw.push(gateway);
    await gateway.identify(`Bearer ${token}`);
    const { credentials } = await requestVoiceJoin(gateway, leoId, lobbyId.toString());
    const voice = await TestVoiceClient.join(credentials, 'aead_aes256_gcm_rtpsize', {
      maxDaveVersion: 1,
      ca: platform.caCertPem,
    });
    const leo = new DavePeer(voice, lobbyId.toString(), new Map());
    raw.push(leo);
    await untilParticipants(calls, [ada.id, bob.id, BigInt(leoId)]);
    const withLeo = await settledEpoch(calls, twoMemberEpoch, 'the epoch that added Leo');
    await until(() => leo.session.ready && leo.session.epoch === withLeo, "Leo's session at the members' epoch");
    // The privacy code a UI shows: the SDK's equals what the independent implementation derives for the same epoch.
    expect(adaCall.privacyCode).toMatch(/^\d{30}$/);
    expect(leo.session.voicePrivacyCode).toBe(adaCall.privacyCode);

    expect(decryptableBy(leo, beforeLeo)).toBe(0);
    expect(decryptableBy(leo, await nextAdaFrames(lobbyId))).toBe(SAMPLE);

    // Leo leaves the call (op 4 without a channel) and hangs up; its DAVE session object keeps the keys it had.
    gateway.send(4, { guild_id: null, channel_id: null, self_mute: false, self_deaf: false });
    await voice.close();
    await until(() => calls.every((c) => !c.participants.includes(BigInt(leoId))), 'Leo out of both calls');
    await settledEpoch(calls, withLeo, 'the epoch that removed Leo');
    const bobBefore = bobCall.participantDecryptStats(ada.id);
    const afterLeo = await nextAdaFrames(lobbyId);
    expect(decryptableBy(leo, afterLeo)).toBe(0);
    // The same frames are no noise: Bob, still a member, decrypts Ada's frames of this phase and refuses none.
    await until(
      () => bobCall.participantDecryptStats(ada.id).framesDecrypted >= bobBefore.framesDecrypted + BigInt(SAMPLE),
      'Bob decrypting the frames Leo cannot',
    );
    expect(bobCall.participantDecryptStats(ada.id).framesDropped).toBe(bobBefore.framesDropped);

    for (const p of [ada, bob]) await p.client.voice.endCall(lobbyId);
  });
});
