/**
 * The one database surface the SQL repositories (`store/sqlite/*.ts`) are written against: better-sqlite3's
 * statement shape (`prepare(sql)` → `run`/`get`/`all`, `?` or `@name` placeholders). SQLite implements it natively
 * (`store/sqlite/connection.ts`); PostgreSQL through a thin synchronous adapter (`store/postgres/connection.ts`), so
 * each query has ONE SQL text, written in the dialect both engines share (see `platform/README.md`, "Deployment").
 */
export interface SqlStatement {
  run(...params: unknown[]): unknown;
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
}

export type SqlDialect = 'sqlite' | 'postgres';

export interface SqlDatabase {
  readonly dialect: SqlDialect;
  prepare(sql: string): SqlStatement;
  /** Runs one or more statements without parameters (migrations). */
  exec(sql: string): void;
  /** Runs `fn` atomically; nested calls become savepoints (better-sqlite3's semantics). */
  transaction<T>(fn: () => T): T;
  close(): void;
}
