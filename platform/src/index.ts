import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { AccessEnding } from './accounts/access-ending.js';
import { accountsArea } from './accounts/migrations.js';
import { devGuardArea } from './admin/dev-guard.js';
import { devArea } from './admin/index.js';
import type { AccountMovers, PlatformArea } from './areas/area.js';
import { assembleAreas, gatewayFanOut, type AssembledAreas } from './areas/assemble.js';
import { applyConfig } from './config/apply.js';
import { ensureDevEnvironment } from './config/dev-environment.js';
import { platformCertificate } from './crypto/tls.js';
import { randomToken } from './crypto/tokens.js';
import { EventBus } from './events/bus.js';
import { InProcessLog, type ClusterLog } from './events/cluster-log.js';
import { RedisLog, redactUrl } from './events/redis-log.js';
import { gatewayAuthenticator } from './gateway-auth.js';
import type { SessionControl } from './gateway/session-control.js';
import { registerGateway, type GatewayHandle, type GatewayOptions } from './gateway/index.js';
import { botApiArea } from './bot-api/guilds/index.js';
import type { GuildVoiceCalls } from './bot-api/guilds/voice-channel-state.js';
import { lobbiesArea } from './lobbies/index.js';
import { RateLimiter } from './http/rate-limit.js';
import { isLoopbackHost } from './http/hosts.js';
import type { PlatformUrls } from './http/urls.js';
import { createHttpServer } from './http/server.js';
import { premiumArea } from './premium/index.js';
import { activitiesArea } from './activities/index.js';
import { createAttachmentsServer } from './attachments/server.js';
import { API_PREFIX } from './http/api.js';
import { routeConventionsArea } from './http/route-conventions.js';
import { SnowflakeGenerator } from './ids/snowflake.js';
import type { PlatformKernel } from './kernel.js';
import { createLogger } from './logger.js';
import type { RouteEntry } from './route-table.js';
import { oauthArea } from './oauth/index.js';
import { OidcSigningKeys } from './oauth/oidc/signing-keys.js';
import { landingArea } from './landing/routes.js';
import { resolveOptions, type PlatformOptions, type ResolvedOptions } from './options.js';
import { LOOPBACK_RANGES, OutboundGuard, type OwnListeners } from './outbound/guard.js';
import { OutboundHttpClient } from './outbound/http-client.js';
import { OidcProviderVerifier } from './partner-sdk/oidc/verifier.js';
import { partnerSdkArea } from './partner-sdk/index.js';
import { portalArea } from './portal/index.js';
import { openStore } from './store/open.js';
import type { Store } from './store/types.js';
import { socialArea } from './social/index.js';
import { startRpcServer, type RpcServer } from './rpc/index.js';
import { usersArea } from './users/index.js';
import { voiceArea, type VoiceHandle, type VoiceOptions } from './voice/index.js';
import { WebhookDeliverer, webhookLeaseMs } from './webhooks/deliverer.js';
import type { WakesWebhooks } from './webhooks/waking.js';

export type { PlatformOptions } from './options.js';
export type { RateLimitRule } from './http/rate-limit.js';
export type { TokenLifetimes } from './oauth/token-lifetimes.js';
export type { WebhookRetryOptions } from './webhooks/retry-options.js';
export type { LobbyLimits } from './lobbies/limits.js';
export { DEFAULT_LOBBY_LIMITS } from './lobbies/limits.js';
export type { PlatformConfig } from './config/schema.js';
export { resolveDeployment, DEPLOYMENT_ENV, type DeploymentSettings } from './config/deployment.js';
export type { Store } from './store/types.js';
export type { RouteEntry } from './route-table.js';
export { EventBus } from './events/bus.js';
export type { GatewayHandle, GatewayIdentity, GatewayOptions } from './gateway/index.js';
export { DEFAULT_RATE_LIMITS } from './http/rate-limit.js';
export { stopOnSignals, type SignalShutdownOptions } from './shutdown.js';
export { onParentExit, startedByNpm } from './parent-watch.js';
export { LOG_FORMATS, type LogFormat } from './log-format.js';
export type { RpcOptions, RpcServer, ConsentRequest, Delivery } from './rpc/index.js';
export { startStandaloneRpc, type StandaloneRpcOptions } from './rpc/standalone.js';
export { runStandaloneCli, type StandaloneCliOptions } from './rpc/cli.js';
export type { VoiceHandle, VoiceOptions, VoiceStats } from './voice/index.js';

