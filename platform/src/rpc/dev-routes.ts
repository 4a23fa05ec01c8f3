/**
 * Development routes of the local client (PROTOCOL.md §9, §12.5–12.7; devMode only): what the desktop user does in
 * a desktop client's UI, for a platform started by the CLI (`npx svcpp-platform rpc`), where a test or a developer
 * has no in-process `RunningPlatform.rpc` to call. Registered with the other dev routes; the local client starts
 * after the HTTP server listens, so it is looked up per request (`404` while it does not run).
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { jsonBody } from '../http/body.js';
import { ApiError } from '../http/errors.js';
import { parseBody, snowflakeSchema } from '../http/validation.js';
import type { RpcServer } from './server.js';

const authorizeRequestSchema = z.object({ application_id: snowflakeSchema });
const acceptInviteSchema = z.object({ message_id: snowflakeSchema });

function running(current: () => RpcServer | undefined): RpcServer {
  const rpc = current();
  if (!rpc)
    throw new ApiError(
      404,
      0,
      'The local client is not running (start the platform with rpc / `npx svcpp-platform rpc`)',
    );
  return rpc;
}

export function registerDevRpcRoutes(app: FastifyInstance, prefix: string, current: () => RpcServer | undefined): void {
  /** The desktop user starts linking with a game: AUTHORIZE_REQUEST to its subscribed games. */
  app.post(`${prefix}/rpc/authorize-request`, async (request) => {
    const body = parseBody(authorizeRequestSchema, jsonBody(request));
    return { delivered: running(current).requestAuthorize(body.application_id) };
  });

  /**
   * The desktop user presses "Join" on a game invite they received: ACTIVITY_JOIN to the game (or it is kept /
   * launched).
   */
  app.post(`${prefix}/rpc/accept-invite`, async (request) => {
    const body = parseBody(acceptInviteSchema, jsonBody(request));
    const { applicationId, delivery } = await running(current).acceptInvite(body.message_id);
    // The secret is not echoed: it is the game's, and reaches it over the local client.
    return { application_id: applicationId, delivery };
  });

  /** What games asked the desktop client to show, and which applications show chat themselves. */
  app.get(`${prefix}/rpc/desktop`, async () => {
    const rpc = running(current);
    return { path: rpc.path, actions: rpc.desktop.actions, showing_chat: rpc.desktop.showingChatApplications() };
  });

  /** Restarts the local client (games are disconnected and reconnect; in-memory registrations are gone). */
  app.post(`${prefix}/rpc/restart`, async () => ({ path: await running(current).restart() }));
}
