/**
 * Vitest global set-up of the PostgreSQL run (SVCPP_TEST_DB=postgres, `npm run test:pg`): a throw-away cluster from
 * Debian's `postgresql` package — `initdb` into a temporary directory, `pg_ctl start` listening only on a Unix socket
 * in that directory (no TCP port, nothing shared with a system cluster), stopped and deleted afterwards. Each test
 * platform then gets its own database in it (test/support/database.ts).
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

/** initdb refuses to run as root; under root (CI containers) the cluster belongs to the package's `postgres` user. */
const RUN_AS = userInfo().uid === 0 ? 'postgres' : undefined;

function postgresBin(tool: string): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  for (const version of versions) {
    const path = join(root, version, 'bin', tool);
    if (existsSync(path)) return path;
  }
  throw new Error(`${tool} not found under ${root}: install Debian's postgresql package (scripts/install-deps.sh)`);
}

function run(tool: string, args: string[]): void {
  const command = RUN_AS ? ['runuser', '-u', RUN_AS, '--', postgresBin(tool), ...args] : [postgresBin(tool), ...args];
  execFileSync(command[0]!, command.slice(1), { stdio: ['ignore', 'ignore', 'inherit'] });
}

export interface TemporaryPostgres {
  /** The Unix-socket directory the server listens in (its only listener). */
  readonly socketDir: string;
  /** A libpq connection URL for one database of the cluster, as user `svcpp`. */
  url(database: string): string;
  stop(): void;
}

/** initdb + pg_ctl start into a fresh temporary directory; `stop()` stops the server and deletes everything. */
export function startTemporaryPostgres(): TemporaryPostgres {
  const dir = mkdtempSync(join(tmpdir(), 'svcpp-pg-'));
  if (RUN_AS) {
    const uid = Number(execFileSync('id', ['-u', RUN_AS], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, -1);
  }
  chmodSync(dir, 0o700);
  const data = join(dir, 'data');
  // C locale: text compares bytewise, as in SQLite. trust: only this user can reach the socket directory (0700).
  run('initdb', ['-D', data, '-U', 'svcpp', '--auth=trust', '--locale=C', '--encoding=UTF8', '--no-sync']);
  // A test cluster: durability off for speed (the platform's own durability is tested on SQLite); enough
  // connections for every platform a test file keeps open at once, across parallel workers.
  const options =
    `-c listen_addresses='' -c unix_socket_directories='${dir}' ` +
    '-c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=400';
  run('pg_ctl', ['-D', data, '-l', join(dir, 'server.log'), '-w', '-o', options, 'start']);
  return {
    socketDir: dir,
    url: (database) => postgresUrl(dir, database),
    stop: () => {
      run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
    },
  };
}

export function postgresUrl(socketDir: string, database: string): string {
  return `postgresql://svcpp@/${database}?host=${encodeURIComponent(socketDir)}`;
}

export default function setup(project: TestProject): () => void {
  const cluster = startTemporaryPostgres();
  project.provide('postgresSocketDir', cluster.socketDir);
  return () => cluster.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    postgresSocketDir: string;
  }
}
