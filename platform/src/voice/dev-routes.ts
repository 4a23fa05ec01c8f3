/**
 * Development hooks for voice tests (PROTOCOL.md §9 and §13.6), served in devMode only: force-drop participants'
 * voice WebSockets (to exercise the SDK's Reconnecting → resume path, or with `forget` its fresh Identify after a
 * refused resume) and set the relay's injected UDP loss.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { jsonBody } from '../http/body.js';
import { parseBody } from '../http/validation.js';
import type { VoiceHandle } from './handle.js';
import { API_PREFIX } from '../http/api.js';
import { SNOWFLAKE_PATTERN } from '../ids/snowflake.js';

const API = `${API_PREFIX}/dev/voice`;
const snowflake = z.string().regex(SNOWFLAKE_PATTERN);

const dropSchema = z.object({
  user_id: snowflake.optional(),
  lobby_id: snowflake.optional(),
  forget: z.boolean().optional(),
});
const lossSchema = z.object({ rate: z.number().min(0).max(0.95), seed: z.int().min(0).max(0xffffffff).optional() });

export function registerVoiceDevRoutes(app: FastifyInstance, voice: VoiceHandle): void {
  app.post(`${API}/drop`, async (request) => {
    const body = parseBody(dropSchema, jsonBody(request));
    const dropped = voice.dropConnections({
      ...(body.user_id !== undefined && { userId: body.user_id }),
      ...(body.lobby_id !== undefined && { lobbyId: body.lobby_id }),
      ...(body.forget !== undefined && { forget: body.forget }),
    });
    return { dropped };
  });

  app.put(`${API}/loss`, async (request) => {
    const body = parseBody(lossSchema, jsonBody(request));
    voice.setLoss(body.rate, body.seed);
    return { rate: body.rate };
  });

  app.get(`${API}/stats`, async () => voice.stats());
}
