// Server helpers for Node game backends (the `svcpp/server` entry point): calls the platform's HTTP API with the
// application's bot token (which must never reach a game client) and verifies the platform's signed webhook events.
// Not part of the native SDK: plain node:https and node:crypto. Nothing imported from here may load native code
// (test/server-entry.test.ts checks the import graph), so a game server needs neither the addon nor libsvcpp.
import http from 'node:http';
import https from 'node:https';
import { rootCertificates } from 'node:tls';
import { SvcppError } from './errors.js';
import { fromWire, snowflakeParam, toSnowflake, type Snowflake } from './server-ids.js';
import { timeoutError, transportError } from './server-transport.js';

export type { Snowflake } from './server-ids.js';
/**
 * What a call rejects with when the platform gave no answer (refused, reset, timed out): `retryable` says if retrying
 * may help.
 */
export { SvcppConnectionError } from './errors.js';
export * from './webhooks.js';
export * from './webhook-receiver.js';
export * from './webhook-listener.js';

export interface SvcppServerOptions {
  /** `https://host/api/v10` (the platform's `apiBase`). */
  apiBase: string;
  /** The application's bot token (`Authorization: Bot …`). */
  botToken: string;
  /** The application (client) id the bot token belongs to: a bigint or its decimal string. */
  applicationId: Snowflake;
  /**
   * An extra CA certificate to trust besides the system roots: the PEM text itself (string or Buffer, e.g.
   * `readFileSync('platform-ca.pem')`), not a path — e.g. a local platform's self-signed certificate
   * (`npx svcpp-platform --tls --cert-out platform-ca.pem`). Only for `https:` API bases.
   */
  ca?: string | Buffer;
  /**
   * The longest a request waits for a complete answer, in milliseconds, counted from when the call sends it (waiting
   * for a free connection included; each resend after a 429 has its own); default 30 000. Past it the call rejects
   * with SvcppConnectionError, reason TimedOut.
   */
  timeoutMs?: number;
}

/** A provisional account's token (published token response, camelCased). */
export interface ProvisionalToken {
  accessToken: string;
  tokenType: string;
  /** Seconds. */
  expiresIn: number;
  scope: string;
  /** OIDC ID token naming the provisional user (`sub`). */
  idToken: string;
}

/** The platform refused the request (any non-2xx answer, 429 once the retries are used up). */
export class SvcppServerError extends Error {
  override readonly name = 'SvcppServerError';

  constructor(
    /** HTTP status. */
    readonly status: number,
    /** The platform's JSON error code (`50014`, `10013`, …); 0 when the body has none (e.g. a 429). */
    readonly code: number,
    /** The parsed JSON body, or the text when it is not JSON. */
    readonly body: unknown,
    /** Seconds to wait before retrying (429 only). */
    readonly retryAfter?: number,
  ) {
    super(`${status}${code ? ` (code ${code})` : ''}: ${messageOf(body)}`);
  }
}

function messageOf(body: unknown): string {
  if (typeof body === 'object' && body !== null && typeof (body as { message?: unknown }).message === 'string')
    return (body as { message: string }).message;
  return typeof body === 'string' && body !== '' ? body.slice(0, 200) : 'request failed';
}

/** Ids are bigint, as everywhere in svcpp; methods also accept them as decimal strings (`Snowflake`). */
export interface ServerLobbyMember {
  userId: bigint;
  metadata: Record<string, string>;
  /** Member flag CanLinkLobby (1 << 0): the member may link the lobby to a guild channel. */
  canLinkLobby: boolean;
  /** Extra display name shown on the member's lobby messages (MessageHandle.AdditionalName). */
  additionalName?: string;
}

export interface ServerLobby {
  id: bigint;
  applicationId: bigint;
  metadata: Record<string, string>;
  members: ServerLobbyMember[];
  linkedChannel?: { id: bigint; name: string; guildId: bigint };
}

export interface LobbyMemberArgs {
  metadata?: Record<string, string>;
  canLinkLobby?: boolean;
  /** 1–80 characters; `null` clears it, absent keeps it. */
  additionalName?: string | null;
}

export interface LobbyMemberChange extends LobbyMemberArgs {
  userId: Snowflake;
  /** Removes the member instead of upserting it. */
  remove?: boolean;
}

export interface CreateLobbyArgs {
  metadata?: Record<string, string>;
  /** At most 25. */
  members?: Array<LobbyMemberArgs & { userId: Snowflake }>;
  /** 5 – 604,800 seconds without a connected member before the lobby is deleted (default 300). */
  idleTimeoutSeconds?: number;
  /** Where this lobby's webhook events go instead of the application's webhook URL. */
  overrideEventWebhooksUrl?: string;
}

