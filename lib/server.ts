// Server helpers for Node game backends: calls the platform's HTTP API with the application's bot token (which must
// never reach a game client). Not part of the native SDK: plain node:https, usable without the native library.
import http from 'node:http';
import https from 'node:https';
import { rootCertificates } from 'node:tls';

export interface SvcppServerOptions {
  /** `https://host/api/v10` (the platform's `apiBase`). */
  apiBase: string;
  /** The application's bot token (`Authorization: Bot …`). */
  botToken: string;
  /** The application (client) id the bot token belongs to. */
  applicationId: string;
  /** An extra CA (PEM) to trust besides the system roots, e.g. a local platform's self-signed certificate. */
  ca?: string | Buffer;
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
  if (typeof body === 'object' && body !== null && typeof (body as { message?: unknown }).message === 'string') return (body as { message: string }).message;
  return typeof body === 'string' && body !== '' ? body.slice(0, 200) : 'request failed';
}

/** How often a rate-limited request is sent again, and the longest wait accepted for it. */
const MAX_RETRIES = 3;
const MAX_RETRY_WAIT_SECONDS = 60;
const REQUEST_TIMEOUT_MS = 30_000;
/** Idle keep-alive sockets close long before the server's keep-alive timeout would cut them (as Node's global agent). */
const IDLE_SOCKET_MS = 5_000;

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: unknown;
}

/** Calls the platform as the application's bot. One instance per application; requests share keep-alive sockets. */
export class SvcppServer {
  readonly applicationId: string;
  private readonly apiBase: URL;
  private readonly authorization: string;
  private readonly agent: http.Agent;

  constructor(options: SvcppServerOptions) {
    this.applicationId = options.applicationId;
    // A trailing slash would make URL resolution drop the last path segment (api/v10 → api/).
    this.apiBase = new URL(`${options.apiBase.replace(/\/+$/, '')}/`);
    this.authorization = `Bot ${options.botToken}`;
    const agentOptions = { keepAlive: true, timeout: IDLE_SOCKET_MS };
    // `ca` replaces Node's trust store rather than adding to it, hence the system roots alongside.
    this.agent =
      this.apiBase.protocol === 'https:'
        ? new https.Agent({ ...agentOptions, ...(options.ca !== undefined ? { ca: [...rootCertificates, options.ca.toString()] } : {}) })
        : new http.Agent(agentOptions);
  }

  /**
   * A token for the provisional account of `externalUserId` (your game's own user id), created on first use.
   * `preferredGlobalName` becomes (or updates) the account's display name.
   */
  async createProvisionalToken(args: { externalUserId: string; preferredGlobalName?: string }): Promise<ProvisionalToken> {
    const body = (await this.post('partner-sdk/token/bot', {
      external_user_id: args.externalUserId,
      preferred_global_name: args.preferredGlobalName,
    })) as { access_token: string; token_type: string; expires_in: number; scope: string; id_token: string };
    return { accessToken: body.access_token, tokenType: body.token_type, expiresIn: body.expires_in, scope: body.scope, idToken: body.id_token };
  }

  /** Detaches `externalUserId` from the full account it was merged into (a new provisional account takes it over). */
  async unmergeProvisionalAccount(args: { externalUserId: string }): Promise<void> {
    await this.post('partner-sdk/provisional-accounts/unmerge/bot', { external_user_id: args.externalUserId });
  }

  /** POSTs JSON; returns the parsed answer of a 2xx, retries 429s, throws SvcppServerError for the rest. */
  private async post(path: string, json: unknown): Promise<unknown> {
    const payload = JSON.stringify(json);
    for (let attempt = 0; ; attempt++) {
      const response = await this.send(new URL(path, this.apiBase), payload);
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

  private send(url: URL, payload: string): Promise<RawResponse> {
    const transport = url.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      const req = transport.request(
        url,
        {
          method: 'POST',
          agent: this.agent,
          headers: { authorization: this.authorization, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', reject);
          res.on('end', () => {
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
      req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy(new Error(`svcpp: no answer from ${url.origin} within ${REQUEST_TIMEOUT_MS} ms`)));
      req.on('error', reject);
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
