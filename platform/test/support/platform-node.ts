/**
 * One platform node in a child process (run with `node --import tsx`), for tests of several nodes sharing one
 * database. Options come as JSON in PLATFORM_NODE_OPTIONS; it prints `{"apiBase": …, "gatewayUrl": …, "devAppId": …}`
 * once listening and closes on SIGTERM (printing `{"closed": true}`).
 */
import { startPlatform, type StartOptions } from '../../src/index.js';

const options = JSON.parse(process.env.PLATFORM_NODE_OPTIONS ?? '{}') as StartOptions;
// Errors only: a test of several nodes shows what went wrong in one of them.
const platform = await startPlatform({
  port: 0,
  logger: { level: process.env.PLATFORM_NODE_LOG ?? 'error' },
  ...options,
});
process.stdout.write(
  `${JSON.stringify({ apiBase: platform.apiBase, gatewayUrl: platform.gatewayUrl, devAppId: platform.devApp.id })}\n`,
);
process.once('SIGTERM', () => {
  void platform.close().then(() => {
    process.stdout.write(`${JSON.stringify({ closed: true })}\n`);
    process.exit(0);
  });
});
