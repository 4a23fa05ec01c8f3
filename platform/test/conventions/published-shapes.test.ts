/**
 * Published response shapes, checked on real responses of the running platform.
 *
 * Every route the platform serves is either published — then a check below calls it for real and validates the
 * status and the body against the published description — or listed in NOT_PUBLISHED with the reason. The route
 * table comes from the running platform, so `every served route is checked or declared not published` fails on a
 * new route that is neither.
 *
 * Where the descriptions come from, and why this way (no generation step, nothing to drift, cheap on two cores):
 * - Routes of the published OpenAPI description: `discord-api-spec` (pinned) ships, generated from it, both the
 *   TypeScript types (`Paths`: route → method → status → body type, which the serializers in src/ return) and zod
 *   schemas of the same components. `published()` makes the compiler check that a check's status is a published
 *   success status of its route and that its schema is a schema of that status's body; zod validates the body.
 * - The OAuth2 token endpoint is published outside the OpenAPI description: its body types come from
 *   `discord-api-types`; the zod schemas below are written from them, with compile-time equality assertions.
 * The schemas accept extra fields: what we send beyond the published objects is listed in PROTOCOL.md
 * ("Deliberate differences").
 */
import type { RESTPostOAuth2AccessTokenResult, RESTPostOAuth2ClientCredentialsResult } from 'discord-api-types/v10';
import * as spec from 'discord-api-spec/zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as zm from 'zod/mini';
import { bearer, request } from '../support/http.js';
import { startFakeIssuer, type FakeIssuer } from '../support/fake-issuer.js';
import {
  accessTokenFor,
  authorizeCode,
  createApp,
  createUser,
  login,
  pkcePair,
  type AppCredentials,
} from '../support/platform.js';
import { startLobbyHarness, type LobbyHarness, type TestUser } from '../lobbies/harness.js';
import { botApiChecks } from '../published/bot-checks.js';
import { premiumChecks } from '../published/premium-checks.js';
import { INTERACTION_CHECKS_REDIRECT, interactionChecks } from '../published/interaction-checks.js';
import { activityChecks } from '../published/activity-checks.js';
import { startBotPlatform, type BotFixture } from '../bot/fixture.js';
import {
  documented,
  publishedRouteKeys,
  published,
  routeKey,
  runCheck,
  servedRouteKeys,
  type Check,
} from '../published/checks.js';

/** `A` and `B` are the same type. */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

const tokenSchema = z.object({
  access_token: z.string(),
  token_type: z.string(),
  expires_in: z.number(),
  refresh_token: z.string(),
  scope: z.string(),
});
const clientCredentialsSchema = tokenSchema.omit({ refresh_token: true });
const tokenSchemaIsPublished: Equal<z.infer<typeof tokenSchema>, RESTPostOAuth2AccessTokenResult> = true;
const clientCredentialsSchemaIsPublished: Equal<
  z.infer<typeof clientCredentialsSchema>,
  RESTPostOAuth2ClientCredentialsResult
> = true;

/** A nullable list, as the OpenAPI description publishes list bodies. */
const list = <T>(item: zm.ZodMiniType<T>) => zm.nullable(zm.array(item));