export interface LobbyChannelInvite {
  code: string;
  /** The invite page to open. Single use. */
  url: string;
  /** ISO 8601; one hour after creation. */
  expiresAt: string;
}

const CAN_LINK_LOBBY = 1;

function memberBody(member: LobbyMemberArgs): Record<string, unknown> {
  return {
    ...(member.metadata !== undefined && { metadata: member.metadata }),
    ...(member.canLinkLobby !== undefined && { flags: member.canLinkLobby ? CAN_LINK_LOBBY : 0 }),
    ...(member.additionalName !== undefined && { additional_name: member.additionalName }),
  };
}

function lobbyBody(args: CreateLobbyArgs): Record<string, unknown> {
  return {
    ...(args.metadata !== undefined && { metadata: args.metadata }),
    ...(args.members !== undefined && {
      members: args.members.map(({ userId, ...member }) => ({
        id: snowflakeParam(userId, 'members[].userId'),
        ...memberBody(member),
      })),
    }),
    ...(args.idleTimeoutSeconds !== undefined && { idle_timeout_seconds: args.idleTimeoutSeconds }),
    ...(args.overrideEventWebhooksUrl !== undefined && { override_event_webhooks_url: args.overrideEventWebhooksUrl }),
  };
}

interface WireMember {
  id: string;
  metadata: Record<string, string> | null;
  flags?: number;
  additional_name?: string | null;
}

function toMember(value: unknown): ServerLobbyMember {
  const m = value as WireMember;
  return {
    userId: fromWire(m.id),
    metadata: m.metadata ?? {},
    canLinkLobby: ((m.flags ?? 0) & CAN_LINK_LOBBY) !== 0,
    ...(typeof m.additional_name === 'string' && { additionalName: m.additional_name }),
  };
}

function toLobby(value: unknown): ServerLobby {
  const l = value as {
    id: string;
    application_id: string;
    metadata: Record<string, string> | null;
    members: unknown[];
    linked_channel?: { id: string; name: string; guild_id: string } | null;
  };
  return {
    id: fromWire(l.id),
    applicationId: fromWire(l.application_id),
    metadata: l.metadata ?? {},
    members: (l.members ?? []).map(toMember),
    ...(l.linked_channel && {
      linkedChannel: {
        id: fromWire(l.linked_channel.id),
        name: l.linked_channel.name,
        guildId: fromWire(l.linked_channel.guild_id),
      },
    }),
  };
}

/** `lobbies/{lobby}/members/{user}` with both ids checked. */
function memberPath(lobbyId: Snowflake, userId: Snowflake): string {
  return `lobbies/${snowflakeParam(lobbyId, 'lobbyId')}/members/${snowflakeParam(userId, 'userId')}`;
}

/** How often a rate-limited request is sent again, and the longest wait accepted for it. */
const MAX_RETRIES = 3;
const MAX_RETRY_WAIT_SECONDS = 60;
/**
 * The longest a request may take by default, from the call to the end of the answer (waiting for a socket included).
 */
const DEFAULT_TIMEOUT_MS = 30_000;
/**
 * Idle keep-alive sockets close long before the server's keep-alive timeout would cut them (as Node's global agent).
 * The agent applies this idle bound to every socket it makes, also while it connects and while a request waits for
 * its answer; that is why the request deadline is a timer of its own and never a socket timeout (see send).
 */
const IDLE_SOCKET_MS = 5_000;
/**
 * Connections per SvcppServer: a burst of calls queues on a few keep-alive sockets instead of opening (and TLS
 * handshaking) one connection per call, which on a busy machine can take longer than the calls themselves.
 */
const MAX_SOCKETS = 8;

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: unknown;
}

/** Calls the platform as the application's bot. One instance per application; requests share keep-alive sockets. */
export class SvcppServer {
  readonly applicationId: bigint;
  private readonly apiBase: URL;
  private readonly authorization: string;
  private readonly agent: http.Agent;
  private readonly timeoutMs: number;

