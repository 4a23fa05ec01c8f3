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

/** Events any game may subscribe to with the handshake alone (AUTHORIZE_REQUEST is OURS, PROTOCOL.md §12.5). */
export const ACTIVITY_EVENTS = new Set(['ACTIVITY_JOIN', 'ACTIVITY_SPECTATE', 'ACTIVITY_JOIN_REQUEST', 'ACTIVITY_INVITE', 'AUTHORIZE_REQUEST']);
const GUILD_STATUS = 'GUILD_STATUS';
const guildArgs = z.object({ guild_id: z.string() });

/** The subscription key, after checking the event may be subscribed to by this connection. */
function subscriptionKey(env: RpcEnvironment, connection: RpcConnection, evt: string | undefined, args: unknown): { key: string; guildId?: string } {
  if (evt !== undefined && ACTIVITY_EVENTS.has(evt)) return { key: evt };
  if (evt !== GUILD_STATUS) throw new RpcFailure(RpcError.INVALID_EVENT, `Invalid event: ${evt ?? '(none)'}`);
  if (!connection.auth || connection.auth.expiresAt <= env.ctx.now() || !hasScope(connection.auth.scopes, 'guilds')) {
    throw new RpcFailure(RpcError.INVALID_PERMISSIONS, 'Not authenticated or invalid scope');
  }
  const { guild_id } = parseArgs(guildArgs, args);
  const user = env.desktopUser();
  if (!/^\d{1,20}$/.test(guild_id) || !env.ctx.store.guilds.get(guild_id) || !env.ctx.store.guilds.isMember(guild_id, user.id)) {
    throw new RpcFailure(RpcError.INVALID_GUILD, 'Invalid Guild');
  }
  return { key: `${GUILD_STATUS}:${guild_id}`, guildId: guild_id };
}

export const subscribe: CommandHandler = (env, connection, { evt, args }) => {
  const { key, guildId } = subscriptionKey(env, connection, evt, args);
  connection.subscriptions.add(key);
  if (guildId !== undefined) {
    // Sent after the response: the game learns the status it subscribed to without waiting for a change.
    const guild = env.ctx.store.guilds.get(guildId)!;
    setImmediate(() => connection.dispatch(GUILD_STATUS, { guild: { id: guild.id, name: guild.name, icon_url: null }, online: 0 }));
  } else {
    setImmediate(() => env.subscribed(connection, key));
  }
  return { data: { evt }, evt };
};

export const unsubscribe: CommandHandler = (env, connection, { evt, args }) => {
  connection.subscriptions.delete(subscriptionKey(env, connection, evt, args).key);
  return { data: { evt }, evt };
};