/** Routes that are not published, each with the reason (keys as `routeKey` makes them). */
const NOT_PUBLISHED: Record<string, string> = {
  'GET web:/oauth2/authorize': 'browser consent page (HTML)',
  'POST web:/oauth2/authorize': 'browser consent page form (redirects)',
  'GET web:/activate': 'device verification page (HTML)',
  'POST web:/activate': 'device verification page form (HTML)',
  'GET web:/gateway': 'the gateway WebSocket (PROTOCOL.md §20)',
  'GET web:/gateway/': 'the gateway WebSocket with a trailing slash (PROTOCOL.md §20.1)',
  'GET web:/.well-known/openid-configuration':
    'standard OIDC discovery document; oidc.test.ts runs an OIDC client against it',
  'GET web:/':
    'the landing page (HTML, or JSON for Accept: application/json; PROTOCOL.md §2 "Landing page"; landing.test.ts)',
  'GET web:/docs/*': 'the documents the platform ships, as text (PROTOCOL.md §2 "Landing page"; landing.test.ts)',
  'POST /oauth2/token/revoke': 'RFC 7009: 200 with an empty object; no published body type',
  'POST /oauth2/device/authorize': 'RFC 8628 device authorization (OURS: PROTOCOL.md §3)',
  'POST /partner-sdk/child-token': 'OURS (PROTOCOL.md §5, child tokens)',
  'PATCH /partner-sdk/provisional-accounts/@me': 'OURS (PROTOCOL.md §5, display name)',
  'POST /invites/{}': 'OURS (PROTOCOL.md §10.5, redeeming a lobby channel invite)',
  'DELETE /lobbies/{}/messages/{}': 'OURS (PROTOCOL.md §10.5)',
  'GET /users/@me/relationships': 'OURS (PROTOCOL.md §10.1)',
  'POST /users/@me/relationships': 'OURS (PROTOCOL.md §10.1)',
  'PUT /users/@me/relationships/{}': 'OURS (PROTOCOL.md §10.1)',
  'DELETE /users/@me/relationships/{}': 'OURS (PROTOCOL.md §10.1)',
  'POST /users/@me/presence': 'OURS (PROTOCOL.md §10.2)',
  'POST /users/{}/activity-invites': 'OURS (PROTOCOL.md §10.3)',
  'POST /users/@me/activity-invites/{}/accept': 'OURS (PROTOCOL.md §10.3)',
  'POST /users/{}/messages': 'OURS (PROTOCOL.md §10.4)',
  'PATCH /users/{}/messages/{}': 'OURS (PROTOCOL.md §10.4)',
  'DELETE /users/{}/messages/{}': 'OURS (PROTOCOL.md §10.4)',
  'GET /users/@me/dms/{}/messages': 'OURS (PROTOCOL.md §10.4)',
  'GET /users/@me/dms': 'OURS (PROTOCOL.md §10.4)',
  'PUT /applications/{}/messages/{}/moderation-metadata': 'OURS (PROTOCOL.md §10.4; see "Deliberate differences")',
  'GET /lobbies/{}/voice-states/{}':
    'OURS (PROTOCOL.md §13.1, the guild-less form of Get (Current) User Voice State; ' +
    'voice-states.test.ts checks the published body)',
  'GET web:/activities/{}/*':
    'the activity proxy (PROTOCOL.md §18.2): `{proxy_base}/<path>`, forwarded to a URL mapping target',
  'POST web:/activities/{}/*':
    'the activity proxy (PROTOCOL.md §18.2): `{proxy_base}/<path>`, forwarded to a URL mapping target',
  'PUT web:/activities/{}/*':
    'the activity proxy (PROTOCOL.md §18.2): `{proxy_base}/<path>`, forwarded to a URL mapping target',
  'PATCH web:/activities/{}/*':
    'the activity proxy (PROTOCOL.md §18.2): `{proxy_base}/<path>`, forwarded to a URL mapping target',
  'DELETE web:/activities/{}/*':
    'the activity proxy (PROTOCOL.md §18.2): `{proxy_base}/<path>`, forwarded to a URL mapping target',
  'OPTIONS web:/activities/{}/*':
    'the activity proxy (PROTOCOL.md §18.2): `{proxy_base}/<path>`, forwarded to a URL mapping target',
};
/** Development routes (PROTOCOL.md §9): not part of the published API. */
const isDevRoute = (key: string) => / \/dev\//.test(key);
/** The developer portal's HTML pages and forms (PROTOCOL.md §15): not part of the published API. */
const isPortalRoute = (key: string) => / web:\/developers(\/|$)/.test(key);

const AUDIENCE = 'shape-game';
let h: LobbyHarness;
let botFixture: BotFixture;
let issuer: FakeIssuer;
let oidcApp: AppCredentials;
let owner: TestUser;
let reader: TestUser;