  constructor(options: SvcppServerOptions) {
    this.applicationId = toSnowflake(options.applicationId, 'applicationId');
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    // setTimeout would treat a bad value as 1 ms: refuse it here instead.
    if (!Number.isFinite(this.timeoutMs) || this.timeoutMs <= 0 || this.timeoutMs > 2 ** 31 - 1) {
      throw new SvcppError(
        'ERR_SVCPP_INVALID_ARGUMENT',
        `svcpp: timeoutMs must be a positive number of milliseconds, got ${String(options.timeoutMs)}`,
      );
    }
    // A trailing slash would make URL resolution drop the last path segment (api/v10 → api/).
    this.apiBase = new URL(`${options.apiBase.replace(/\/+$/, '')}/`);
    this.authorization = `Bot ${options.botToken}`;
    const agentOptions = { keepAlive: true, timeout: IDLE_SOCKET_MS, maxSockets: MAX_SOCKETS };
    // `ca` replaces Node's trust store rather than adding to it, hence the system roots alongside.
    this.agent =
      this.apiBase.protocol === 'https:'
        ? new https.Agent({
            ...agentOptions,
            ...(options.ca !== undefined ? { ca: [...rootCertificates, options.ca.toString()] } : {}),
          })
        : new http.Agent(agentOptions);
  }

  /**
   * A token for the provisional account of `externalUserId` (your game's own user id), created on first use.
   * `preferredGlobalName` becomes (or updates) the account's display name.
   */
  async createProvisionalToken(args: {
    externalUserId: string;
    preferredGlobalName?: string;
  }): Promise<ProvisionalToken> {
    const body = (await this.request('POST', 'partner-sdk/token/bot', {
      external_user_id: args.externalUserId,
      preferred_global_name: args.preferredGlobalName,
    })) as { access_token: string; token_type: string; expires_in: number; scope: string; id_token: string };
    return {
      accessToken: body.access_token,
      tokenType: body.token_type,
      expiresIn: body.expires_in,
      scope: body.scope,
      idToken: body.id_token,
    };
  }

  /** Detaches `externalUserId` from the full account it was merged into (a new provisional account takes it over). */
  async unmergeProvisionalAccount(args: { externalUserId: string }): Promise<void> {
    await this.request('POST', 'partner-sdk/provisional-accounts/unmerge/bot', {
      external_user_id: args.externalUserId,
    });
  }

  // ── lobbies (bot-managed; platform/PROTOCOL.md §10.5) ────────────────────────────────────────────────────────

  /** A lobby owned by the server: SDK clients cannot leave it themselves. At most 25 initial members. */
  async createLobby(args: CreateLobbyArgs = {}): Promise<ServerLobby> {
    return toLobby(await this.request('POST', 'lobbies', lobbyBody(args)));
  }

  async getLobby(lobbyId: Snowflake): Promise<ServerLobby> {
    return toLobby(await this.request('GET', `lobbies/${snowflakeParam(lobbyId, 'lobbyId')}`));
  }

  /** Changes what is given; `members` (at most 25) replaces the whole member set. */
  async updateLobby(lobbyId: Snowflake, args: CreateLobbyArgs): Promise<ServerLobby> {
    const path = `lobbies/${snowflakeParam(lobbyId, 'lobbyId')}`;
    return toLobby(await this.request('PATCH', path, lobbyBody(args)));
  }

  /** Deletes the lobby; deleting one that is already gone succeeds. */
  async deleteLobby(lobbyId: Snowflake): Promise<void> {
    await this.request('DELETE', `lobbies/${snowflakeParam(lobbyId, 'lobbyId')}`);
  }

  /** Adds the user to the lobby, or updates the member (absent fields are kept; `additionalName: null` clears it). */
  async putLobbyMember(
    lobbyId: Snowflake,
    userId: Snowflake,
    member: LobbyMemberArgs = {},
  ): Promise<ServerLobbyMember> {
    return toMember(await this.request('PUT', memberPath(lobbyId, userId), memberBody(member)));
  }

  async removeLobbyMember(lobbyId: Snowflake, userId: Snowflake): Promise<void> {
    await this.request('DELETE', memberPath(lobbyId, userId));
  }

  /** Adds, updates (`remove` false) or removes up to 25 members in one request; answers the upserted members. */
  async bulkUpdateLobbyMembers(lobbyId: Snowflake, changes: LobbyMemberChange[]): Promise<ServerLobbyMember[]> {
    const path = `lobbies/${snowflakeParam(lobbyId, 'lobbyId')}/members/bulk`;
    const body = changes.map(({ userId, remove, ...member }) => ({
      id: snowflakeParam(userId, 'changes[].userId'),
      ...memberBody(member),
      ...(remove ? { remove_member: true } : {}),
    }));
    return ((await this.request('POST', path, body)) as unknown[]).map(toMember);
  }

