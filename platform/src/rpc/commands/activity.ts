/**
 * Rich presence commands (PROTOCOL.md §12.5): SET_ACTIVITY goes through the same presence service as gateway op 3
 * and `POST /users/@me/presence`, for the desktop user and the game's application; SEND_ACTIVITY_JOIN_INVITE
 * answers a join request with a real game invite; CLOSE_ACTIVITY_REQUEST declines one.
 */
import { z } from 'zod';
import { ApiError } from '../../http/errors.js';
import { INVITE_JOIN } from '../../social/invites/service.js';
import { activitySchema, normaliseActivity } from '../../social/presence/activity.js';
import { RpcError } from '../codes.js';
import { RpcFailure } from '../connection.js';
import { argUser, parseArgs, type CommandHandler } from './types.js';

const setActivityArgs = z.object({
  pid: z.int().nonnegative(),
  activity: activitySchema.nullish(),
});

export const setActivity: CommandHandler = (env, connection, { args }) => {
  const parsed = parseArgs(setActivityArgs, args);
  const user = env.desktopUser();
  const activity = parsed.activity ? normaliseActivity(parsed.activity, connection.app, env.ctx.now()) : null;
  env.social.presence.update(user.id, connection.app.id, { activity });
  connection.setActivity = activity !== null;
  return { data: activity };
};

const userArgs = z.object({ user_id: z.string() });

export const sendActivityJoinInvite: CommandHandler = (env, connection, { args }) => {
  const recipient = argUser(env, parseArgs(userArgs, args).user_id);
  try {
    env.social.invites.send(connection.app, env.desktopUser(), recipient, INVITE_JOIN, '');
  } catch (error) {
    // The platform's refusal (not joinable 80020, blocked 50007, …) keeps its code in the message.
    if (error instanceof ApiError) throw new RpcFailure(RpcError.INVALID_PAYLOAD, `${error.message} (${error.code})`);
    throw error;
  }
  return { data: null };
};

/** Declining a join request: the requester simply gets no invite (nothing is stored for a request). */
export const closeActivityRequest: CommandHandler = (env, _connection, { args }) => {
  argUser(env, parseArgs(userArgs, args).user_id);
  return { data: null };
};