beforeAll(async () => {
  // MANAGE_GUILD for the AutoMod routes, through a role below the bot's own.
  botFixture = await startBotPlatform({
    lowerRoles: [{ name: 'Rule Manager', permissions: String(1n << 5n), members: ['Test Bot'] }],
    // An OAuth2 client too: the command permissions PUT takes a user's Bearer token of the application.
    application: { redirect_uris: [INTERACTION_CHECKS_REDIRECT], public_client: true },
  });
  issuer = await startFakeIssuer(AUDIENCE);
  h = await startLobbyHarness({ allowLocalhostIssuers: true, outboundCaPems: [issuer.caPem], oidcCacheSeconds: 0 });
  oidcApp = await createApp(h.platform, {
    name: 'Shape Game',
    identity_providers: [{ type: 'OIDC', issuer: issuer.issuer, client_id: AUDIENCE }],
  });
  owner = await h.user('guild_owner');
  // A user with a connection and a token holding every scope the user routes read.
  const username = 'shape_reader';
  await createUser(h.platform, {
    username,
    email: 'reader@example.com',
    connections: [{ type: 'steam', id: '76561198000000000', name: 'reader' }],
  });
  const token = (
    await accessTokenFor(h.platform, {
      clientId: h.platform.devApp.id,
      scope: 'openid identify email connections guilds sdk.social_layer',
      user: username,
    })
  ).access_token;
  reader = { id: (await h.call('GET', '/users/@me', bearer(token))).body.id, username, token, auth: bearer(token) };
});
afterAll(async () => {
  await h.close();
  await issuer.close();
  await botFixture.platform.close();
});

const api = (method: string, path: string, headers: Record<string, string>, json?: unknown) =>
  h.call(method, path, headers, json);
/** Both OAuth2 aliases of a GET route (`/api/oauth2/...` and `/api/v10/oauth2/...`). */
const bothAliases = (path: string, headers: Record<string, string>) =>
  Promise.all([
    request(`${h.platform.httpUrl}/api${path}`, { headers }),
    request(`${h.platform.apiBase}${path}`, { headers }),
  ]);

/** A bot-created lobby with `users` as members; `canLink` gives them CanLinkLobby. */
async function lobbyWith(users: TestUser[], canLink = false): Promise<string> {
  const created = await api('POST', '/lobbies', h.bot, {
    members: users.map((user) => ({ id: user.id, flags: canLink ? 1 : 0 })),
  });
  expect(created.status, created.text).toBe(201);
  return created.body.id as string;
}

let linked: Promise<string> | undefined;
/** The lobby linked to the guild's `general` channel (by the owner, who may link it), made once and shared. */
function linkedLobby(): Promise<string> {
  linked ??= (async () => {
    const lobby = await lobbyWith([owner], true);
    const response = await api('PATCH', `/lobbies/${lobby}/channel-linking`, owner.auth, {
      channel_id: h.channels.general,
    });
    expect(response.status, response.text).toBe(200);
    return lobby;
  })();
  return linked;
}

/** A provisional account of the OIDC application for a fresh external id, and the ID token that names it. */
async function oidcAccount(): Promise<{ token: string; body: Record<string, unknown> }> {
  const token = await issuer.sign({ sub: `shape-${Math.random().toString(36).slice(2)}` });
  const body = {
    client_id: oidcApp.id,
    client_secret: oidcApp.client_secret,
    external_auth_type: 'OIDC',
    external_auth_token: token,
  };
  return { token, body };
}

/** A new full account that signs in to `clientId` and merges the external identity named by `merge` into itself. */
async function mergedInto(
  username: string,
  clientId: string,
  clientSecret: string | undefined,
  merge: Record<string, string>,
): Promise<void> {
  await createUser(h.platform, { username });
  const response = await login(h.platform, {
    clientId,
    ...(clientSecret && { clientSecret }),
    scope: 'identify',
    user: username,
    extraForm: merge,
  });
  expect(response.status, response.text).toBe(200);
}

