/**
 * Snowflake ids with the published layout so timestamps extract the same way: bits 63–22 ms since
 * SNOWFLAKE_EPOCH_MS, 21–17 worker, 16–12 process, 11–0 increment.
 */
export const SNOWFLAKE_EPOCH_MS = 1_420_070_400_000n;

export class SnowflakeGenerator {
  private lastMs = -1n;
  private increment = 0n;

  constructor(
    private readonly now: () => number,
    private readonly workerId = 0n,
    private readonly processId = BigInt(process.pid & 0x1f),
  ) {}

  next(): string {
    let ms = BigInt(Math.floor(this.now()));
    // A clock that goes backwards (tests move it freely) must never produce a duplicate id.
    if (ms < this.lastMs) ms = this.lastMs;
    if (ms === this.lastMs) {
      this.increment = (this.increment + 1n) & 0xfffn;
      if (this.increment === 0n) ms += 1n; // 4096 ids in one ms: borrow the next ms.
    } else {
      this.increment = 0n;
    }
    this.lastMs = ms;
    const id = ((ms - SNOWFLAKE_EPOCH_MS) << 22n) | (this.workerId << 17n) | (this.processId << 12n) | this.increment;
    return id.toString();
  }
}

export function snowflakeTimestampMs(id: string): number {
  return Number((BigInt(id) >> 22n) + SNOWFLAKE_EPOCH_MS);
}

export const SNOWFLAKE_PATTERN = /^\d{1,20}$/;

/** An id as every route and input takes it: 1 to 20 decimal digits (no sign, no spaces). */
export function isSnowflake(value: string): boolean {
  return SNOWFLAKE_PATTERN.test(value);
}

/**
 * Find-or-throw by an id from outside (a path, a body, an argument): a value that is not an id finds nothing
 * without asking the store, and nothing found is the area's own "unknown" error — the same answer for an id that
 * names nothing and for one that could not be an id.
 */
export function requireById<T>(id: string, find: (id: string) => T | undefined, unknown: () => Error): T {
  const found = isSnowflake(id) ? find(id) : undefined;
  if (found === undefined || found === null) throw unknown();
  return found;
}
