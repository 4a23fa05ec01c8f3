/** Request helpers shared by the social routes. */
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import type { PlatformContext } from '../context.js';
import { Errors, invalidFormBody } from '../http/errors.js';
import { limitByKey } from '../http/rate-limit-hooks.js';
import { zodErrorTree } from '../http/validation.js';
import type { UserRecord } from '../store/types.js';

export const API = '/api/v10';

/** Query booleans accept true|True|1 and false|False|0 (published rule). */
export const queryBoolean = z.enum(['true', 'True', '1', 'false', 'False', '0']).transform((v) => v === 'true' || v === 'True' || v === '1');

export function parseQuery<S extends z.ZodType>(schema: S, query: unknown): z.output<S> {
  const result = schema.safeParse(query ?? {});
  if (!result.success) throw invalidFormBody(zodErrorTree(result.error, query));
  return result.data;
}

/** The user named by a path id; malformed, unknown and bot ids are all `404 10013` (bots have no social graph). */
export function pathUser(ctx: PlatformContext, id: string): UserRecord {
  const user = /^\d{1,20}$/.test(id) ? ctx.store.users.get(id) : undefined;
  if (!user || user.bot) throw Errors.unknownUser();
  return user;
}

/** Per-user (or per-user-and-application) bucket; true when the request was answered with 429. */
export function limited(ctx: PlatformContext, reply: FastifyReply, bucket: string, key: string): boolean {
  return limitByKey(ctx.rateLimiter, reply, bucket, key, ctx.now());
}
