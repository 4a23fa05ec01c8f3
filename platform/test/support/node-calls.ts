/**
 * Helpers of the tests with several platform node processes (broker-*.test.ts): frames collected in the background,
 * dispatches by type, and REST calls as a user through a given node.
 */
import type { RunningPlatform } from '../../src/index.js';
import type { GatewayPayload, RawClient } from '../gateway/client.js';
import { bearer, request } from './http.js';
import type { SocialUser } from './social.js';
import type { PlatformNode } from './node-process.js';

/** Every frame a client receives, collected in the background (the tests read them as they grow). */
export function collect(client: RawClient): GatewayPayload[] {
  const frames: GatewayPayload[] = [];
  void (async () => {
    for (;;) {
      try {
        frames.push(await client.next());
      } catch (error) {
        if (String(error).includes('socket closed')) return;
      }
    }
  })();
  return frames;
}

export const dispatches = (frames: GatewayPayload[], t: string) => frames.filter((f) => f.op === 0 && f.t === t);

export const call = (node: PlatformNode, user: SocialUser, method: string, path: string, json?: unknown) =>
  request(`${node.apiBase}${path}`, { method, headers: bearer(user.token), ...(json !== undefined && { json }) });

/** The helpers that create users and tokens need only these fields of a platform. */
export const asPlatform = (node: PlatformNode) => node as unknown as RunningPlatform;
