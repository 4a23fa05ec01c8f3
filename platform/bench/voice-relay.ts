/**
 * Voice relay benchmark: packets per second relayed and the latency the relay adds, for a call where every
 * participant speaks (25 by default, the recommended maximum; every packet is decrypted once and re-encrypted for
 * each of the 24 others).
 *
 *   node --import tsx platform/bench/voice-relay.ts [--smoke] [--mode aead_xchacha20_poly1305_rtpsize]
 *
 * The relay (src/voice/udp-relay.ts, the platform's own) runs in this process with sessions set up directly (the
 * join path over the gateways is what the tests cover); the participants run in one child process on loopback
 * UDP, so relay CPU is measured apart from theirs. Latency = a packet's send to its receipt by another participant
 * through the relay, compared with a direct loopback send; the receiving side is one JavaScript process, so under
 * load that figure includes its queueing, and the relay's CPU per inbound packet is printed as the bound on what the
 * relay itself adds. Prints figures; asserts nothing. On a shared machine the figures are indicative.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ENCRYPTION_MODES, type EncryptionMode } from '../src/voice/protocol.js';
import { VoiceSession } from '../src/voice/session.js';
import { UdpRelay } from '../src/voice/udp-relay.js';
import type { VoiceState } from '../src/voice/voice-states.js';
import type { ChildMessage, ParentMessage } from './voice-relay-clients.js';

const smoke = process.argv.includes('--smoke');
const modeArg = process.argv[process.argv.indexOf('--mode') + 1];
const mode: EncryptionMode =
  process.argv.includes('--mode') && (ENCRYPTION_MODES as readonly string[]).includes(modeArg ?? '')
    ? (modeArg as EncryptionMode)
    : 'aead_aes256_gcm_rtpsize';
const PARTICIPANTS = smoke ? 5 : 25;
const SECONDS = smoke ? 1 : 10;
/** About a 64 kbit/s Opus frame. */
const FRAME_BYTES = 160;

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function summary(latencies: number[]): string {
  const sorted = [...latencies].sort((a, b) => a - b);
  return `p50 ${percentile(sorted, 50).toFixed(0)} µs, p99 ${percentile(sorted, 99).toFixed(0)} µs`;
}

async function main(): Promise<void> {
  const relay = new UdpRelay();
  const { port } = await relay.listen('127.0.0.1', 0);
  const child = fork(fileURLToPath(new URL('./voice-relay-clients.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx'],
  });
  const next = () => new Promise<ChildMessage>((resolve) => child.once('message', (m: ChildMessage) => resolve(m)));
  const tell = (message: ParentMessage) => child.send(message);

  tell({ kind: 'open', participants: PARTICIPANTS });
  const ports = (await next()) as Extract<ChildMessage, { kind: 'ports' }>;
  const sessions = ports.ports.map((clientPort, i) => {
    const state: VoiceState = {
      lobbyId: '1',
      guildId: null,
      applicationId: '1',
      userId: String(i + 1),
      sessionId: 'bench',
      selfMute: false,
      selfDeaf: false,
      selfVideo: false,
      token: `t${i}`,
    };
    const session = new VoiceSession(state, relay.allocateSsrc(), 16);
    const key = session.selectMode(mode);
    session.udp = { address: '127.0.0.1', port: clientPort };
    relay.add(session);
    return { session, key };
  });

  tell({ kind: 'baseline', packets: smoke ? 200 : 2000 });
  const baseline = (await next()) as Extract<ChildMessage, { kind: 'baseline' }>;

  const cpuBefore = process.cpuUsage();
  const wallBefore = process.hrtime.bigint();
  tell({
    kind: 'keys',
    relayPort: port,
    mode,
    participants: sessions.map(({ session, key }) => ({ ssrc: session.ssrc, key: [...key] })),
    speakers: PARTICIPANTS,
    seconds: SECONDS,
    frameBytes: FRAME_BYTES,
  });
  const done = (await next()) as Extract<ChildMessage, { kind: 'done' }>;
  const cpu = process.cpuUsage(cpuBefore);
  const wallSeconds = Number(process.hrtime.bigint() - wallBefore) / 1e9;
  child.kill();
  await relay.close();

  const expected = done.sent * (PARTICIPANTS - 1);
  const relayCpuPercent = ((cpu.user + cpu.system) / 1e6 / wallSeconds) * 100;
  console.log(
    `voice relay benchmark${smoke ? ' (smoke)' : ''} — Node ${process.version}, ${mode}, ${PARTICIPANTS} ` +
      `participants all speaking, ${SECONDS} s, ${FRAME_BYTES}-byte frames every 20 ms`,
  );
  console.log(`  in:  ${done.sent} packets (${(done.sent / SECONDS).toFixed(0)}/s)`);
  console.log(
    `  out: ${relay.stats.relayed} packet copies relayed (${(relay.stats.relayed / wallSeconds).toFixed(0)}/s), ` +
      `${done.received} received of ${expected} expected ` +
      `(${((100 * done.received) / Math.max(1, expected)).toFixed(2)} %)`,
  );
  console.log(
    `  relay CPU: ${relayCpuPercent.toFixed(1)} % of one core ` +
      `(${((cpu.user + cpu.system) / Math.max(1, relay.stats.relayed)).toFixed(2)} µs per packet copy)`,
  );
  console.log(
    `  latency through the relay: ${summary(done.latenciesUs)}; direct loopback: ${summary(baseline.latenciesUs)}`,
  );
  const added =
    percentile(
      [...done.latenciesUs].sort((a, b) => a - b),
      50,
    ) -
    percentile(
      [...baseline.latenciesUs].sort((a, b) => a - b),
      50,
    );
  console.log(
    `  added by the relay (p50 difference): ${added.toFixed(0)} µs (includes queueing in the one receiving process)`,
  );
  // Without contention a packet waits for the relay's work on it (decrypt + one re-encrypt and send per receiver):
  // the CPU spent per inbound packet bounds the latency the relay itself adds for its last receiver.
  console.log(
    `  relay work per inbound packet (${PARTICIPANTS - 1} copies): ` +
      `${((cpu.user + cpu.system) / Math.max(1, done.sent)).toFixed(0)} µs`,
  );
  console.log('  (figures measured on a machine shared with other work are indicative)');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
