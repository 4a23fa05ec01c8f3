/**
 * The dispatch drain (bench/gateway.ts, bench/dispatch-sdk.ts): how fast a client's JS handler drains a stream of
 * USER_UPDATE dispatches that was entirely queued at the client before the handler could run. The platform publishes
 * the stream while the JS thread is held (no handler runs), the thread stays held QUEUE_MS longer so every dispatch
 * arrives (in the kernel's socket buffers for a plain client, in the native queue for the SDK), then the drain is
 * timed from the first handler call to the last. A live stream would measure the platform's publisher (the ceiling of
 * every client), not the client.
 */
// Type only (erased): bench/dispatch-sdk.ts is bundled for the cross targets with the package in place of lib/.
import type { Client } from '../../lib/index.js';
import { postDevRouteHoldingJs } from './post-holding-js.js';

export interface DrainPlatform {
  apiBase: string;
  caFile?: string;
}

/** One contender's session: the user the stream is published to, and how to end it. */
export interface DrainSession {
  userId: string;
  close(): Promise<void>;
}
/** Starts a contender whose handler calls `onEvent` once per dispatch it has read. */
export type DrainStart = (onEvent: () => void) => Promise<DrainSession>;

/**
 * A contender on the SDK: `connected()` gives a client that reached Ready; its 'userUpdated' handler counts an event
 * once it has read the user — from the event (`'payload'`: read in the same crossing as the delivery) or with
 * getUser(userId) (`'getUser'`: the shape before events carried their payload).
 */
export function sdkContender(connected: () => Promise<Client>, reads: 'payload' | 'getUser'): DrainStart {
  return async (onEvent) => {
    const client = await connected();
    client.on('userUpdated', (userId, user) => {
      const read = reads === 'payload' ? user : client.getUser(userId);
      if (read?.username !== undefined) onEvent();
    });
    return { userId: client.currentUser!.id.toString(), close: () => client.close() };
  };
}

export interface DrainPlan {
  dispatches: number;
  /** How long the JS thread is held after the stream was published. */
  queueMs: number;
  rounds: number;
  /** Rounds run first and not counted (V8 optimises each contender's code during them). */
  warmUpRounds: number;
}

/** One drain: its rate (dispatches/s, wall clock) and the process's CPU time per dispatch (ns). */
export interface Drain {
  perSecond: number;
  cpuNsPerEvent: number;
}

/** Blocks the JS thread (no event loop turn, no handler) for `ms`; the SDK's own threads keep receiving. */
function holdJsThread(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Dispatches per second the handler drains once all of them were queued, and the process's CPU time per dispatch over
 * the same span, which other load on a shared machine inflates far less than the wall clock (the SDK's own threads
 * are idle then: everything is queued).
 */
export async function drainOnce(start: DrainStart, platform: DrainPlatform, plan: DrainPlan): Promise<Drain> {
  let received = 0;
  let last = 0n;
  let cpuAtLast = { user: 0, system: 0 };
  let done: () => void = () => {};
  const finished = new Promise<void>((resolve) => (done = resolve));
  const session = await start(() => {
    received += 1;
    if (received === plan.dispatches) {
      last = process.hrtime.bigint();
      cpuAtLast = process.cpuUsage();
      done();
    }
  });
  const d = { id: session.userId, username: 'bench_user', global_name: 'Bench' };
  postDevRouteHoldingJs(platform, '/gateway/dispatch', {
    user_ids: [session.userId],
    t: 'USER_UPDATE',
    d,
    count: plan.dispatches,
  });
  holdJsThread(plan.queueMs);
  // Timed from the end of the hold: what the handler drains from here on was queued at the client.
  const receivedBefore = received; // 0: no handler could run while the JS thread was held
  const cpuFirst = process.cpuUsage();
  const first = process.hrtime.bigint();
  await finished;
  await session.close();
  const drained = plan.dispatches - receivedBefore;
  const cpuMicros = cpuAtLast.user + cpuAtLast.system - cpuFirst.user - cpuFirst.system;
  return { perSecond: drained / (Number(last - first) / 1e9), cpuNsPerEvent: (cpuMicros * 1000) / drained };
}

/** Every contender once per round, the order rotated so that load from elsewhere falls on all of them alike. */
export async function drainRounds(
  contenders: Array<[string, DrainStart]>,
  platform: DrainPlatform,
  plan: DrainPlan,
): Promise<Map<string, Drain[]>> {
  const drains = new Map<string, Drain[]>(contenders.map(([name]) => [name, []]));
  for (let round = 0; round < plan.warmUpRounds + plan.rounds; round++) {
    for (let i = 0; i < contenders.length; i++) {
      const [name, start] = contenders[(i + round) % contenders.length]!;
      const drain = await drainOnce(start, platform, plan);
      if (round >= plan.warmUpRounds) drains.get(name)!.push(drain);
    }
  }
  return drains;
}

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** The median rate, the worst rate and the median CPU time per dispatch of one contender's drains. */
export function summarize(runs: Drain[]): { perSecond: number; worst: number; cpuNs: number } {
  return {
    perSecond: median(runs.map((d) => d.perSecond)),
    worst: Math.min(...runs.map((d) => d.perSecond)),
    cpuNs: median(runs.map((d) => d.cpuNsPerEvent)),
  };
}

export const formatRate = (value: number) => Math.round(value).toLocaleString('en-US');
