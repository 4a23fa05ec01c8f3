/**
 * DAVE delivery-service benchmark: the platform's CPU for one commit round in a call of 25 members (the
 * recommended maximum): a joiner's key package checked and its Add proposal signed and fanned out (op 26 → op 27),
 * then every member's commit for that epoch handled — the first accepted (parsed, checked against the epoch's
 * proposals, op 29 to the 24 members, its Welcome split for the joiner, op 30), the others dropped — and the
 * member leaving again (Remove proposal, commit round). The call's state machine (src/voice/dave/call.ts) runs in
 * this process with in-memory sessions; the members are real `@snazzah/davey` (OpenMLS) sessions making real
 * commits, and their time is not counted. Prints figures; asserts nothing. On a shared machine they are indicative.
 *
 *   node --import tsx platform/bench/voice-dave.ts [--smoke]
 */
import davey from '@snazzah/davey';
import { pino } from 'pino';
import { DaveCall } from '../src/voice/dave/call.js';
import { ExternalSenderKey } from '../src/voice/dave/mls.js';
import type { VoiceSession } from '../src/voice/session.js';

const smoke = process.argv.includes('--smoke');
const MEMBERS = smoke ? 6 : 25;
const ROUNDS = smoke ? 2 : 20;
const LOBBY = '1300000000000000000';

interface Member {
  userId: string;
  session: InstanceType<typeof davey.DAVESession>;
  fake: VoiceSession;
  inbox: { op: number; payload: Buffer | { transition_id: number } }[];
}

let serverNs = 0n;
async function timed(work: () => Promise<void>): Promise<void> {
  const start = process.hrtime.bigint();
  await work();
  serverNs += process.hrtime.bigint() - start;
}

const call = new DaveCall(LOBBY, null, {
  refuse: (_s, code, reason) => {
    throw new Error(`refused ${code}: ${reason}`);
  },
  transitionTimeoutMs: 60_000,
  logger: pino({ level: 'silent' }),
});
const members = new Map<string, Member>();

function member(n: number): Member {
  const userId = String(1400000000000000000n + BigInt(n));
  const inbox: Member['inbox'] = [];
  const fake = {
    userId,
    lobbyId: LOBBY,
    send: (op: number, d: { transition_id: number }) => inbox.push({ op, payload: d }),
    sendBinary: (op: number, payload: Buffer) => inbox.push({ op, payload }),
  } as unknown as VoiceSession;
  return { userId, session: new davey.DAVESession(1, userId, LOBBY), fake, inbox };
}

/** Delivers everything queued to the members (their work is not timed) and feeds their answers to the call (timed). */
async function settle(): Promise<void> {
  for (let busy = true; busy;) {
    busy = false;
    for (const m of members.values()) {
      while (m.inbox.length > 0) {
        busy = true;
        const { op, payload } = m.inbox.shift()!;
        if (op === 25) m.session.setExternalSender(payload as Buffer);
        else if (op === 27) {
          const p = payload as Buffer;
          const { commit, welcome } = m.session.processProposals(p[0]!, p.subarray(1));
          if (commit)
            await timed(() =>
              call.enqueue(() => call.onCommit(m.fake, Buffer.concat([commit, ...(welcome ? [welcome] : [])]))),
            );
        } else if (op === 29 || op === 30) {
          const p = payload as Buffer;
          if (op === 29) m.session.processCommit(p.subarray(2));
          else m.session.processWelcome(p.subarray(2));
          await timed(() => call.enqueue(() => call.onReady(m.fake, p.readUInt16BE(0))));
        } else if (op === 24) m.session.reinit(1, m.userId, LOBBY);
      }
    }
  }
}

async function join(m: Member): Promise<void> {
  members.set(m.userId, m);
  await timed(async () => {
    call.joined(m.fake, () => ExternalSenderKey.create());
    await call.enqueue(() => undefined);
  });
  await settle();
  await timed(() => call.enqueue(() => call.onKeyPackage(m.fake, m.session.getSerializedKeyPackage())));
  await settle();
}

async function leave(m: Member): Promise<void> {
  members.delete(m.userId);
  await timed(() => call.left(m.fake));
  await settle();
}

for (let n = 0; n < MEMBERS - 1; n++) await join(member(n));
if (call.epoch === 0n || call.leaves.length !== MEMBERS - 1)
  throw new Error(`setup failed: epoch ${call.epoch}, ${call.leaves.length} leaves`);

const joins: number[] = [];
const leaves: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  const m = member(1000 + r);
  serverNs = 0n;
  const epoch = call.epoch;
  await join(m);
  if (call.epoch !== epoch + 1n) throw new Error('the join round did not commit');
  joins.push(Number(serverNs) / 1e6);
  serverNs = 0n;
  await leave(m);
  if (call.epoch !== epoch + 2n) throw new Error('the leave round did not commit');
  leaves.push(Number(serverNs) / 1e6);
}
call.dispose();

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const max = (xs: number[]) => Math.max(...xs);
console.log(`voice-dave: ${MEMBERS} members, ${ROUNDS} rounds, final epoch ${call.epoch}`);
console.log(
  `  join round  (op 26 check + Add proposal + ${MEMBERS - 1} commits: 1 accepted, op 29 ×${MEMBERS - 1}, op 30; ` +
    `op 23s): median ${median(joins).toFixed(2)} ms, max ${max(joins).toFixed(2)} ms platform time (in-process, wall)`,
);
console.log(
  `  leave round (Remove proposal + ${MEMBERS - 1} commits: 1 accepted, op 29 ×${MEMBERS - 1}; op 23s): median ` +
    `${median(leaves).toFixed(2)} ms, max ${max(leaves).toFixed(2)} ms platform time (in-process, wall)`,
);
