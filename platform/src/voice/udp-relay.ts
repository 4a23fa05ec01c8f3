/**
 * The media relay (an SFU, PROTOCOL.md §13.4): one UDP socket for every call. It answers IP discovery and forwards
 * each sender's RTP packets to the other participants of the same call: decrypted with the sender's key and
 * re-encrypted with each receiver's key (every participant has its own). It never decodes Opus, and the RTP header
 * (sequence, timestamp, SSRC) goes through unchanged so receivers keep their jitter buffers per sender. A packet
 * whose nonce counter the sender already used (a replay) or that is older than its replay window is dropped before
 * decryption; only a fresh authentic packet newer than any before may move where the sender's own media goes.
 */
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import { randomInt } from 'node:crypto';
import { transportCounter } from './ciphers.js';
import { DISCOVERY_BYTES, discoveryResponse, parseDiscoveryRequest } from './discovery.js';
import { LossInjector } from './loss.js';
import { isRtp, OPUS_PAYLOAD_TYPE, payloadType, ssrcOf } from './rtp.js';
import type { VoiceSession } from './session.js';

export interface RelayStats {
  /** Datagrams received. */
  received: number;
  /** Packet copies sent to receivers. */
  relayed: number;
  /** Copies dropped by injected loss. */
  injectedLoss: number;
  /** Datagrams dropped: unknown SSRC, no key yet, not authentic, not Opus RTP. */
  rejected: number;
  /** RTP packets dropped by a sender's replay window: a nonce counter seen before, or older than the window. */
  replayed: number;
  /** Times a participant's media address moved (NAT rebinding), and moves refused by the rate limit. */
  addressMoves: number;
  addressMovesLimited: number;
}

/** At most one move of a participant's media address per this long (the relay's clock). */
export const ADDRESS_MOVE_INTERVAL_MS = 1_000;

/** Dev/test hook: called with each forwarded packet's payload after transport decryption (DAVE frames stay opaque). */
export type RelayTap = (packet: { lobbyId: string; userId: string; ssrc: number; payload: Buffer }) => void;

export class UdpRelay {
  private socket: Socket | null = null;
  private readonly bySsrc = new Map<number, VoiceSession>();
  private readonly byLobby = new Map<string, Set<VoiceSession>>();
  readonly loss: LossInjector;
  readonly stats: RelayStats = {
    received: 0,
    relayed: 0,
    injectedLoss: 0,
    rejected: 0,
    replayed: 0,
    addressMoves: 0,
    addressMovesLimited: 0,
  };
  /** Set only by a devMode platform's `voice.relayTap` start option. */
  tap: RelayTap | null = null;

  constructor(
    lossRate = 0,
    lossSeed?: number,
    /** The platform's clock (tests may hold it still), for the address-move rate limit. */
    private readonly now: () => number = Date.now,
  ) {
    this.loss = new LossInjector(lossRate, lossSeed);
  }

