/** The voice gateway's protocol rules: versions, heartbeats, bad input and the published close codes. */
import { afterEach, describe, expect, it } from 'vitest';
import { VoiceSocket, type VoiceCredentials } from '../support/voice-client.js';
import { startVoiceHarness, type Member, type VoiceHarness } from '../support/voice-harness.js';

let h: VoiceHarness | undefined;
const sockets: VoiceSocket[] = [];
afterEach(async () => {
  await Promise.all(sockets.splice(0).map((s) => s.close()));
  await h?.close();
  h = undefined;
});

async function open(endpoint: string, version: string | null = '8'): Promise<VoiceSocket> {
  const socket = await VoiceSocket.open(endpoint, { version });
  sockets.push(socket);
  return socket;
}

function identify(socket: VoiceSocket, c: VoiceCredentials, override: Record<string, unknown> = {}): void {
  socket.send(0, {
    server_id: c.serverId,
    user_id: c.userId,
    session_id: c.sessionId,
    token: c.token,
    max_dave_protocol_version: 1,
    ...override,
  });
}

/** One member with a join ticket, and a socket past Hello. */
async function joined(): Promise<{
  member: Member;
  others: Member[];
  lobbyId: string;
  credentials: VoiceCredentials;
  socket: VoiceSocket;
}> {
  h = await startVoiceHarness({ voice: { requireE2ee: false } });
  const { lobbyId, members } = await h.lobby(['alice', 'bob']);
  const { credentials } = await h.requestJoin(members[0]!, lobbyId);
  const socket = await open(credentials.endpoint);
  expect((await socket.next()).op).toBe(8);
  return { member: members[0]!, others: members.slice(1), lobbyId, credentials, socket };
}

describe('voice gateway versions and heartbeats', () => {
  it('refuses a missing version and versions below 4 with 4020', async () => {
    h = await startVoiceHarness({ voice: { requireE2ee: false } });
    const endpoint = h.platform.voice.endpoint;
    for (const version of [null, '1', '3', '9', 'eight']) {
      const socket = await open(endpoint, version);
      expect((await socket.expectClose()).code).toBe(4020);
    }
  });

  it('v8: Hello, then heartbeats {t, seq_ack} are answered with op 6 {t}', async () => {
    const { socket } = await joined();
    socket.send(3, { t: 1501184119561, seq_ack: -1 });
    expect(await socket.next()).toEqual({ op: 6, d: { t: 1501184119561 } });
  });

  it('v4: a bare nonce heartbeat is echoed, and messages carry no seq', async () => {
    h = await startVoiceHarness({ voice: { requireE2ee: false } });
    const { lobbyId, members } = await h.lobby(['alice']);
    const { credentials } = await h.requestJoin(members[0]!, lobbyId);
    const socket = await open(credentials.endpoint, '4');
    expect((await socket.next()).op).toBe(8);
    socket.send(3, 42);
    expect(await socket.next()).toEqual({ op: 6, d: 42 });
    identify(socket, credentials);
    const ready = await socket.next();
    expect(ready.op).toBe(2);
    socket.send(1, { protocol: 'udp', data: { address: '127.0.0.1', port: 9, mode: 'aead_aes256_gcm_rtpsize' } });
    const description = await socket.next();
    expect(description.op).toBe(4);
    expect(description.seq).toBeUndefined();
  });
});

