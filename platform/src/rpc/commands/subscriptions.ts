/**
 * SUBSCRIBE / UNSUBSCRIBE (PROTOCOL.md §12.5). The activity events need no authentication (rich presence works
 * with the handshake alone); GUILD_STATUS needs AUTHENTICATE with `guilds` and a guild the desktop user is in, and
 * answers with the guild's status at once.
 */
import { z } from 'zod';
import { hasScope } from '../../oauth/scopes.js';
import { RpcError } from '../codes.js';
import { RpcFailure, type RpcConnection } from '../connection.js';
import { parseArgs, type CommandHandler, type RpcEnvironment } from './types.js';
import { isSnowflake } from '../../ids/snowflake.js';

/** Events any game may subscribe to with the handshake alone (AUTHORIZE_REQUEST is OURS, PROTOCOL.md §12.5). */
export const ACTIVITY_EVENTS = new Set([
  'ACTIVITY_JOIN',
  'ACTIVITY_SPECTATE',
  'ACTIVITY_JOIN_REQUEST',
  'ACTIVITY_INVITE',
  'AUTHORIZE_REQUEST',
]);
const GUILD_STATUS = 'GUILD_STATUS';
const guildArgs = z.object({ guild_id: z.string() });

/** The subscription key, after checking the event may be subscribed to by this connection. */
async function subscriptionKey(
  env: RpcEnvironment,
  connection: RpcConnection,
  evt: string | undefined,
  args: unknown,
): Promise<{ key: string; guild?: { id: string; name: string } }> {
  if (evt !== undefined && ACTIVITY_EVENTS.has(evt)) return { key: evt };
  if (evt !== GUILD_STATUS) throw new RpcFailure(RpcError.INVALID_EVENT, `Invalid event: ${evt ?? '(none)'}`);
  if (!connection.auth || connection.auth.expiresAt <= env.now() || !hasScope(connection.auth.scopes, 'guilds')) {
    throw new RpcFailure(RpcError.INVALID_PERMISSIONS, 'Not authenticated or invalid scope');
  }
  const { guild_id } = parseArgs(guildArgs, args);
  // Asked with the game's own token (it holds `guilds`): the guilds of its user, the desktop user.
  const guild = isSnowflake(guild_id) ? await env.link.guild(connection.auth.accessToken, guild_id) : undefined;
  if (!guild) throw new RpcFailure(RpcError.INVALID_GUILD, 'Invalid Guild');
  return { key: `${GUILD_STATUS}:${guild_id}`, guild };
}

export const subscribe: CommandHandler = async (env, connection, { evt, args }) => {
  const { key, guild } = await subscriptionKey(env, connection, evt, args);
  connection.subscriptions.add(key);
  if (guild !== undefined) {
    // Sent after the response: the game learns the status it subscribed to without waiting for a change.
    setImmediate(() =>
      connection.dispatch(GUILD_STATUS, { guild: { id: guild.id, name: guild.name, icon_url: null }, online: 0 }),
    );
  } else {
    setImmediate(() => env.subscribed(connection, key));
  }
  return { data: { evt }, evt };
};

export const unsubscribe: CommandHandler = async (env, connection, { evt, args }) => {
  connection.subscriptions.delete((await subscriptionKey(env, connection, evt, args)).key);
  return { data: { evt }, evt };
};