const CHECKS: Check[] = [
  // Users
  published('get', '/users/@me', '200', spec.UserPIIResponseSchema, async () => [
    await api('GET', '/users/@me', reader.auth),
    await api('GET', '/users/@me', h.bot),
  ]),
  published('get', '/users/{user_id}', '200', spec.UserResponseSchema, async () => [
    await api('GET', `/users/${owner.id}`, reader.auth),
    await api('GET', `/users/${reader.id}`, h.bot),
  ]),
  published('get', '/users/@me/guilds', '200', list(spec.MyGuildResponseSchema), async () => [
    await api('GET', '/users/@me/guilds', owner.auth),
    await api('GET', '/users/@me/guilds?with_counts=true', owner.auth),
  ]),
  published('get', '/users/@me/connections', '200', list(spec.ConnectedAccountResponseSchema), async () => {
    const response = await api('GET', '/users/@me/connections', reader.auth);
    expect(response.body).toHaveLength(1);
    return response;
  }),
  // OAuth2 and OIDC
  published('get', '/oauth2/@me', '200', spec.OAuth2GetAuthorizationResponseSchema, async () => {
    // Only published scope names: the SDK scopes are not in the published scope list (PROTOCOL.md, "Deliberate
    // differences").
    const token = await accessTokenFor(h.platform, {
      clientId: h.platform.devApp.id,
      scope: 'openid identify email guilds',
      user: reader.username,
    });
    return bothAliases('/oauth2/@me', bearer(token.access_token));
  }),
  published('get', '/oauth2/keys', '200', spec.OAuth2GetKeysSchema, () => bothAliases('/oauth2/keys', {})),
  published('get', '/oauth2/userinfo', '200', spec.OAuth2GetOpenIDConnectUserInfoResponseSchema, () =>
    bothAliases('/oauth2/userinfo', reader.auth),
  ),
  documented('POST', '/api/oauth2/token', 200, tokenSchema, async () => {
    const { verifier, challenge } = pkcePair();
    const redirectUri = 'http://127.0.0.1:5555/callback';
    const code = await authorizeCode(h.platform, {
      clientId: h.platform.devApp.id,
      scope: 'identify',
      user: reader.username,
      redirectUri,
      challenge,
    });
    const form = {
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      code_verifier: verifier,
      client_id: h.platform.devApp.id,
    };
    const issued = await request(`${h.platform.httpUrl}/api/oauth2/token`, { form });
    const refresh = {
      grant_type: 'refresh_token',
      refresh_token: String(issued.body.refresh_token),
      client_id: h.platform.devApp.id,
    };
    return [issued, await request(`${h.platform.apiBase}/oauth2/token`, { form: refresh })];
  }),
  documented('POST', '/api/v10/oauth2/token', 200, clientCredentialsSchema, async () => {
    const form = {
      grant_type: 'client_credentials',
      scope: 'identify',
      client_id: h.platform.devApp.id,
      client_secret: h.platform.devApp.clientSecret,
    };
    const response = await request(`${h.platform.apiBase}/oauth2/token`, { form });
    expect(response.body.refresh_token).toBeUndefined();
    return response;
  }),
  // Gateway
  published('get', '/gateway', '200', spec.GatewayResponseSchema, () => api('GET', '/gateway', {})),
  published('get', '/gateway/bot', '200', spec.GatewayBotResponseSchema, () => api('GET', '/gateway/bot', h.bot)),
  // Guild channels and their messages (the copies of linked lobbies' messages)
  published('get', '/guilds/{guild_id}/channels', '200', list(spec.GuildChannelResponseSchema), () =>
    api('GET', `/guilds/${h.guildId}/channels`, owner.auth),
  ),
  published('get', '/channels/{channel_id}/messages', '200', list(spec.MessageResponseSchema), async () => {
    const lobby = await linkedLobby();
    await api('POST', `/lobbies/${lobby}/messages`, owner.auth, { content: 'copied' });
    const response = await api('GET', `/channels/${h.channels.general}/messages`, owner.auth);
    expect(response.body.length).toBeGreaterThan(0);
    return [response, await api('GET', `/channels/${h.channels.general}/messages`, h.bot)];
  }),
  // Lobbies
  published('post', '/lobbies', '201', spec.LobbyResponseSchema, () =>
    api('POST', '/lobbies', h.bot, { metadata: { mode: 'duel' }, members: [{ id: owner.id }] }),
  ),
  published('put', '/lobbies', '200', spec.LobbyResponseSchema, async () => [
    await api('PUT', '/lobbies', owner.auth, { secret: 'shape-secret', member_metadata: { role: 'tank' } }),
    await api('PUT', '/lobbies', h.bot, { secret: 'shape-secret' }),
  ]),
  published('get', '/lobbies/{lobby_id}', '200', spec.LobbyResponseSchema, async () => {
    const unlinked = await lobbyWith([owner]);
    const linked = await linkedLobby();
    const response = await api('GET', `/lobbies/${linked}`, h.bot);
    expect(response.body.linked_channel).toMatchObject({ id: h.channels.general, guild_id: h.guildId });
    return [await api('GET', `/lobbies/${unlinked}`, h.bot), response];
  }),
  published('patch', '/lobbies/{lobby_id}', '200', spec.LobbyResponseSchema, async () =>
    api('PATCH', `/lobbies/${await lobbyWith([owner])}`, h.bot, { metadata: { round: '2' } }),
  ),
  published('delete', '/lobbies/{lobby_id}', '204', null, async () =>
    api('DELETE', `/lobbies/${await lobbyWith([])}`, h.bot),
  ),
  published('patch', '/lobbies/{lobby_id}/channel-linking', '200', spec.LobbyResponseSchema, async () => {
    const lobby = await lobbyWith([owner], true);
    return [
      await api('PATCH', `/lobbies/${lobby}/channel-linking`, owner.auth, { channel_id: h.channels.raid }),
      await api('PATCH', `/lobbies/${lobby}/channel-linking`, owner.auth, { channel_id: null }),
    ];
  }),
  published('delete', '/lobbies/{lobby_id}/members/@me', '204', null, async () => {
    const joined = await api('PUT', '/lobbies', owner.auth, { secret: 'shape-leave' });
    return api('DELETE', `/lobbies/${joined.body.id}/members/@me`, owner.auth);
  }),
  published('put', '/lobbies/{lobby_id}/members/{user_id}', '200', spec.LobbyMemberResponseSchema, async () =>
    api('PUT', `/lobbies/${await lobbyWith([])}/members/${owner.id}`, h.bot, {
      metadata: { team: 'red' },
      additional_name: 'Ace',
    }),
  ),
  published('delete', '/lobbies/{lobby_id}/members/{user_id}', '204', null, async () =>
    api('DELETE', `/lobbies/${await lobbyWith([owner])}/members/${owner.id}`, h.bot),
  ),
  published('post', '/lobbies/{lobby_id}/members/bulk', '200', list(spec.LobbyMemberResponseSchema), async () =>
    api('POST', `/lobbies/${await lobbyWith([])}/members/bulk`, h.bot, [
      { id: owner.id },
      { id: reader.id, additional_name: 'Reader' },
    ]),
  ),
  published('post', '/lobbies/{lobby_id}/members/@me/invites', '200', spec.LobbyGuildInviteResponseSchema, async () =>
    api('POST', `/lobbies/${await linkedLobby()}/members/@me/invites`, owner.auth),
  ),
  published(
    'post',
    '/lobbies/{lobby_id}/members/{user_id}/invites',
    '200',
    spec.LobbyGuildInviteResponseSchema,
    async () => api('POST', `/lobbies/${await linkedLobby()}/members/${owner.id}/invites`, h.bot),
  ),
  published('post', '/lobbies/{lobby_id}/messages', '201', spec.LobbyMessageResponseSchema, async () => {
    const lobby = await lobbyWith([owner]);
    await api('PUT', `/lobbies/${lobby}/members/${owner.id}`, h.bot, { additional_name: 'Ace' });
    return [
      await api('POST', `/lobbies/${lobby}/messages`, owner.auth, { content: 'gg', metadata: { kind: 'chat' } }),
      await api('POST', `/lobbies/${lobby}/messages`, h.bot, { content: 'server' }),
    ];
  }),
  published('get', '/lobbies/{lobby_id}/messages', '200', list(spec.LobbyMessageResponseSchema), async () => {
    const lobby = await lobbyWith([owner]);
    await api('POST', `/lobbies/${lobby}/messages`, owner.auth, { content: 'gg' });
    return [
      await api('GET', `/lobbies/${lobby}/messages`, owner.auth),
      await api('GET', `/lobbies/${lobby}/messages`, h.bot),
    ];
  }),
  published('put', '/lobbies/{lobby_id}/messages/{message_id}/moderation-metadata', '204', null, async () => {
    const lobby = await lobbyWith([owner]);
    const message = await api('POST', `/lobbies/${lobby}/messages`, owner.auth, { content: 'gg' });
    return api('PUT', `/lobbies/${lobby}/messages/${message.body.id}/moderation-metadata`, h.bot, { verdict: 'ok' });
  }),
  // Provisional accounts
  published('post', '/partner-sdk/token/bot', '200', spec.ProvisionalTokenResponseSchema, () =>
    api('POST', '/partner-sdk/token/bot', h.bot, { external_user_id: 'shape-player' }),
  ),
  published('post', '/partner-sdk/token', '200', spec.ProvisionalTokenResponseSchema, async () =>
    api('POST', '/partner-sdk/token', {}, (await oidcAccount()).body),
  ),
  published('post', '/partner-sdk/provisional-accounts/unmerge/bot', '204', null, async () => {
    const provisional = await api('POST', '/partner-sdk/token/bot', h.bot, { external_user_id: 'shape-unmerged' });
    await mergedInto('shape_bot_merger', h.platform.devApp.id, undefined, {
      external_auth_type: 'DISCORD_BOT_ISSUED_ACCESS_TOKEN',
      external_auth_token: provisional.body.access_token,
    });
    return api('POST', '/partner-sdk/provisional-accounts/unmerge/bot', h.bot, { external_user_id: 'shape-unmerged' });
  }),
  published('post', '/partner-sdk/provisional-accounts/unmerge', '204', null, async () => {
    const account = await oidcAccount();
    await mergedInto('shape_oidc_merger', oidcApp.id, oidcApp.client_secret, {
      external_auth_type: 'OIDC',
      external_auth_token: account.token,
    });
    return api('POST', '/partner-sdk/provisional-accounts/unmerge', {}, account.body);
  }),
  // The bot API (PROTOCOL.md §14)
  ...botApiChecks(() => botFixture),
  // Commands and interactions (PROTOCOL.md §17)
  ...interactionChecks(() => botFixture),
  // Activities (PROTOCOL.md §18)
  ...activityChecks(() => botFixture),
  // Premium apps (PROTOCOL.md "Premium apps"); the user route reads the dev application's own entitlements.
  ...premiumChecks(
    () => botFixture,
    async () => {
      const app = h.platform.store.applications.get(h.platform.devApp.id)!;
      const skus = await api(
        'POST',
        `/dev/applications/${app.id}/skus`,
        {},
        { type: 2, name: 'Shape store item', flags: 4 },
      );
      await api('POST', `/dev/applications/${app.id}/purchases`, {}, { user_id: reader.id, sku_id: skus.body[0].id });
      return api('GET', `/users/@me/applications/${app.id}/entitlements`, reader.auth);
    },
  ),
];

