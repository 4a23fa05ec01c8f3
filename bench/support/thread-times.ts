// Each thread's share of a phase, from Linux's per-thread scheduler statistics (/proc/<pid>/task/<tid>/schedstat:
// nanoseconds on a CPU, nanoseconds runnable but waiting for a CPU, times scheduled onto a CPU). Process totals
// (cpu-time.ts) say how much work a kind of client costs; these say which thread does it, and how long each thread
// waits for a core — what decides a message's latency on a machine with fewer cores than runnable threads
// (docs/lobby-fanout.md). Elsewhere than Linux there is no such file: every figure reads as absent.
import { readFileSync, readdirSync } from 'node:fs';

export interface ThreadTimes {
  onCpuMs: number;
  waitingMs: number;
  timesScheduled: number;
  threads: number;
}

/** Which group a thread of `pid` belongs to (undefined: left out). */
export type GroupOf = (thread: { pid: number; tid: number; name: string }) => string | undefined;

/** The summed times of every thread of `pid`, by group, now. */
export function threadTimes(pid: number, groupOf: GroupOf): Map<string, ThreadTimes> {
  const groups = new Map<string, ThreadTimes>();
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return groups;
  }
  for (const tid of tids) {
    try {
      const name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
      const group = groupOf({ pid, tid: Number(tid), name });
      if (group === undefined) continue;
      const [onCpu, waiting, scheduled] = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8')
        .trim()
        .split(' ')
        .map(Number);
      const sum = groups.get(group) ?? { onCpuMs: 0, waitingMs: 0, timesScheduled: 0, threads: 0 };
      groups.set(group, {
        onCpuMs: sum.onCpuMs + onCpu! / 1e6,
        waitingMs: sum.waitingMs + waiting! / 1e6,
        timesScheduled: sum.timesScheduled + scheduled!,
        threads: sum.threads + 1,
      });
    } catch {
      // The thread ended between the listing and the read: its time is gone with it.
    }
  }
  return groups;
}

/** after − before per group, divided by `per` (a group only `after` has counts from zero). */
export function threadTimesSince(
  before: Map<string, ThreadTimes>,
  after: Map<string, ThreadTimes>,
  per: number,
): Map<string, ThreadTimes> {
  const zero: ThreadTimes = { onCpuMs: 0, waitingMs: 0, timesScheduled: 0, threads: 0 };
  return new Map(
    [...after].map(([group, now]) => {
      const then = before.get(group) ?? zero;
      return [
        group,
        {
          onCpuMs: (now.onCpuMs - then.onCpuMs) / per,
          waitingMs: (now.waitingMs - then.waitingMs) / per,
          timesScheduled: (now.timesScheduled - then.timesScheduled) / per,
          threads: now.threads,
        },
      ];
    }),
  );
}

/** "name 0.58 ms on a CPU, 0.61 ms waiting, scheduled 20×" for each group, in the order given. */
export function formatThreadTimes(groups: Map<string, ThreadTimes>, order: string[]): string {
  return order
    .filter((group) => groups.has(group))
    .map((group) => {
      const { onCpuMs, waitingMs, timesScheduled, threads } = groups.get(group)!;
      const count = threads > 1 ? ` (${threads})` : '';
      return (
        `${group}${count} ${onCpuMs.toFixed(2)} ms on a CPU, ${waitingMs.toFixed(2)} waiting, ` +
        `scheduled ${timesScheduled.toFixed(1)}×`
      );
    })
    .join('; ');
}