  /**
   * Application-scoped moderation data on a lobby message (at most 5 keys); game clients read it as
   * MessageHandle.ModerationMetadata. Replaces the previous map.
   */
  async setLobbyMessageModerationMetadata(
    lobbyId: Snowflake,
    messageId: Snowflake,
    metadata: Record<string, string>,
  ): Promise<void> {
    const path = `lobbies/${snowflakeParam(lobbyId, 'lobbyId')}/messages/${snowflakeParam(messageId, 'messageId')}/moderation-metadata`;
    await this.request('PUT', path, metadata);
  }

  /** The same for a game direct message sent through this application. */
  async setDirectMessageModerationMetadata(messageId: Snowflake, metadata: Record<string, string>): Promise<void> {
    const path = `applications/${this.applicationId}/messages/${snowflakeParam(messageId, 'messageId')}/moderation-metadata`;
    await this.request('PUT', path, metadata);
  }

  /** A single-use guild invite (valid one hour) to the lobby's linked channel, for one member. */
  async createLobbyChannelInvite(lobbyId: Snowflake, userId: Snowflake): Promise<LobbyChannelInvite> {
    const body = (await this.request('POST', `${memberPath(lobbyId, userId)}/invites`, {})) as {
      code: string;
      url: string;
      expires_at: string;
    };
    return { code: body.code, url: body.url, expiresAt: body.expires_at };
  }

  /**
   * Sends JSON (none for GET/DELETE); returns the parsed answer of a 2xx, retries 429s, throws SvcppServerError for the
   * other answers and SvcppConnectionError when there is no answer.
   */
  private async request(method: string, path: string, json?: unknown): Promise<unknown> {
    const payload = json === undefined ? undefined : JSON.stringify(json);
    for (let attempt = 0; ; attempt++) {
      const response = await this.send(method, new URL(path, this.apiBase), payload);
      if (response.status >= 200 && response.status < 300) return response.body;
      const retryAfter = response.status === 429 ? retryAfterOf(response) : undefined;
      if (retryAfter !== undefined && attempt < MAX_RETRIES && retryAfter <= MAX_RETRY_WAIT_SECONDS) {
        await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000));
        continue;
      }
      const code = (response.body as { code?: unknown } | undefined)?.code;
      throw new SvcppServerError(response.status, typeof code === 'number' ? code : 0, response.body, retryAfter);
    }
  }

  /**
   * One HTTP exchange. A request that gets no complete answer (refused, reset, TLS failure, or nothing within
   * timeoutMs) rejects with SvcppConnectionError (`code` ERR_SVCPP_CONNECTION_FAILED, `retryable`).
   */
  private send(method: string, url: URL, payload: string | undefined): Promise<RawResponse> {
    const transport = url.protocol === 'https:' ? https : http;
    const what = `${method} ${url.origin}${url.pathname}`;
    return new Promise((resolve, reject) => {
      // The deadline runs on its own clock from now: not req.setTimeout, which listens to the socket's timeout and so
      // fired after the agent's 5 s idle bound while a socket of a burst was still connecting.
      const deadline = setTimeout(() => req.destroy(timeoutError(what, this.timeoutMs)), this.timeoutMs);
      const fail = (error: unknown) => {
        clearTimeout(deadline);
        reject(transportError(what, error));
      };
      const req = transport.request(
        url,
        {
          method,
          agent: this.agent,
          headers: {
            authorization: this.authorization,
            ...(payload !== undefined && {
              'content-type': 'application/json',
              'content-length': Buffer.byteLength(payload),
            }),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', fail);
          res.on('end', () => {
            clearTimeout(deadline);
            const text = Buffer.concat(chunks).toString('utf8');
            let body: unknown = text === '' ? undefined : text;
            try {
              if (text !== '') body = JSON.parse(text);
            } catch {
              // Not JSON (a proxy's HTML page, say): the error carries the text.
            }
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
          });
        },
      );
      req.on('error', fail);
      req.end(payload);
    });
  }
}

/** `retry_after` from the body (seconds, with decimals), else the `Retry-After` header (whole seconds). */
function retryAfterOf(response: RawResponse): number | undefined {
  const fromBody = (response.body as { retry_after?: unknown } | undefined)?.retry_after;
  if (typeof fromBody === 'number' && fromBody >= 0) return fromBody;
  const header = Number(response.headers['retry-after']);
  return Number.isFinite(header) && header >= 0 ? header : undefined;
}