describe('published response shapes', () => {
  it('the zod schemas of the token endpoint are its published types', () => {
    expect([tokenSchemaIsPublished, clientCredentialsSchemaIsPublished]).toEqual([true, true]);
  });

  for (const check of CHECKS) {
    it(check.name, () => runCheck(check));
  }

  it('every served route is checked or declared not published', () => {
    const served = servedRouteKeys(h.platform.routes);
    const publishedKeys = publishedRouteKeys();
    const checked = new Set(
      CHECKS.map((check) => routeKey(check.method, check.path.startsWith('/api') ? check.path : `/api${check.path}`)),
    );
    const problems: string[] = [];
    for (const key of served) {
      if (isDevRoute(key) || isPortalRoute(key)) continue;
      if (publishedKeys.has(key) && !checked.has(key)) problems.push(`${key}: published but not checked`);
      if (!publishedKeys.has(key) && !checked.has(key) && !(key in NOT_PUBLISHED))
        problems.push(`${key}: neither checked nor declared not published`);
      if (publishedKeys.has(key) && key in NOT_PUBLISHED) problems.push(`${key}: declared not published, but it is`);
    }
    for (const key of [...checked, ...Object.keys(NOT_PUBLISHED)])
      if (!served.has(key)) problems.push(`${key}: listed here but not served`);
    expect(problems).toEqual([]);
  });
});