describe('voice gateway bad input', () => {
  it('closes 4002 for a payload that is not JSON', async () => {
    const { socket } = await joined();
    socket.sendRaw('{"op": 0, "d":');
    expect((await socket.expectClose()).code).toBe(4002);
  });

  it('closes 4003 for Select Protocol or Speaking before Identify', async () => {
    const { socket, credentials } = await joined();
    socket.send(1, { protocol: 'udp', data: { address: '127.0.0.1', port: 9, mode: 'aead_aes256_gcm_rtpsize' } });
    expect((await socket.expectClose()).code).toBe(4003);
    const again = await open(credentials.endpoint);
    again.send(5, { speaking: 1, delay: 0, ssrc: 1 });
    expect((await again.expectClose()).code).toBe(4003);
  });

  it('closes 4004 for a token, lobby, user or session id that does not match, and nothing changes', async () => {
    const { socket, credentials, member, lobbyId } = await joined();
    identify(socket, credentials, { token: 'f'.repeat(32) });
    expect((await socket.expectClose()).code).toBe(4004);
    for (const override of [{ server_id: '1' }, { user_id: '2' }, { session_id: 'other' }]) {
      const s = await open(credentials.endpoint);
      identify(s, credentials, override);
      expect((await s.expectClose()).code).toBe(4004);
    }
    // The join still stands: the right credentials work.
    const good = await open(credentials.endpoint);
    identify(good, credentials);
    expect((await good.nextOf(2)).d.ssrc).toBeGreaterThan(0);
    const state = await h!.call('GET', `/lobbies/${lobbyId}/voice-states/@me`, member.user.auth);
    expect(state.status).toBe(200);
  });

  it('closes 4005 on a second Identify and 4001 on an unknown opcode; both keep the voice state', async () => {
    const { socket, credentials, member, lobbyId } = await joined();
    identify(socket, credentials);
    await socket.nextOf(2);
    identify(socket, credentials);
    expect((await socket.expectClose()).code).toBe(4005);
    const second = await open(credentials.endpoint);
    identify(second, credentials);
    await second.nextOf(2);
    second.send(99, null);
    expect((await second.expectClose()).code).toBe(4001);
    expect((await h!.call('GET', `/lobbies/${lobbyId}/voice-states/${member.user.id}`, h!.bot)).status).toBe(200);
  });

  it('closes 4020 for a malformed payload of a known op, and the participant leaves the call', async () => {
    const { socket, credentials, others, lobbyId, member } = await joined();
    identify(socket, credentials, { token: 42 });
    expect((await socket.expectClose()).code).toBe(4020);
    const s = await open(credentials.endpoint);
    identify(s, credentials);
    const ready = await s.nextOf(2);
    s.send(5, { speaking: 1, delay: 0, ssrc: (ready.d.ssrc + 1) >>> 0 });
    expect((await s.expectClose()).code).toBe(4020);
    const [frames] = await h!.drain(others[0]!.gateway);
    expect(frames!.filter((f) => f.t === 'VOICE_STATE_UPDATE').map((f) => [f.d.user_id, f.d.channel_id])).toEqual([
      [member.user.id, lobbyId],
      [member.user.id, null],
    ]);
  });

  it('closes 4020 for a string with an unpaired surrogate, as for any malformed payload (before Identify, and in Identify itself)', async () => {
    const { socket, credentials } = await joined();
    socket.sendRaw('{"op": 3, "d": {"t": 1, "seq_ack": -1, "note": "a\\ud800b"}}');
    expect(await socket.expectClose()).toEqual({ code: 4020, reason: 'Invalid payload: unpaired surrogate.' });
    const s = await open(credentials.endpoint);
    await s.nextOf(8);
    identify(s, credentials, { session_id: `${credentials.sessionId}\ud800` });
    expect(await s.expectClose()).toEqual({ code: 4020, reason: 'Invalid payload: unpaired surrogate.' });
    // A pair (an emoji) is text: the session id simply does not match (4004).
    const t = await open(credentials.endpoint);
    await t.nextOf(8);
    identify(t, credentials, { session_id: `${credentials.sessionId}\u{1f600}` });
    expect((await t.expectClose()).code).toBe(4004);
  });

  it('refuses the old encryption modes with 4016 and an unknown protocol with 4012', async () => {
    h = await startVoiceHarness({ voice: { requireE2ee: false } });
    const { lobbyId, members } = await h.lobby(['alice', 'bob', 'carol', 'dave', 'erin', 'frank']);
    const cases: Array<[string, string, number]> = [
      ['udp', 'xsalsa20_poly1305', 4016],
      ['udp', 'xsalsa20_poly1305_suffix', 4016],
      ['udp', 'xsalsa20_poly1305_lite', 4016],
      ['udp', 'aead_aes256_gcm', 4016],
      ['webrtc', 'aead_aes256_gcm_rtpsize', 4012],
    ];
    for (const [i, [protocol, mode, code]] of cases.entries()) {
      const { credentials } = await h.requestJoin(members[i]!, lobbyId);
      const s = await open(credentials.endpoint);
      identify(s, credentials);
      await s.nextOf(2);
      s.send(1, { protocol, data: { address: '127.0.0.1', port: 9, mode } });
      expect((await s.expectClose()).code, mode).toBe(code);
      // Terminal: the participant is out of the call.
      expect((await h.call('GET', `/lobbies/${lobbyId}/voice-states/${members[i]!.user.id}`, h.bot)).status).toBe(404);
    }
  });
});

