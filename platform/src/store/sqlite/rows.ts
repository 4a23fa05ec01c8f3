/** Column conversions shared by the SQLite repositories. */
export const bool = (value: unknown): boolean => value === 1;
export const int = (value: boolean): number => (value ? 1 : 0);
export const json = <T>(value: unknown): T => JSON.parse(String(value)) as T;
export type Row = Record<string, unknown>;
export const str = (value: unknown): string => String(value);
export const strOrNull = (value: unknown): string | null =>
  value === null || value === undefined ? null : String(value);
export const numOrNull = (value: unknown): number | null =>
  value === null || value === undefined ? null : Number(value);
