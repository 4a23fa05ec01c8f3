/**
 * REGISTER_LAUNCH_COMMAND (OURS, PROTOCOL.md §12.6): the game tells the local client how to start it, so a join
 * accepted while it is not running can launch it — a command line, or a Steam application started through Steam's
 * URL. `application_id` (default: the handshake's) lets a launcher register the games it starts.
 */
import { z } from 'zod';
import { RpcError } from '../codes.js';
import { RpcFailure } from '../connection.js';
import { steamLaunchCommand } from '../launch-registry.js';
import { parseArgs, type CommandHandler } from './types.js';
import { isSnowflake } from '../../ids/snowflake.js';

const launchArgs = z.union([
  z.object({ application_id: z.string().optional(), command: z.string().min(1).max(1024) }).strict(),
  z.object({ application_id: z.string().optional(), steam_app_id: z.number().int().min(1).max(0xffffffff) }).strict(),
]);

export const registerLaunchCommand: CommandHandler = async (env, connection, { args }) => {
  const parsed = parseArgs(launchArgs, args);
  const appId = parsed.application_id ?? connection.app.id;
  const app =
    appId === connection.app.id ? connection.app : isSnowflake(appId) ? await env.link.application(appId) : undefined;
  if (!app) throw new RpcFailure(RpcError.INVALID_CLIENT_ID, `Invalid application id: ${appId}`);
  const steam = 'steam_app_id' in parsed;
  const command = steam ? steamLaunchCommand(parsed.steam_app_id) : parsed.command;
  const desktopEntry = env.launches.register(app.id, app.name, command, !steam);
  return { data: { application_id: app.id, command, desktop_entry: desktopEntry ?? null } };
};
