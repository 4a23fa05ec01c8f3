// CPU time of a process, all of its threads, user + system, in milliseconds: this process's from process.cpuUsage(),
// another's (the platform child) from /proc/<pid>/stat, whose figures are in clock ticks (USER_HZ, 100 per second on
// Linux: a 10 ms resolution, fine over phases of seconds).
import { readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100;

export function ownCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

export function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) is in parentheses and may hold spaces: fields are counted after its closing one.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]),
    stime = Number(fields[12]); // fields 14 and 15 of proc(5)
  return ((utime + stime) * 1000) / TICKS_PER_SECOND;
}
