import type { z } from 'zod';
import { RpcError } from '../codes.js';
import { RpcFailure, type CommandPayload, type RpcConnection } from '../connection.js';
import type { ConsentQueue } from '../consent.js';
import type { DesktopUi } from '../desktop-ui.js';
import type { LaunchRegistry } from '../launch-registry.js';
import type { LinkApplication, LinkUser, PlatformLink } from '../link/platform-link.js';
import { isSnowflake } from '../../ids/snowflake.js';

/** The platform (through its link) and the local-client state a command runs against. */
export interface RpcEnvironment {
  link: PlatformLink;
  /** The desktop user's id (known once the local client signed in). */
  desktopUserId(): string;
  /** The platform's clock (tests may move it). */
  now(): number;
  consent: ConsentQueue;
  launches: LaunchRegistry;
  desktop: DesktopUi;
  /** A game subscribed to an event: queued events for it (a launch by join) go out now. */
  subscribed(connection: RpcConnection, evt: string): void;
}

export interface CommandResult {
  data: unknown;
  evt?: string;
}

export type CommandHandler = (
  env: RpcEnvironment,
  connection: RpcConnection & { app: NonNullable<RpcConnection['app']> },
  payload: CommandPayload,
) => CommandResult | Promise<CommandResult>;

/** Validates `args`; a problem is error 4000 naming the first bad field (`args.activity.type: …`). */
export function parseArgs<T extends z.ZodType>(schema: T, args: unknown, prefix = 'args'): z.output<T> {
  const parsed = schema.safeParse(args);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const path = [prefix, ...issue.path.map(String)].join('.');
  throw new RpcFailure(RpcError.INVALID_PAYLOAD, `${path}: ${issue.message}`);
}

/** The user named by a command's `user_id`; 4010 when there is no such (non-bot) user. */
export async function argUser(env: RpcEnvironment, application: LinkApplication, userId: string): Promise<LinkUser> {
  const user = isSnowflake(userId) ? await env.link.user(application, userId) : undefined;
  if (!user) throw new RpcFailure(RpcError.INVALID_USER, 'Invalid User');
  return user;
}
