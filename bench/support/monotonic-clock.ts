/**
 * Milliseconds on the system-wide monotonic clock: process.hrtime reads CLOCK_MONOTONIC on Linux, one clock for every
 * process of the machine and never stepped, so a time taken in one process can be subtracted from one taken in
 * another (performance.timeOrigin is each process's own reading of the wall clock at its start, and the wall clock
 * may be stepped or slewed between two processes' starts).
 */
export const monotonicMs = (): number => Number(process.hrtime.bigint()) / 1e6;