describe('DAVE extension point', () => {
  it('accepts max_dave_protocol_version, negotiates 0 and ignores DAVE opcodes (JSON and binary); other binary ops close 4001', async () => {
    const { socket, credentials } = await joined();
    identify(socket, credentials, { max_dave_protocol_version: 1 });
    await socket.nextOf(2);
    socket.send(1, {
      protocol: 'udp',
      data: { address: '127.0.0.1', port: 9, mode: 'aead_xchacha20_poly1305_rtpsize' },
    });
    expect((await socket.nextOf(4)).d).toMatchObject({
      mode: 'aead_xchacha20_poly1305_rtpsize',
      dave_protocol_version: 0,
    });
    socket.send(23, { transition_id: 0 });
    socket.sendRaw(Buffer.from([26, 1, 2, 3]));
    socket.send(3, { t: 5, seq_ack: socket.lastSeq });
    expect(await socket.next()).toEqual({ op: 6, d: { t: 5 } });
    socket.sendRaw(Buffer.from([5, 0]));
    expect((await socket.expectClose()).code).toBe(4001);
  });
});

describe('op 4 refusals', () => {
  it('a non-member, an unknown lobby and a guild the user is not in get VOICE_JOIN_REFUSED; a malformed op 4 closes 4001', async () => {
    h = await startVoiceHarness({ voice: { requireE2ee: false } });
    const { lobbyId } = await h.lobby(['alice']);
    const outsider = await h.user('outsider');
    const { client } = await h.connect(outsider);
    client.send(4, { guild_id: null, channel_id: lobbyId, self_mute: false, self_deaf: false });
    client.send(4, { guild_id: null, channel_id: '123', self_mute: false, self_deaf: false });
    client.send(4, { guild_id: h.guildId, channel_id: h.channels.voice, self_mute: false, self_deaf: false });
    const frames = [await client.nextOf(0), await client.nextOf(0), await client.nextOf(0)] as Array<{
      t: string;
      d: unknown;
    }>;
    expect(frames.map((f) => [f.t, f.d])).toEqual([
      ['VOICE_JOIN_REFUSED', { lobby_id: lobbyId, code: 50001, message: 'Missing Access' }],
      ['VOICE_JOIN_REFUSED', { lobby_id: '123', code: 10031, message: 'Unknown Lobby' }],
      // A guild voice channel names its guild and channel (guild voice refusals: guild.test.ts).
      [
        'VOICE_JOIN_REFUSED',
        { guild_id: h.guildId, channel_id: h.channels.voice, code: 50001, message: 'Missing Access' },
      ],
    ]);
    expect(h.platform.voice.stats().calls).toEqual({});
    client.send(4, { guild_id: null, channel_id: lobbyId });
    expect((await client.expectClose()).code).toBe(4001);
  });

  it('refuses a join past maxParticipants with 30050', async () => {
    h = await startVoiceHarness({ voice: { requireE2ee: false, maxParticipants: 1 } });
    const { lobbyId, members } = await h.lobby(['alice', 'bob']);
    await h.requestJoin(members[0]!, lobbyId);
    await expect(h.requestJoin(members[1]!, lobbyId)).rejects.toThrow(/"code":30050/);
  });
});
