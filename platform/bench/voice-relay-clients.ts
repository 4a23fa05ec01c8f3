/**
 * The participants of bench/voice-relay.ts, in a child process: one UDP socket each on loopback. Every speaker
 * sends a 20 ms frame every 20 ms for the run; receivers count packets and the time each took from its sender's
 * send to their receipt (same machine, one monotonic clock: sender and receivers live in this process).
 */
import { createSocket, type Socket } from 'node:dgram';
import { createTransportCipher, type TransportCipher } from '../src/voice/ciphers.js';
import type { EncryptionMode } from '../src/voice/protocol.js';

export type ParentMessage =
  | { kind: 'open'; participants: number }
  | {
      kind: 'keys';
      relayPort: number;
      mode: EncryptionMode;
      participants: Array<{ ssrc: number; key: number[] }>;
      speakers: number;
      seconds: number;
      frameBytes: number;
    }
  | { kind: 'baseline'; packets: number };

export type ChildMessage =
  | { kind: 'ports'; ports: number[] }
  | { kind: 'done'; sent: number; received: number; latenciesUs: number[] }
  | { kind: 'baseline'; latenciesUs: number[] };

const send = (message: ChildMessage) => process.send!(message);
let sockets: Socket[] = [];

async function open(count: number): Promise<void> {
  sockets = await Promise.all(
    Array.from({ length: count }, () => {
      const socket = createSocket({ type: 'udp4', recvBufferSize: 4 * 1024 * 1024 });
      return new Promise<Socket>((resolve) => socket.bind(0, '127.0.0.1', () => resolve(socket)));
    }),
  );
  send({ kind: 'ports', ports: sockets.map((s) => s.address().port) });
}

/** One-way loopback latency without the relay: the floor the relay's figure is compared with. */
async function baseline(packets: number): Promise<void> {
  const [a, b] = [sockets[0]!, sockets[1]!];
  const latencies: number[] = [];
  for (let i = 0; i < packets; i++) {
    const sentAt = process.hrtime.bigint();
    const got = new Promise<void>((resolve) => b.once('message', () => resolve()));
    a.send(Buffer.alloc(160), b.address().port, '127.0.0.1');
    await got;
    latencies.push(Number(process.hrtime.bigint() - sentAt) / 1000);
  }
  send({ kind: 'baseline', latenciesUs: latencies });
}

async function run(message: Extract<ParentMessage, { kind: 'keys' }>): Promise<void> {
  const ciphers: TransportCipher[] = message.participants.map((p) =>
    createTransportCipher(message.mode, Buffer.from(p.key)),
  );
  /** Send time of each (ssrc, sequence). */
  const sentAt = new Map<number, bigint>();
  const latencies: number[] = [];
  let received = 0;
  for (const socket of sockets) {
    socket.on('message', (packet) => {
      const at = sentAt.get(packet.readUInt32BE(8) * 65536 + packet.readUInt16BE(2));
      received++;
      if (at !== undefined) latencies.push(Number(process.hrtime.bigint() - at) / 1000);
    });
  }
  const payload = Buffer.alloc(message.frameBytes, 0x55);
  const header = Buffer.alloc(12);
  let sent = 0;
  const frames = message.seconds * 50;
  const start = process.hrtime.bigint();
  for (let frame = 0; frame < frames; frame++) {
    for (let i = 0; i < message.speakers; i++) {
      const { ssrc } = message.participants[i]!;
      header[0] = 0x80;
      header[1] = 0x78;
      header.writeUInt16BE(frame & 0xffff, 2);
      header.writeUInt32BE((frame * 960) >>> 0, 4);
      header.writeUInt32BE(ssrc, 8);
      const packet = ciphers[i]!.seal(header, payload, frame + 1);
      sentAt.set(ssrc * 65536 + (frame & 0xffff), process.hrtime.bigint());
      sockets[i]!.send(packet, message.relayPort, '127.0.0.1');
      sent++;
    }
    // Pace at 20 ms per frame against the start time (no drift).
    const due = start + BigInt(frame + 1) * 20_000_000n;
    const waitMs = Number(due - process.hrtime.bigint()) / 1e6;
    if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, waitMs));
  }
  // Let the last frames arrive.
  await new Promise((resolve) => setTimeout(resolve, 200));
  send({ kind: 'done', sent, received, latenciesUs: latencies });
}

process.on('message', (message: ParentMessage) => {
  if (message.kind === 'open') void open(message.participants);
  else if (message.kind === 'baseline') void baseline(message.packets);
  else void run(message);
});
