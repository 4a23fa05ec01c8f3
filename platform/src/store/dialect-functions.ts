import type { Migration } from './sqlite/migrations.js';

/**
 * SQLite built-ins the shared SQL uses that PostgreSQL names differently, defined once in PostgreSQL under the
 * SQLite name (applied by migrateArea under `schema:dialect-functions`; a no-op on SQLite).
 */
export const DIALECT_FUNCTION_MIGRATIONS: readonly Migration[] = [
  {
    sqlite: '',
    // instr(haystack, needle): 1-based position of needle, 0 when absent — PostgreSQL's strpos.
    postgres:
      'CREATE FUNCTION instr(haystack TEXT, needle TEXT) RETURNS INTEGER LANGUAGE sql IMMUTABLE STRICT ' +
      'AS $$ SELECT strpos(haystack, needle) $$',
  },
];
