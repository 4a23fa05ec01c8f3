/**
 * REGISTER_LAUNCH_COMMAND (OURS, PROTOCOL.md §12.6): the game tells the local client how to start it, so a join
 * accepted while it is not running can launch it.
 */
import { z } from 'zod';
import { parseArgs, type CommandHandler } from './types.js';

const launchArgs = z.object({ command: z.string().min(1).max(1024) });

export const registerLaunchCommand: CommandHandler = (env, connection, { args }) => {
  const { command } = parseArgs(launchArgs, args);
  const desktopEntry = env.launches.register(connection.app.id, connection.app.name, command);
  return { data: { command, desktop_entry: desktopEntry ?? null } };
};
