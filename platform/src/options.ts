import { DEFAULT_LIVENESS, type LivenessOptions } from './events/node-liveness.js';
import type { LoggerOptions, Logger } from 'pino';
import type { LogFormat } from './log-format.js';
import type { PlatformConfig } from './config/schema.js';
import { DEFAULT_LOBBY_LIMITS, type LobbyLimits } from './lobbies/limits.js';
import { DEFAULT_SOCIAL_LIMITS, type SocialLimits } from './social/limits.js';
import { LOOPBACK_RANGES } from './outbound/guard.js';
import type { RateLimitRule } from './http/rate-limit.js';
import { DEFAULT_TOKEN_LIFETIMES, type TokenLifetimes } from './oauth/token-lifetimes.js';
import { DEFAULT_WEBHOOK_RETRY, type WebhookRetryOptions } from './webhooks/retry-options.js';
import type { RpcOptions } from './rpc/options.js';

export interface PlatformOptions {
  /** TCP port; 0 picks an ephemeral port. */
  port?: number;
  /** Listen address; loopback unless told otherwise. */
  host?: string;
  /** SQLite file path or ':memory:' (the default), or a `postgres://` / `postgresql://` connection URL. */
  database?: string;
  /**
   * A broker URL (`redis://…`, `rediss://…` for TLS): several platform processes on one database then serve one
   * population — bus events, sessions and presence cross nodes (PROTOCOL.md "Several nodes"). None: one node.
   */
  broker?: string;
  /**
   * With a broker: how long a node's liveness key lives without a refresh, and how often nodes refresh theirs and
   * check the others' (PROTOCOL.md "Several nodes"). Default 15 s / 3 s; tests shorten them.
   */
  nodeLiveness?: LivenessOptions;
  /** Serve HTTPS/WSS with a freshly generated self-signed P-256 certificate. */
  tls?: boolean;
  /** Applications, users and guilds to create or update at start-up. */
  config?: PlatformConfig;
  /** false: silent; an options object: a new pino logger; a Logger: used as is. */
  logger?: false | LoggerOptions | Logger;
  /** How a logger made here writes: 'json' (pino's lines) or 'pretty'; default pretty on a terminal, else JSON. */
  logFormat?: LogFormat;
  tokenLifetimes?: Partial<TokenLifetimes>;
  /** Per-bucket overrides (bucket names in PROTOCOL.md; `global` is the global limit). */
  rateLimits?: Record<string, RateLimitRule>;
  /** Development mode (default true): dev routes, auto-approve, admin listing. */
  devMode?: boolean;
  /**
   * Development mode mints tokens for any user and serves every credential to whoever holds the dev token, so with
   * it on the platform refuses to listen on a non-loopback address unless this is true.
   */
  allowDevOnNetwork?: boolean;
  webhookRetry?: Partial<WebhookRetryOptions>;
  /** Maximum request body size in bytes (default 1 MiB). */
  bodyLimitBytes?: number;
  /** Accept `https://localhost[:port]` OIDC issuers for identity providers (development only). */
  allowLocalhostIssuers?: boolean;
  /** Extra CA certificates (PEM) trusted for outgoing HTTPS: identity providers and webhook receivers. */
  outboundCaPems?: string[];
  /**
   * Address ranges (CIDR, e.g. `10.0.0.0/8`, `fd00::/8`, or single addresses) that outbound requests configured over
   * HTTP — webhook events, interactions endpoints, activity proxy targets, identity providers — may reach although
   * they are not public (loopback, private, link-local, …; PROTOCOL.md §7 "Outbound requests"). Default: the
   * loopback ranges in development mode (local receivers), none otherwise. The platform's own listeners are refused
   * whatever this says.
   */
  outboundAllow?: string[];
  /** How long a fetched OIDC discovery document and key set are reused (default 300 s; 0 = always refetch). */
  oidcCacheSeconds?: number;
  /** Clock in milliseconds since the Unix epoch; tests pass a controllable one. */
  now?: () => number;
  /** Webhook events URL of the development application (the CLI's --webhook-url). */
  devAppWebhookUrl?: string;
  /** Base URL the platform advertises (issuer, verification URIs); defaults to the listening URL. */
  publicUrl?: string;
  /**
   * The attachments origin (PROTOCOL.md §14.4 "Attachment files"): uploaded files are served by a listener of their
   * own. `port` (0, the default, picks a free one) on the platform's `host`; `publicUrl` is the base URL it is
   * advertised at in attachment `url`s (a CDN-like host of its own behind a load balancer), else its listening URL.
   */
  attachments?: { port?: number; publicUrl?: string };
  /** Lobby limits and the idle sweeper's interval (PROTOCOL.md §10.5); any subset. */
  lobbyLimits?: Partial<LobbyLimits>;
  /** Social-layer limits (PROTOCOL.md §10): message sizes, friend limit, history window, invite validity. */
  socialLimits?: Partial<SocialLimits>;
  /** The local client (PROTOCOL.md §12): off unless given; `true` = defaults. */
  rpc?: RpcOptions | boolean;
}

export interface ResolvedOptions {
  port: number;
  host: string;
  database: string;
  broker: string | undefined;
  nodeLiveness: LivenessOptions;
  tls: boolean;
  config: PlatformConfig | undefined;
  tokenLifetimes: TokenLifetimes;
  rateLimits: Record<string, RateLimitRule>;
  devMode: boolean;
  allowDevOnNetwork: boolean;
  webhookRetry: WebhookRetryOptions;
  bodyLimitBytes: number;
  allowLocalhostIssuers: boolean;
  outboundCaPems: string[];
  outboundAllow: string[];
  oidcCacheSeconds: number;
  now: () => number;
  publicUrl: string | undefined;
  attachments: { port: number; publicUrl: string | undefined };
  devAppWebhookUrl: string | undefined;
  lobbyLimits: LobbyLimits;
  socialLimits: SocialLimits;
  rpc: RpcOptions | undefined;
}

export function resolveOptions(options: PlatformOptions): ResolvedOptions {
  const devMode = options.devMode ?? true;
  return {
    port: options.port ?? 0,
    host: options.host ?? '127.0.0.1',
    database: options.database ?? ':memory:',
    broker: options.broker,
    nodeLiveness: options.nodeLiveness ?? DEFAULT_LIVENESS,
    tls: options.tls ?? false,
    config: options.config,
    tokenLifetimes: { ...DEFAULT_TOKEN_LIFETIMES, ...options.tokenLifetimes },
    rateLimits: { ...options.rateLimits },
    devMode,
    allowDevOnNetwork: options.allowDevOnNetwork ?? false,
    webhookRetry: { ...DEFAULT_WEBHOOK_RETRY, ...options.webhookRetry },
    bodyLimitBytes: options.bodyLimitBytes ?? 1024 * 1024,
    allowLocalhostIssuers: options.allowLocalhostIssuers ?? false,
    outboundCaPems: options.outboundCaPems ?? [],
    outboundAllow: options.outboundAllow ?? (devMode ? [...LOOPBACK_RANGES] : []),
    oidcCacheSeconds: options.oidcCacheSeconds ?? 300,
    now: options.now ?? Date.now,
    publicUrl: options.publicUrl,
    attachments: { port: options.attachments?.port ?? 0, publicUrl: options.attachments?.publicUrl },
    devAppWebhookUrl: options.devAppWebhookUrl,
    lobbyLimits: { ...DEFAULT_LOBBY_LIMITS, ...options.lobbyLimits },
    socialLimits: { ...DEFAULT_SOCIAL_LIMITS, ...options.socialLimits },
    rpc: options.rpc === true ? {} : options.rpc || undefined,
  };
}
