/**
 * Child process of platform-process.ts: runs the platform so that the benchmark's own process measures only the
 * client. Started with `node --import tsx platform-child.ts [--tls <caFile>]`; reports its addresses over IPC and
 * stops when the parent disconnects (which includes the parent dying) or on SIGTERM.
 */
import { writeFileSync } from 'node:fs';
import { DEFAULT_RATE_LIMITS, startPlatform } from '../../platform/src/index.js';

/** What the child reports once it listens (or why it could not start). */
export type PlatformChildMessage =
  | {
      type: 'ready';
      httpUrl: string;
      apiBase: string;
      gatewayUrl: string;
      devApp: { id: string; clientSecret: string; botToken: string };
    }
  | { type: 'error'; message: string };

function send(message: PlatformChildMessage, then?: () => void): void {
  process.send?.(message, undefined, undefined, then);
}

const tlsIndex = process.argv.indexOf('--tls');
const caFile = tlsIndex === -1 ? undefined : process.argv[tlsIndex + 1];

try {
  const platform = await startPlatform({
    port: 0,
    database: ':memory:',
    logger: false,
    devMode: true,
    tls: caFile !== undefined,
    // A benchmark opens thousands of sessions and tokens: no bucket may ever be the bottleneck.
    rateLimits: Object.fromEntries(
      Object.keys(DEFAULT_RATE_LIMITS).map((bucket) => [bucket, { limit: 1_000_000_000, windowSeconds: 1 }]),
    ),
  });
  if (caFile !== undefined) writeFileSync(caFile, platform.caCertPem!);

  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void platform.close().finally(() => process.exit(0));
  };
  process.on('disconnect', stop);
  process.on('SIGTERM', stop);
  // The parent may already be gone (killed while we were starting): then nobody would ever disconnect us.
  if (!process.connected) stop();

  const { id, clientSecret, botToken } = platform.devApp;
  send({
    type: 'ready',
    httpUrl: platform.httpUrl,
    apiBase: platform.apiBase,
    gatewayUrl: platform.gatewayUrl,
    devApp: { id, clientSecret, botToken },
  });
} catch (error) {
  // Exit only once the message is out: IPC sends are asynchronous.
  send({ type: 'error', message: error instanceof Error ? (error.stack ?? error.message) : String(error) }, () =>
    process.exit(1),
  );
}
