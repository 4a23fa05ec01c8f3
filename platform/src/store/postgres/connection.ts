import { createRequire } from 'node:module';
import type Client from 'pg-native';
import type { SqlDatabase, SqlStatement } from '../sql-database.js';
import { translatePlaceholders, type TranslatedSql } from './placeholders.js';
import { toParameter, typeParsers } from './values.js';

/**
 * A PostgreSQL connection as the repositories' SqlDatabase. Synchronous, through libpq (pg-native): a query blocks
 * the event loop for one round trip, exactly like better-sqlite3 blocks it for one disk access — which keeps the
 * synchronous repository interface and every caller unchanged (the trade-off is in platform/README.md, "Deployment").
 *
 * Statements are prepared on the server once per connection and SQL text.
 */
export function openPostgresDatabase(connectionString: string): SqlDatabase {
  const client = newClient();
  client.connectSync(connectionString);
  client.querySync("SET client_min_messages = 'warning'");
  const prepared = new Map<string, string>();
  let depth = 0;

  const execute = (sql: TranslatedSql, args: unknown[]): Record<string, unknown>[] => {
    let name = prepared.get(sql.text);
    if (name === undefined) {
      name = `svcpp_${prepared.size + 1}`;
      client.prepareSync(name, sql.text, sql.sources.length);
      prepared.set(sql.text, name);
    }
    return client.executeSync(name, bind(sql, args));
  };

  return {
    dialect: 'postgres',
    prepare(text: string): SqlStatement {
      const sql = translatePlaceholders(text);
      return {
        run: (...args) => void execute(sql, args),
        get: (...args) => execute(sql, args)[0],
        all: (...args) => execute(sql, args),
      };
    },
    exec: (text) => void client.querySync(text),
    transaction<T>(fn: () => T): T {
      // Outermost call: a transaction; nested calls: savepoints, so an inner failure undoes only the inner part.
      const savepoint = depth === 0 ? undefined : `svcpp_sp_${depth}`;
      client.querySync(savepoint ? `SAVEPOINT ${savepoint}` : 'BEGIN');
      depth++;
      try {
        const result = fn();
        client.querySync(savepoint ? `RELEASE SAVEPOINT ${savepoint}` : 'COMMIT');
        return result;
      } catch (error) {
        client.querySync(savepoint ? `ROLLBACK TO SAVEPOINT ${savepoint}` : 'ROLLBACK');
        throw error;
      } finally {
        depth--;
      }
    },
    close: () => endClient(client),
  };
}

/**
 * A libpq client, loaded on first use: a platform on SQLite never loads the native libpq binding (so a machine
 * without libpq still runs the embedded default). pg-native is an optional peer dependency, not a dependency: it
 * compiles against libpq when installed, which made installing the platform take minutes for everyone although
 * PostgreSQL is optional. Only a platform given a postgres:// database needs it, and is told how to get it.
 */
export function newClient(): Client {
  return new (loadPgNative())({ types: typeParsers });
}

function loadPgNative(): typeof Client {
  try {
    return createRequire(import.meta.url)('pg-native') as typeof Client;
  } catch (error) {
    if (
      (error as { code?: unknown }).code !== 'MODULE_NOT_FOUND' ||
      !String((error as Error).message).includes("'pg-native'")
    )
      throw error;
    throw new PostgresDriverMissingError();
  }
}

/** A postgres:// database without the optional driver installed. */
export class PostgresDriverMissingError extends Error {
  override readonly name = 'PostgresDriverMissingError';
  readonly code = 'ERR_SVCPP_PG_NATIVE_MISSING';
  constructor() {
    super(
      'a PostgreSQL database needs the optional package pg-native (libpq bindings): ' +
        'install it next to svcpp-platform ' +
        'with `npm install pg-native@^3.9.0` (it builds against libpq: on Debian/Ubuntu `apt-get install libpq-dev ' +
        'build-essential python3`); SQLite, the default, needs nothing more',
    );
  }
}

/** The parameter list for `$1…$n`: named sources read from the one object argument, positional ones from the list. */
function bind(sql: TranslatedSql, args: unknown[]): (string | null)[] {
  const object = args.length === 1 && isPlainObject(args[0]) ? (args[0] as Record<string, unknown>) : undefined;
  return sql.sources.map((source) => {
    if (typeof source === 'number') {
      if (source >= args.length) throw new RangeError(`too few parameter values for: ${sql.text}`);
      return toParameter(args[source]);
    }
    if (!object || !(source in object)) throw new RangeError(`missing named parameter "${source}"`);
    return toParameter(object[source]);
  });
}

function isPlainObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !(value instanceof Uint8Array) && !Array.isArray(value);
}

/**
 * Closed clients kept reachable for two turns of the event loop. libpq's finish() asks libuv to close the socket
 * watcher embedded in the native connection object but does not wait for it; if the garbage collector freed that
 * object before libuv's closing phase ran, the process aborts (`uv__finish_close` assertion). Two setImmediate turns
 * guarantee one closing phase has passed.
 */
const closing = new Set<Client>();

export function endClient(client: Client): void {
  closing.add(client);
  client.end(() => setImmediate(() => closing.delete(client)));
}
