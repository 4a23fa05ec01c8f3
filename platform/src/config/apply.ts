import { ApiError, fieldError, invalidFormBody } from '../http/errors.js';
import { INVALID_UNICODE, unpairedSurrogatePath } from '../http/json-input.js';
import { parseBody } from '../http/validation.js';
import { upsertApplication, type ApplicationUpsert } from '../bot-api/applications/create.js';
import type { ApplicationRecord } from '../store/types.js';
import { platformConfigSchema, type PlatformConfig } from './schema.js';
import { upsertGuild } from './guilds.js';
import { applyUserReferences, upsertUserBase } from './users.js';

/**
 * Applies a platform config in dependency order: users, applications (a parent must be listed before its
 * children; owners are users), guilds (members are users and applications' bots), then the user fields that point
 * at guilds and applications. All or nothing; a reference that does not resolve fails with its place in the config
 * (`guilds.1.bots.0`).
 */
export function applyConfig(ctx: ApplicationUpsert, input: PlatformConfig): ApplicationRecord[] {
  let config;
  try {
    // Like an HTTP body: no unpaired surrogate may reach the database.
    const bad = unpairedSurrogatePath(input);
    if (bad) throw fieldError(bad, INVALID_UNICODE.code, INVALID_UNICODE.message);
    config = parseBody(platformConfigSchema, input);
  } catch (error) {
    throw configError(error);
  }
  try {
    return ctx.store.transaction(() => {
      const users = config.users.map((user, index) => at(['users', index], () => upsertUserBase(ctx, user)));
      const apps = config.applications.map((app, index) =>
        at(['applications', index], () => upsertApplication(ctx, app).app),
      );
      config.guilds.forEach((guild, index) => at(['guilds', index], () => upsertGuild(ctx, guild)));
      config.users.forEach((user, index) => at(['users', index], () => applyUserReferences(ctx, users[index]!, user)));
      return apps;
    });
  } catch (error) {
    throw configError(error);
  }
}

/** Runs `apply` for one entry of the config; its field errors are moved under the entry's place in the config. */
function at<T>(path: [string, number], apply: () => T): T {
  try {
    return apply();
  } catch (error) {
    if (!(error instanceof ApiError) || error.errors === undefined) throw error;
    throw invalidFormBody({ [path[0]]: { [String(path[1])]: error.errors } });
  }
}

function configError(error: unknown): Error {
  if (error instanceof ApiError) {
    return new Error(`invalid platform config: ${JSON.stringify(error.errors ?? error.message)}`);
  }
  return error instanceof Error ? error : new Error(String(error));
}