/**
 * What a running platform lets tests and tools reach behind the HTTP API: the kernel, the resolved options, the URLs
 * and outbound HTTP (with its guard). No area is handed this: each takes only what it reads.
 */
export interface PlatformServices extends PlatformKernel {
  options: ResolvedOptions;
  /** Read when used (a getter): empty strings until the server listens. */
  readonly urls: PlatformUrls;
  /**
   * Outbound HTTP(S) to destinations configured over HTTP (webhooks, interactions endpoints, the portal's test
   * event); `outbound.guard` is the one check every such request passes (outbound/guard.ts), the proxy's included.
   */
  outbound: OutboundHttpClient;
}

export interface DevApplicationCredentials {
  id: string;
  clientSecret: string;
  botToken: string;
  /** Ed25519 public key (hex) that verifies this application's webhook signatures. */
  publicKey: string;
}

export interface RunningPlatform {
  /** `http(s)://127.0.0.1:<port>` — also the OIDC issuer. */
  httpUrl: string;
  /** `${httpUrl}/api/v10` */
  apiBase: string;
  /** `ws(s)://127.0.0.1:<port>/gateway` */
  gatewayUrl: string;
  /**
   * `http(s)://127.0.0.1:<attachments port>` — the attachments origin, where uploaded files are served (a listener
   * of its own, never the API's origin; PROTOCOL.md §14.4): attachment `url`s start with it.
   */
  attachmentsUrl: string;
  /** The self-signed certificate to trust when `tls` is on. */
  caCertPem?: string;
  devApp: DevApplicationCredentials;
  /** Created on this start (false when the database already had it). */
  devAppCreated: boolean;
  /**
   * This start's development token (devMode): send it as `X-Svcpp-Dev-Token` to read credentials from
   * `GET /dev/state` or to call a state-changing dev route without a JSON body.
   */
  devToken: string;
  store: Store;
  bus: EventBus;
  gateway: GatewayHandle;
  /** Lobby voice calls: the voice gateway's endpoint, test hooks (drop, injected loss) and relay figures. */
  voice: VoiceHandle;
  /** Services and options, for tests and tools that need to reach behind the HTTP API. */
  context: PlatformServices;
  /** The local client (with `rpc` start option): socket path, consent queue, launch registry, desktop actions. */
  rpc?: RpcServer;
  /** Every HTTP route served (method and URL pattern). */
  routes: readonly RouteEntry[];
  logger: Logger;
  close(): Promise<void>;
}

export interface StartOptions extends PlatformOptions {
  /** Gateway tunables (heartbeat interval, resume window, limits). */
  gateway?: Partial<GatewayOptions>;
  /** Voice server: ports, participants per call, test loss injection, voice gateway tunables. */
  voice?: VoiceOptions;
}

/** Refused unless allowed explicitly: development mode mints tokens for any user (PROTOCOL.md §9). */
function assertDevModeStaysLocal(options: ResolvedOptions): void {
  if (options.devMode && !isLoopbackHost(options.host) && !options.allowDevOnNetwork) {
    throw new Error(
      `refusing to listen on ${options.host} with development mode on: ` +
        'anyone who can reach it could sign in as any user. ' +
        'Turn development mode off (devMode: false, --no-dev) ' +
        'or allow it explicitly (allowDevOnNetwork: true, --allow-dev-on-network).',
    );
  }
}

