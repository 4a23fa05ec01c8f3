/**
 * The two start-up settings a deployment most often keeps out of its command line: the database (`--db`) and the
 * broker (`--broker`). Their URLs carry credentials, and a command line is visible to every user of the machine
 * (`ps`, /proc/<pid>/cmdline), so besides the flag each may come from an environment variable or from the config file
 * (`--config`, which already holds the applications' secrets): the first that gives a value wins —
 *   --db / --broker  →  SVCPP_DB / SVCPP_BROKER  →  the config file's "database" / "broker"  →  the default.
 * The config file's other keys (applications, users, guilds, developer_account) are the platform config (§7).
 */
import { z } from 'zod';

export const DEPLOYMENT_ENV = { database: 'SVCPP_DB', broker: 'SVCPP_BROKER' } as const;
export const DEFAULT_DATABASE_FILE = 'svcpp-platform.db';

const setting = z.string().min(1).max(4096);
const fileKeysSchema = z.object({ database: setting.optional(), broker: setting.optional() });

export interface DeploymentSources {
  /** The command line's values (undefined when the flag was not given). */
  flags: { db?: string | undefined; broker?: string | undefined };
  env: Record<string, string | undefined>;
  /** The config file's parsed JSON, when --config was given. */
  file?: unknown;
}

export interface DeploymentSettings {
  database: string;
  broker: string | undefined;
  /** Where each came from, for the start-up message (never the value: it may hold a password). */
  from: { database: 'flag' | 'env' | 'config file' | 'default'; broker: 'flag' | 'env' | 'config file' | 'none' };
  /** The config file without the two keys: the platform config (§7), or undefined without a file. */
  config: Record<string, unknown> | undefined;
}

/** Resolves --db and --broker; a bad config-file value or an empty variable is an error that names its source. */
export function resolveDeployment({ flags, env, file }: DeploymentSources): DeploymentSettings {
  let config: Record<string, unknown> | undefined;
  let fromFile: z.output<typeof fileKeysSchema> = {};
  if (file !== undefined) {
    if (typeof file !== 'object' || file === null || Array.isArray(file))
      throw new Error('config file: expected a JSON object');
    const { database, broker, ...rest } = file as Record<string, unknown>;
    const parsed = fileKeysSchema.safeParse({ database, broker });
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new Error(`config file: "${issue.path.join('.')}" ${issue.message} (a non-empty string)`);
    }
    fromFile = parsed.data;
    config = rest;
  }
  for (const name of Object.values(DEPLOYMENT_ENV)) {
    if (env[name] === '') throw new Error(`${name} is set but empty: unset it, or give it a value`);
  }
  const envDatabase = env[DEPLOYMENT_ENV.database];
  const envBroker = env[DEPLOYMENT_ENV.broker];
  const database =
    flags.db !== undefined
      ? { value: flags.db, from: 'flag' as const }
      : envDatabase !== undefined
        ? { value: envDatabase, from: 'env' as const }
        : fromFile.database !== undefined
          ? { value: fromFile.database, from: 'config file' as const }
          : { value: DEFAULT_DATABASE_FILE, from: 'default' as const };
  const broker =
    flags.broker !== undefined
      ? { value: flags.broker, from: 'flag' as const }
      : envBroker !== undefined
        ? { value: envBroker, from: 'env' as const }
        : fromFile.broker !== undefined
          ? { value: fromFile.broker, from: 'config file' as const }
          : { value: undefined, from: 'none' as const };
  return {
    database: database.value,
    broker: broker.value,
    from: { database: database.from, broker: broker.from },
    config,
  };
}
