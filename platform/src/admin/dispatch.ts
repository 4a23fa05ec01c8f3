import type { PlatformKernel } from '../kernel.js';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { z } from 'zod';
import type { ApiArea } from '../http/api.js';
import { snowflakeSchema } from '../http/validation.js';

const dispatchSchema = z.object({
  user_ids: z.array(snowflakeSchema).min(1).max(1000),
  t: z
    .string()
    .max(64)
    .regex(/^[A-Z][A-Z0-9_]*$/, { message: 'Must be UPPER_SNAKE_CASE.' }),
  /** Any JSON, null included; required so a typo in the key is not silently sent as null. */
  d: z.unknown(),
  count: z.number().int().min(1).max(100_000),
});

/** Dispatches published per turn of the event loop; in between, the server reads sockets and answers requests. */
const CHUNK = 1000;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * `POST /api/v10/dev/gateway/dispatch` (OURS, benchmarks and SDK tests): publishes `count` dispatches to the
 * users' gateway sessions through the event bus. With `count > 1` an object `d` gets `n` (0-based index) so
 * receivers can check order and exactly-once delivery. Answers after the last one is published.
 */
export const devDispatchRoute =
  (ctx: PlatformKernel): ApiArea =>
  (app) => {
    app.post('/dev/gateway/dispatch', { schema: { body: dispatchSchema } }, async (request) => {
      const body = request.body;
      const to = { userIds: body.user_ids };
      const numbered = body.count > 1 && isPlainObject(body.d) ? body.d : undefined;
      for (let i = 0; i < body.count; i++) {
        if (i > 0 && i % CHUNK === 0) await nextTurn();
        ctx.bus.publish({ t: body.t, d: numbered ? { ...numbered, n: i } : body.d, to });
      }
      return { published: body.count };
    });
  };
