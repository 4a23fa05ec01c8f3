/**
 * `svcpp/server`: for game servers — {@link SvcppServer} (provisional tokens, lobbies as the application's bot) and
 * the webhook receiver. No native code.
 *
 * @module svcpp/server
 */
export * from '../../../lib/server.js';
