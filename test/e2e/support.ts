/** Small helpers shared by the SDK end-to-end tests (the platform side lives in harness.ts). */
import { Client, type ClientOptions } from '../../lib/index.js';
import type { E2EPlatform } from './harness.js';
import type { BACKENDS } from '../backends.js';

/** A client of the dev application against the e2e platform, trusting its test CA. */
export function e2eClient(e2e: E2EPlatform, backend: (typeof BACKENDS)[number], options: ClientOptions = {}): Client {
  return new Client({
    backend,
    apiBase: e2e.apiBase,
    webBase: e2e.webBase,
    caFile: e2e.caFile,
    applicationId: BigInt(e2e.platform.devApp.id),
    ...options,
  });
}

/** Resolves when `predicate` holds, polling every 10 ms (events arrive through the SDK's pump). */
export async function until(predicate: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Waits `ms` (to observe that something does NOT happen, e.g. no reconnect after a terminal close). */
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