/** The gateway's session control, read at each call: before the gateway exists nobody is connected. */
function lateSessions(gateway: () => SessionControl | undefined): SessionControl {
  return {
    disconnectUser: (userId, closeCode) => gateway()?.disconnectUser(userId, closeCode),
    hasSession: (userId, applicationId) => gateway()?.hasSession(userId, applicationId) ?? false,
  };
}

/** The base URL a listener is reached at: the advertised one, else its address (a wildcard one as loopback). */
function baseUrl(app: FastifyInstance, tls: boolean, publicUrl: string | undefined): string {
  const address = app.server.address() as AddressInfo;
  const host =
    address.family === 'IPv6'
      ? address.address === '::'
        ? '[::1]'
        : `[${address.address}]`
      : address.address === '0.0.0.0'
        ? '127.0.0.1'
        : address.address;
  return (publicUrl ?? `${tls ? 'https' : 'http'}://${host}:${address.port}`).replace(/\/+$/, '');
}

function listeningUrls(app: FastifyInstance, attachments: FastifyInstance, options: ResolvedOptions): PlatformUrls {
  const http = baseUrl(app, options.tls, options.publicUrl);
  const gateway = new URL(http);
  gateway.protocol = gateway.protocol === 'https:' ? 'wss:' : 'ws:';
  gateway.pathname = `${gateway.pathname.replace(/\/+$/, '')}/gateway`;
  return {
    http,
    api: `${http}${API_PREFIX}`,
    gateway: gateway.toString(),
    attachments: baseUrl(attachments, options.tls, options.attachments.publicUrl),
  };
}

/** The ports and advertised authorities of this platform's listeners, for the outbound guard. */
function recordOwnListeners(own: OwnListeners, ports: Array<AddressInfo | number>, urls: string[]): void {
  const portSet = own.ports as Set<number>;
  const authorities = own.authorities as Set<string>;
  for (const entry of ports) portSet.add(typeof entry === 'number' ? entry : entry.port);
  for (const text of urls) {
    const url = new URL(text);
    const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    authorities.add(
      `${hostname.toLowerCase()}:${url.port || (url.protocol === 'https:' || url.protocol === 'wss:' ? 443 : 80)}`,
    );
  }
}

/**
 * Starts the platform: database (created and migrated), development application, config, HTTP API, OAuth2/OIDC,
 * provisional accounts, gateway and webhook delivery. Loopback and an ephemeral port unless told otherwise.
 */
