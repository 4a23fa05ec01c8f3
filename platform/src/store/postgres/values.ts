/**
 * Value conversions between JS and PostgreSQL's text format, chosen so rows read the same as from better-sqlite3:
 * integers (BIGINT columns, COUNT) as numbers, booleans (EXISTS, comparisons) as 1/0, BYTEA as Buffers, the rest as
 * strings. Ids are TEXT columns, so 64-bit snowflakes never pass through a JS number.
 */
const INT8 = 20;
const INT2 = 21;
const INT4 = 23;
const NUMERIC = 1700;
const BOOL = 16;
const BYTEA = 17;

export const typeParsers = {
  getTypeParser(oid: number): (value: string) => unknown {
    switch (oid) {
      case INT8:
        return parseSafeInteger;
      case INT2:
      case INT4:
      case NUMERIC:
        return Number;
      case BOOL:
        return (value) => (value === 't' ? 1 : 0);
      case BYTEA:
        return (value) => Buffer.from(value.slice(2), 'hex');
      default:
        return (value) => value;
    }
  },
};

function parseSafeInteger(value: string): number {
  const number = Number(value);
  // A BIGINT column holds milliseconds or counts; past 2^53 a JS number would silently round, so refuse instead.
  if (!Number.isSafeInteger(number)) throw new RangeError(`BIGINT ${value} does not fit a JS number exactly`);
  return number;
}

/** One bound parameter in text format (null stays SQL NULL). */
export function toParameter(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (value instanceof Uint8Array)
    return `\\x${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex')}`;
  throw new TypeError(`cannot bind a ${typeof value} as a SQL parameter`);
}
