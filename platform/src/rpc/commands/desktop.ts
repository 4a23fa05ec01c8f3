/**
 * The desktop client's UI requests games make (OURS, PROTOCOL.md §12.7): OPEN_MESSAGE, OPEN_CONNECTED_GAMES_SETTINGS,
 * SET_SHOWING_CHAT. The local client records them (DesktopUi); a message must be one the desktop user can see.
 */
import { z } from 'zod';
import { RpcError } from '../codes.js';
import { RpcFailure } from '../connection.js';
import { parseArgs, type CommandHandler } from './types.js';
import { SNOWFLAKE_PATTERN } from '../../ids/snowflake.js';

const snowflake = z.string().regex(SNOWFLAKE_PATTERN, 'must be an id (a string of digits)');
const openMessageArgs = z.object({ message_id: snowflake, channel_id: snowflake.optional() });
const showingChatArgs = z.object({ showing: z.boolean() });

export const openMessage: CommandHandler = async (env, connection, { args }) => {
  const { message_id, channel_id } = parseArgs(openMessageArgs, args);
  if (!(await env.link.canSeeMessage(connection.app, message_id, channel_id)))
    throw new RpcFailure(RpcError.INVALID_PAYLOAD, 'Unknown Message');
  env.desktop.record({
    kind: 'open-message',
    applicationId: connection.app.id,
    messageId: message_id,
    channelId: channel_id ?? null,
  });
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
