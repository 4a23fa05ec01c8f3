import type { PlatformContext } from '../context.js';
import { ApiError, fieldError } from '../http/errors.js';
import { INVALID_UNICODE, unpairedSurrogatePath } from '../http/json-input.js';
import { parseBody } from '../http/validation.js';
import { upsertApplication } from '../applications/create.js';
import type { ApplicationRecord } from '../store/types.js';
import { platformConfigSchema, type PlatformConfig } from './schema.js';
import { upsertGuild } from './guilds.js';
import { applyUserReferences, upsertUserBase } from './users.js';

/**
 * Applies a platform config in dependency order: users, guilds, applications (a parent must be listed before
 * its children), then the user fields that point at guilds and applications. All or nothing.
 */
export function applyConfig(ctx: PlatformContext, input: PlatformConfig): ApplicationRecord[] {
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
      const users = config.users.map((user) => upsertUserBase(ctx, user));
      config.guilds.forEach((guild) => upsertGuild(ctx, guild));
      const apps = config.applications.map((app) => upsertApplication(ctx, app).app);
      config.users.forEach((user, index) => applyUserReferences(ctx, users[index]!, user));
      return apps;
    });
  } catch (error) {
    throw configError(error);
  }
}

function configError(error: unknown): Error {
  if (error instanceof ApiError) {
    return new Error(`invalid platform config: ${JSON.stringify(error.errors ?? error.message)}`);
  }
  return error instanceof Error ? error : new Error(String(error));
}
