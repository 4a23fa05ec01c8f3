/** Small helpers shared by the SDK end-to-end tests (the platform side lives in harness.ts). */
import { expect } from 'vitest';
import { Client, type ClientOptions, type TokenResponse } from '../../lib/index.js';
import { approveAuthorizeUrl, type E2EPlatform } from './harness.js';
import { BACKENDS } from '../backends.js';

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

/**
 * authorize() + getToken() as a launcher would do it (PKCE, communication scopes), with the consent approved
 * headlessly as `user` (id or username of a full account). `page` is what the loopback listener answered the browser.
 */
export async function signIn(
  e2e: E2EPlatform,
  client: Client,
  user: string,
): Promise<{ tokens: TokenResponse; page: () => string }> {
  const { verifier, challenge } = client.createAuthorizationCodeVerifier();
  let page = '';
  const { code, redirectUri } = await client.authorize(
    { scopes: Client.defaultCommunicationScopes, codeChallenge: challenge },
    { openUrl: (url) => void approveAuthorizeUrl(e2e, url, user).then((answer) => (page = answer.body)) },
  );
  expect(redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
  const tokens = await client.getToken({ code, codeVerifier: verifier, redirectUri });
  return { tokens, page: () => page };
}

/**
 * Makes `call` from inside an SDK event handler, as game code reacting to an event does (on koffi, a handler is
 * delivered by the callback pump): a one-shot 'log' listener runs it on the next log line, which setting the
 * application id writes. Resolves or rejects with the call's promise.
 */
export function fromEventHandler<T>(client: Client, call: () => Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    client.once('log', () => {
      try {
        call().then(resolve, reject);
      } catch (error) {
        reject(error);
      }
    });
    // eslint-disable-next-line no-self-assign -- the setter writes the log line that runs the listener
    client.applicationId = client.applicationId;
  });
}

/** How a suite makes its SDK calls: directly, or each from inside an event handler (fromEventHandler). */
export type CallMode = 'directly' | 'from event handlers';

export function callsFrom(mode: CallMode): <T>(client: Client, call: () => Promise<T>) => Promise<T> {
  return mode === 'directly' ? (_client, call) => call() : fromEventHandler;
}

/**
 * The runs of a suite that drives the SDK: every backend × every call mode. Use with
 * `describe.each(RUNS)('… over $backend, SDK calls made $calls', ({ backend, calls }) => { const act =
 * callsFrom(calls); … })` and make each awaited SDK call of a test as `act(client, () => client.x(…))`.
 */
export const RUNS = BACKENDS.flatMap((backend) =>
  (['directly', 'from event handlers'] as const satisfies readonly CallMode[]).map((calls) => ({ backend, calls })),
);
