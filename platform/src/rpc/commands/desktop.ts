/**
 * The desktop client's UI requests games make (OURS, PROTOCOL.md §12.7): OPEN_MESSAGE, OPEN_CONNECTED_GAMES_SETTINGS,
 * SET_SHOWING_CHAT. The local client records them (DesktopUi); a message must be one the desktop user can see.
 */
import { z } from 'zod';
import { RpcError } from '../codes.js';
import { RpcFailure } from '../connection.js';
import { parseArgs, type CommandHandler, type RpcEnvironment } from './types.js';

const snowflake = z.string().regex(/^\d{1,20}$/, 'must be an id (a string of digits)');
const openMessageArgs = z.object({ message_id: snowflake, channel_id: snowflake.optional() });
const showingChatArgs = z.object({ showing: z.boolean() });

/** A DM the desktop user sent or received, or a message of a lobby `channelId` they are a member of. */
function canSee(env: RpcEnvironment, messageId: string, channelId: string | undefined): boolean {
  const user = env.desktopUser().id;
  const dm = env.ctx.store.directMessages.get(messageId);
  if (dm) return dm.authorId === user || dm.recipientId === user;
  if (channelId === undefined) return false;
  return env.ctx.store.lobbies.message(channelId, messageId) !== undefined && env.ctx.store.lobbies.member(channelId, user) !== undefined;
}

export const openMessage: CommandHandler = (env, connection, { args }) => {
  const { message_id, channel_id } = parseArgs(openMessageArgs, args);
  if (!canSee(env, message_id, channel_id)) throw new RpcFailure(RpcError.INVALID_PAYLOAD, 'Unknown Message');
  env.desktop.record({ kind: 'open-message', applicationId: connection.app.id, messageId: message_id, channelId: channel_id ?? null });
  return { data: null };
};

export const openConnectedGamesSettings: CommandHandler = (env, connection) => {
  env.desktop.record({ kind: 'open-connected-games-settings', applicationId: connection.app.id });
  return { data: null };
};

export const setShowingChat: CommandHandler = (env, connection, { args }) => {
  const { showing } = parseArgs(showingChatArgs, args);
  env.desktop.setShowingChat(connection, showing);
  return { data: { showing } };
};