export async function startPlatform(options: StartOptions = {}): Promise<RunningPlatform> {
  const resolved = resolveOptions(options);
  assertDevModeStaysLocal(resolved);
  webhookLeaseMs(resolved.webhookRetry); // a lease an attempt could outlast is refused before anything starts
  const logger = createLogger(options.logger, options.logFormat);
  // The broker first: a bad URL or an unreachable broker fails the start before the database is touched.
  const log: ClusterLog = resolved.broker
    ? await RedisLog.connect(resolved.broker, logger.child({ area: 'broker' }), undefined, resolved.nodeLiveness)
    : new InProcessLog();
  let store: Store;
  try {
    store = openStore(resolved.database);
  } catch (error) {
    await log.close();
    throw error;
  }
  try {
    const now = resolved.now;
    // Where the platform itself listens, filled in below once it does: the guard refuses these whatever is allowed.
    const own: OwnListeners = { ports: new Set(), authorities: new Set() };
    const outbound = new OutboundHttpClient(
      resolved.outboundCaPems,
      new OutboundGuard({ allow: resolved.outboundAllow, own: () => own }),
    );
    // Identity providers on https://localhost (allowLocalhostIssuers) are reached although loopback is not allowed.
    const issuerOutbound = resolved.allowLocalhostIssuers
      ? new OutboundHttpClient(
          resolved.outboundCaPems,
          new OutboundGuard({ allow: [...resolved.outboundAllow, ...LOOPBACK_RANGES], own: () => own }),
        )
      : outbound;
    const bus = new EventBus(log);
    const rateLimiter = new RateLimiter(resolved.rateLimits, now);
    const webhooks = new WebhookDeliverer(
      store,
      outbound,
      resolved.webhookRetry,
      logger.child({ area: 'webhooks' }),
      now,
    );
    // Values known only later, handed to the areas as functions read when used: the URLs once the server listens,
    // the gateway's sessions once it exists, the areas' gateway handlers and account movers once they are assembled.
    let urls: PlatformUrls = { http: '', api: '', gateway: '', attachments: '' };
    const platformUrls = () => urls;
    let gatewayHandle: GatewayHandle | undefined;
    let assembled: AssembledAreas | undefined;
    const movers: AccountMovers = () => assembled?.accountMovers ?? [];
    // External ID tokens are proven for the partner SDK's routes and for OAuth2 merges.
    const externalTokens = new OidcProviderVerifier(issuerOutbound, {
      allowLocalhostIssuers: resolved.allowLocalhostIssuers,
      cacheSeconds: resolved.oidcCacheSeconds,
      now,
    });
    const kernel: PlatformKernel = { store, ids: new SnowflakeGenerator(now), logger, bus, now };
    // What the areas take besides the kernel, each only what it reads: waking webhook delivery after a change that
    // queued events, the gateway's sessions (to end them), the signing keys of id_tokens, this start's dev token.
    const waking: WakesWebhooks = { ...kernel, wakeWebhooks: () => webhooks.wake() };
    const accessEnding: AccessEnding = { ...waking, sessions: lateSessions(() => gatewayHandle) };
    const signingKeys = new OidcSigningKeys(store, now);
    const devToken = randomToken();
    const devMode = resolved.devMode;

    const dev = ensureDevEnvironment({ ...waking, options: resolved });
    if (resolved.config) applyConfig({ ...waking, options: resolved }, resolved.config);

    const tls = resolved.tls ? await platformCertificate(store, new Date(now())) : undefined;
    const { app, routes } = createHttpServer({
      logger,
      bodyLimitBytes: resolved.bodyLimitBytes,
      rateLimiter,
      now,
      // Besides loopback and addresses: the name the server was told to listen on and the advertised one.
      hostNames: () => [resolved.host, ...(resolved.publicUrl ? [new URL(resolved.publicUrl).hostname] : [])],
      // A page on the attachments origin is loopback too, and still no page of the platform's.
      foreignOrigins: () => (urls.attachments ? [new URL(urls.attachments).origin] : []),
      ...(tls ? { tls } : {}),
    });
    // Uploaded files: an origin of their own (PROTOCOL.md §14.4 "Attachment files").
    const attachments = createAttachmentsServer(
      { ...kernel, rateLimiter },
      {
        logger: logger.child({ area: 'attachments' }),
        hostNames: () => [
          resolved.host,
          ...(resolved.attachments.publicUrl ? [new URL(resolved.attachments.publicUrl).hostname] : []),
        ],
        ...(tls ? { tls } : {}),
      },
    );
    const gateway = registerGateway(app, {
      bus,
      authenticate: gatewayAuthenticator(kernel),
      logger: logger.child({ area: 'gateway' }),
      publicUrl: () => urls.http,
      ...gatewayFanOut(() => assembled?.gateway ?? []),
      ...(options.gateway ? { options: options.gateway } : {}),
    });
    gatewayHandle = gateway;
    let rpc: RpcServer | undefined;

    // The areas, built in this order (their bus subscriptions are made in it) and assembled in the list's order:
    // routes and request hooks (the dev guard's first, then the route convention's), gateway handlers, movers.
    // Adding an area is one more entry here.
    // The bot API asks the voice area about guild calls; the voice area, built later, uses the bot API's guilds.
    let guildVoice: GuildVoiceCalls | undefined;
    const botApi = botApiArea({ ...kernel, urls: platformUrls, outbound, devMode }, () => guildVoice);
    const premium = premiumArea(waking, { devMode });
    const activities = activitiesArea({ ...kernel, guard: outbound.guard }, { devMode });
    const lobbies = lobbiesArea({
      ...waking,
      sessions: accessEnding.sessions,
      urls: platformUrls,
      guard: outbound.guard,
      limits: resolved.lobbyLimits,
    });
    const social = socialArea(waking, { limits: resolved.socialLimits, devMode });
    // The developer portal (PROTOCOL.md §15): web pages under /developers.
    const portal = portalArea({ ...accessEnding, options: resolved }, { gateway, outbound, devToken });
    const voice = voiceArea(kernel, { devMode }, options.voice, botApi.api);
    guildVoice = voice.guildVoice;
    const tokenIssuing = { ...accessEnding, signingKeys, urls: platformUrls, options: resolved };
    const areas: PlatformArea[] = [
      ...(devMode ? [devGuardArea(devToken)] : []),
      routeConventionsArea({ ...kernel, rateLimiter }),
      accountsArea(),
      oauthArea({ ...tokenIssuing, rateLimiter }, { externalTokens, movers }),
      landingArea({ urls: platformUrls, devMode, database: resolved.database }),
      partnerSdkArea(tokenIssuing, movers, externalTokens),
      usersArea(kernel),
      botApi,
      premium,
      activities,
      lobbies,
      social,
      ...(devMode ? [devArea({ ...accessEnding, options: resolved }, outbound.guard, () => rpc)] : []),
      portal,
      voice,
    ];
    assembled = assembleAreas(app, areas);

    try {
      // Every area has subscribed to the log by now; with a broker this also replays the retained history.
      await log.start();
      await app.listen({ port: resolved.port, host: resolved.host });
      await attachments.listen({ port: resolved.attachments.port, host: resolved.host });
      await voice.handle.listen(resolved.host, tls);
      urls = listeningUrls(app, attachments, resolved);
      recordOwnListeners(
        own,
        [
          app.server.address() as AddressInfo,
          attachments.server.address() as AddressInfo,
          Number(voice.handle.endpoint.slice(voice.handle.endpoint.lastIndexOf(':') + 1)),
        ],
        [urls.http, urls.attachments, `http://${resolved.host}:${(app.server.address() as AddressInfo).port}`],
      );
      // The local client (PROTOCOL.md §12), when asked for: it needs the URLs for its READY.
      if (resolved.rpc)
        rpc = await startRpcServer({ ...waking, urls: platformUrls, options: resolved }, social.services, resolved.rpc);
    } catch (error) {
      await attachments.close();
      await app.close();
      throw error;
    }
    webhooks.start();
    logger.info(
      {
        url: urls.http,
        attachments: urls.attachments,
        database: resolved.database,
        ...(resolved.broker && { broker: redactUrl(resolved.broker), node: log.nodeId }),
        devMode: resolved.devMode,
      },
      'svcpp platform listening',
    );

    const services: PlatformServices = {
      ...kernel,
      options: resolved,
      get urls() {
        return urls;
      },
      outbound,
    };
    let closing: Promise<void> | undefined;
    const running: RunningPlatform = {
      httpUrl: urls.http,
      apiBase: urls.api,
      gatewayUrl: urls.gateway,
      attachmentsUrl: urls.attachments,
      ...(tls ? { caCertPem: tls.cert } : {}),
      devApp: {
        id: dev.app.id,
        clientSecret: dev.app.clientSecret,
        botToken: dev.app.botToken,
        publicKey: dev.app.publicKeyHex,
      },
      devAppCreated: dev.created,
      devToken,
      store,
      bus,
      gateway,
      voice: voice.handle,
      context: services,
      routes,
      logger,
      ...(rpc ? { rpc } : {}),
      // Webhook attempts in flight finish first; pending ones stay in the outbox for the next start.
      close: () =>
        (closing ??= (async () => {
          await rpc?.close();
          await webhooks.stop();
          await attachments.close();
          await app.close();
          // After the gateway ended its sessions: their entries reach the other nodes (and run here) first.
          await log.close();
          store.close();
          logger.info('svcpp platform stopped');
        })()),
    };
    return running;
  } catch (error) {
    await log.close();
    store.close();
    throw error;
  }
}
