/** Helpers for the social-layer tests: users with SDK tokens, gateway sessions, and "nothing else arrived" checks. */
import { expect } from 'vitest';
import type { RunningPlatform } from '../../src/index.js';
import { RawClient, type GatewayPayload } from '../gateway/client.js';
import { bearer, bot, request, type TestResponse } from './http.js';
import { accessTokenFor, createUser } from './platform.js';

export interface SocialUser {
  id: string;
  username: string;
  token: string;
}

let counter = 0;

/** A full account with an sdk.social_layer token of the given application (the dev app by default). */
export async function fullUser(
  platform: RunningPlatform,
  options: { clientId?: string; scope?: string; name?: string } = {},
): Promise<SocialUser> {
  const username = options.name ?? `user_${process.pid}_${++counter}`;
  const user = await createUser(platform, { username });
  const token = await accessTokenFor(platform, {
    clientId: options.clientId ?? platform.devApp.id,
    scope: options.scope ?? 'sdk.social_layer',
    user: username,
  });
  return { id: user.id, username, token: token.access_token };
}

/** Another token of the same user for another application (public client, like the dev app). */
export async function tokenFor(
  platform: RunningPlatform,
  user: SocialUser,
  clientId: string,
  scope = 'sdk.social_layer',
): Promise<string> {
  return (await accessTokenFor(platform, { clientId, scope, user: user.username })).access_token;
}

/** A provisional account of the application whose bot token is given (the dev app by default). */
export async function provisionalUser(
  platform: RunningPlatform,
  botToken = platform.devApp.botToken,
): Promise<SocialUser> {
  const response = await request(`${platform.apiBase}/partner-sdk/token/bot`, {
    headers: bot(botToken),
    json: { external_user_id: `ext-${++counter}` },
  });
  expect(response.status, response.text).toBe(200);
  const me = await request(`${platform.apiBase}/users/@me`, { headers: bearer(response.body.access_token) });
  return { id: me.body.id, username: me.body.username, token: response.body.access_token };
}

/** A JSON request with the user's token. */
export function api(
  platform: RunningPlatform,
  token: string,
  method: string,
  path: string,
  json?: unknown,
): Promise<TestResponse> {
  return request(`${platform.apiBase}${path}`, { method, headers: bearer(token), ...(json !== undefined && { json }) });
}

/** Makes two users friends on the platform axis (or the game axis of a's token's application): request, accept. */
export async function befriend(platform: RunningPlatform, a: SocialUser, b: SocialUser, game = false): Promise<void> {
  await api(platform, a.token, 'PUT', `/users/@me/relationships/${b.id}`, { type: 1, game });
  await api(platform, b.token, 'PUT', `/users/@me/relationships/${a.id}`, { type: 1, game });
}

export interface Session {
  client: RawClient;
  ready: Record<string, unknown>;
  userId: string;
}

/** A user gateway session (Bearer Identify). */
export async function connect(
  platform: RunningPlatform,
  user: SocialUser,
  token = user.token,
  extra: Record<string, unknown> = {},
): Promise<Session> {
  const client = await RawClient.open(platform.gatewayUrl);
  const ready = await client.identify(`Bearer ${token}`, extra);
  return { client, ready: ready.d as Record<string, unknown>, userId: user.id };
}

let markers = 0;

/**
 * Every dispatch the session received up to now. A marker is published to the session's user on the bus; bus
 * delivery is synchronous and ordered, so everything published before it arrives before it.
 */
export async function drain(platform: RunningPlatform, session: Session): Promise<GatewayPayload[]> {
  const marker = ++markers;
  platform.bus.publish({ t: 'TEST_MARKER', d: { marker }, to: { userIds: [session.userId] } });
  const frames: GatewayPayload[] = [];
  for (;;) {
    const frame = await session.client.next();
    if (frame.t === 'TEST_MARKER' && (frame.d as { marker: number }).marker === marker) return frames;
    if (frame.op === 0) frames.push(frame);
  }
}

/** The dispatches named `t` among everything received so far. */
export async function received(platform: RunningPlatform, session: Session, t: string): Promise<unknown[]> {
  return (await drain(platform, session)).filter((frame) => frame.t === t).map((frame) => frame.d);
}

/** The field error codes at a path of a 50035 body. */
export function fieldCodes(body: { errors?: unknown }, ...path: string[]): string[] {
  let node = body.errors as Record<string, unknown> | undefined;
  for (const key of path) node = node?.[key] as Record<string, unknown> | undefined;
  return ((node?._errors as { code: string }[] | undefined) ?? []).map((e) => e.code);
}
