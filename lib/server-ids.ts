// Snowflake ids at the server helpers' edge: callers may hold them as bigint (as everywhere else in svcpp) or as the
// decimal strings the wire and their own databases use; the helpers return bigint. Pure TypeScript, no native code.
import { SvcppError } from './errors.js';

/** A snowflake as a caller may hold it: a bigint or its decimal string. */
export type Snowflake = bigint | string;

const MAX_SNOWFLAKE = (1n << 64n) - 1n;
const DECIMAL = /^[0-9]{1,20}$/;

/**
 * The id as a bigint, checked: a positive 64-bit value, given as a bigint or as plain decimal digits (no sign,
 * spaces, exponent or hex — `Number` and `BigInt` would accept some of those). Throws SvcppError
 * ERR_SVCPP_INVALID_ARGUMENT naming `what`, before any request is sent.
 */
export function toSnowflake(value: Snowflake, what: string): bigint {
  let id: bigint | undefined;
  if (typeof value === 'bigint') id = value;
  else if (typeof value === 'string' && DECIMAL.test(value)) id = BigInt(value);
  if (id === undefined || id <= 0n || id > MAX_SNOWFLAKE) {
    throw new SvcppError(
      'ERR_SVCPP_INVALID_ARGUMENT',
      `svcpp: ${what} must be a positive 64-bit snowflake (bigint or decimal string), got ${describe(value)}`,
    );
  }
  return id;
}

/** The wire form (decimal string) of a checked id. */
export function snowflakeParam(value: Snowflake, what: string): string {
  return toSnowflake(value, what).toString();
}

/** A snowflake the platform sent (a decimal string in JSON) as a bigint. */
export function fromWire(value: string): bigint {
  return BigInt(value);
}

function describe(value: unknown): string {
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  return typeof value;
}
