/**
 * Rich presence commands (PROTOCOL.md §12.5): SET_ACTIVITY is the platform's presence update (the same operation as
 * gateway op 3 and `POST /users/@me/presence`) for the desktop user and the game's application;
 * SEND_ACTIVITY_JOIN_INVITE answers a join request with a real game invite; CLOSE_ACTIVITY_REQUEST declines one.
 */
import { z } from 'zod';
import { activitySchema } from '../../social/presence/activity.js';
import { argUser, parseArgs, type CommandHandler } from './types.js';

const setActivityArgs = z.object({
  pid: z.int().nonnegative(),
  activity: activitySchema.nullish(),
});

export const setActivity: CommandHandler = async (env, connection, { args }) => {
  const parsed = parseArgs(setActivityArgs, args);
  const activity = await env.link.setActivity(connection.app, parsed.activity ?? null);
  connection.setActivity = activity !== null;
  return { data: activity };
};

const userArgs = z.object({ user_id: z.string() });

export const sendActivityJoinInvite: CommandHandler = async (env, connection, { args }) => {
  const recipient = await argUser(env, connection.app, parseArgs(userArgs, args).user_id);
  await env.link.sendJoinInvite(connection.app, recipient.id);
  return { data: null };
};

/** Declining a join request: the requester simply gets no invite (nothing is stored for a request). */
export const closeActivityRequest: CommandHandler = async (env, connection, { args }) => {
  await argUser(env, connection.app, parseArgs(userArgs, args).user_id);
  return { data: null };
};
