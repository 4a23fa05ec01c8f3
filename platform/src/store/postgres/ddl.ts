/**
 * Carries a migration written in SQLite's DDL to PostgreSQL. Only column types change:
 * - INTEGER → BIGINT: timestamps are milliseconds since the epoch (past 32 bits); the adapter reads BIGINT back as
 *   a JS number, like SQLite's INTEGER.
 * - BLOB → BYTEA.
 * - TEXT → TEXT COLLATE "C": SQLite compares text bytewise, and the snowflake ordering (`length(id), id`), unique
 *   names and prefix searches rely on it; a database created with another default collation would order differently.
 * Identifiers are lower-case snake_case in every migration, so a whole-word match on the type names is exact.
 */
export function postgresDdl(sqliteDdl: string): string {
  return sqliteDdl
    .replace(/\bINTEGER\b/g, 'BIGINT')
    .replace(/\bBLOB\b/g, 'BYTEA')
    .replace(/\bTEXT\b/g, 'TEXT COLLATE "C"');
}
