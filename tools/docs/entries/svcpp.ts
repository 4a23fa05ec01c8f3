/**
 * `svcpp`: the game client SDK — {@link Client} (sign-in, connection, friends, presence, lobbies, messages) over the
 * native core, through the Node-API addon or koffi. Also re-exports everything of `svcpp/server`.
 *
 * @module svcpp
 */
export * from '../../../lib/index.js';
