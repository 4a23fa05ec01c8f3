/**
 * Child process of the soak scripts (bench/soak-*.ts): the platform on a file database, so a soak can kill it with
 * SIGKILL and start it again on the same file. `node --import tsx bench/soak-platform-child.ts --db <file>
 * [--port <n>] [--webhook-url <url>] [--rate-limits <json>] [--public-url <url>]`; reports its addresses over IPC once
 * it listens. Rate limits are out of the way unless `--rate-limits` gives buckets (`{"global": {"limit": 6,
 * "windowSeconds": 1}}`), which replace those of the same name. `--public-url`: the address clients are told to use
 * (the gateway URL of GET /gateway and READY), e.g. a relay in front of the platform.
 */
import { parseArgs } from 'node:util';
import { DEFAULT_RATE_LIMITS, startPlatform } from '../platform/src/index.js';

const { values } = parseArgs({
  options: {
    db: { type: 'string' },
    port: { type: 'string' },
    'webhook-url': { type: 'string' },
    'rate-limits': { type: 'string' },
    'public-url': { type: 'string' },
  },
});
const rateLimits =
  values['rate-limits'] === undefined
    ? {}
    : (JSON.parse(values['rate-limits']) as Record<string, { limit: number; windowSeconds: number }>);

const platform = await startPlatform({
  port: Number(values.port ?? 0),
  database: values.db!,
  logger: false,
  devMode: true,
  ...(values['webhook-url'] !== undefined && { devAppWebhookUrl: values['webhook-url'] }),
  ...(values['public-url'] !== undefined && { publicUrl: values['public-url'] }),
  // Out of the way, except the buckets the caller names (the 429 soak's subject).
  rateLimits: {
    ...Object.fromEntries(
      Object.keys(DEFAULT_RATE_LIMITS).map((bucket) => [bucket, { limit: 1_000_000_000, windowSeconds: 1 }]),
    ),
    ...rateLimits,
  },
  // Redeliveries after a kill come quickly: the first retry after 100 ms (default 1 s), and a delivery the killed
  // process had claimed after 4 s (default 60 s: the soak's closing check would wait that long for it).
  webhookRetry: { baseMs: 100, maxMs: 1_000, giveUpAfterMs: 600_000, timeoutMs: 3_000, leaseMs: 4_000 },
});
const { id, botToken } = platform.devApp;
process.send?.({
  httpUrl: platform.httpUrl,
  apiBase: platform.apiBase,
  gatewayUrl: platform.gatewayUrl,
  devApp: { id, botToken },
});
// {type: 'memory'} → this process's memory after a full collection (when started with --expose-gc).
process.on('message', (message: { type?: string }) => {
  if (message.type !== 'memory') return;
  (globalThis as { gc?: () => void }).gc?.();
  process.send?.({ type: 'memory', ...process.memoryUsage() });
});
process.on('disconnect', () => void platform.close().finally(() => process.exit(0)));