  async listen(host: string, port: number): Promise<{ address: string; port: number }> {
    // Room for bursts (every speaker's frame arrives at about the same moment; the kernel caps the size it grants).
    const socket = createSocket({
      type: host.includes(':') ? 'udp6' : 'udp4',
      recvBufferSize: 4 * 1024 * 1024,
      sendBufferSize: 4 * 1024 * 1024,
    });
    this.socket = socket;
    socket.on('message', (msg, rinfo) => this.onDatagram(msg, rinfo));
    // A bad datagram or an ICMP error must not take the relay down; there is no one to report it to.
    socket.on('error', () => undefined);
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(port, host, () => {
        socket.off('error', reject);
        resolve();
      });
    });
    const bound = socket.address();
    return { address: bound.address, port: bound.port };
  }

  close(): Promise<void> {
    const socket = this.socket;
    this.socket = null;
    return new Promise((resolve) => (socket ? socket.close(() => resolve()) : resolve()));
  }

  /** A fresh SSRC (non-zero, unused). */
  allocateSsrc(): number {
    for (;;) {
      const ssrc = randomInt(1, 0xffffffff);
      if (!this.bySsrc.has(ssrc)) return ssrc;
    }
  }

  add(session: VoiceSession): void {
    this.bySsrc.set(session.ssrc, session);
    let call = this.byLobby.get(session.lobbyId);
    if (!call) this.byLobby.set(session.lobbyId, (call = new Set()));
    call.add(session);
  }

  remove(session: VoiceSession): void {
    if (this.bySsrc.get(session.ssrc) === session) this.bySsrc.delete(session.ssrc);
    const call = this.byLobby.get(session.lobbyId);
    call?.delete(session);
    if (call?.size === 0) this.byLobby.delete(session.lobbyId);
  }

  private onDatagram(packet: Buffer, from: RemoteInfo): void {
    this.stats.received++;
    if (packet.length === DISCOVERY_BYTES) {
      const ssrc = parseDiscoveryRequest(packet);
      if (ssrc !== null) return this.onDiscovery(ssrc, from);
    }
    // Anything else that is not Opus RTP (keepalives, RTCP) is tolerated and ignored.
    if (!isRtp(packet) || payloadType(packet) !== OPUS_PAYLOAD_TYPE) {
      this.stats.rejected++;
      return;
    }
    const sender = this.bySsrc.get(ssrcOf(packet));
    const counter = transportCounter(packet);
    if (!sender?.cipher || counter === null) {
      this.stats.rejected++;
      return;
    }
    const verdict = sender.replay.check(counter);
    if (!verdict.fresh) {
      this.stats.replayed++;
      return;
    }
    const opened = sender.cipher.open(packet);
    if (!opened) {
      this.stats.rejected++;
      return;
    }
    sender.replay.accept(verdict);
    if (verdict.newest) this.follow(sender, from);
    this.tap?.({
      lobbyId: sender.lobbyId,
      userId: sender.userId,
      ssrc: sender.ssrc,
      payload: Buffer.from(opened.plaintext),
    });
    for (const receiver of this.byLobby.get(sender.lobbyId) ?? []) {
      if (receiver === sender || !receiver.cipher || !receiver.udp) continue;
      if (this.loss.drop()) {
        this.stats.injectedLoss++;
        continue;
      }
      receiver.sendCounter = (receiver.sendCounter + 1) >>> 0;
      const out = receiver.cipher.seal(opened.header, opened.plaintext, receiver.sendCounter);
      this.socket?.send(out, receiver.udp.port, receiver.udp.address);
      this.stats.relayed++;
    }
  }

  /**
   * A fresh authentic packet newer than any before came from `from`: the sender's media goes there from now on
   * (its NAT rebound), at most once per ADDRESS_MOVE_INTERVAL_MS. A replayed or late packet never moves it — one
   * captured packet re-sent from elsewhere cannot steal a member's stream — and a forged one never opens.
   */
  private follow(sender: VoiceSession, from: RemoteInfo): void {
    if (sender.udp?.address === from.address && sender.udp.port === from.port) return;
    const now = this.now();
    if (sender.udp && now - sender.udpMovedAt < ADDRESS_MOVE_INTERVAL_MS) {
      this.stats.addressMovesLimited++;
      return;
    }
    if (sender.udp) this.stats.addressMoves++;
    sender.udp = { address: from.address, port: from.port };
    sender.udpMovedAt = now;
  }

  private onDiscovery(ssrc: number, from: RemoteInfo): void {
    const session = this.bySsrc.get(ssrc);
    if (!session) {
      this.stats.rejected++;
      return;
    }
    // Only an echo: where media goes is set by the authenticated Select Protocol and authentic packets, so a
    // stranger who guesses an SSRC learns nothing and redirects nothing.
    this.socket?.send(discoveryResponse(ssrc, from.address, from.port), from.port, from.address);
  }
}
