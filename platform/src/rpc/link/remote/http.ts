/**
 * The standalone local client's HTTP client of the platform: JSON in and out, the platform's error body turned back
 * into its `ApiError` (status, code, message), redirects never followed (the OAuth2 authorize endpoint answers with
 * one, and its Location is what the local client wants). TLS is verified as usual; a platform with a self-signed
 * certificate is trusted with NODE_EXTRA_CA_CERTS.
 */
import { API_PREFIX } from '../../../http/api.js';
import { ApiError } from '../../../http/errors.js';

export interface HttpAnswer {
  status: number;
  body: unknown;
  location: string | null;
}

export interface HttpRequest {
  method?: string;
  token?: string;
  json?: unknown;
  form?: Record<string, string>;
  query?: Record<string, string>;
}

export class PlatformHttp {
  /** `{origin}` + the one API prefix. */
  readonly apiBase: string;

  constructor(readonly origin: string) {
    this.apiBase = `${origin}${API_PREFIX}`;
  }

  /** A request to an API route (`/users/@me`); a status ≥ 400 throws the platform's ApiError. */
  async api<T>(path: string, request: HttpRequest = {}): Promise<T> {
    const answer = await this.send(`${this.apiBase}${path}`, request);
    if (answer.status >= 400) throw apiError(answer);
    return answer.body as T;
  }

  /** Any request; the answer whatever its status. */
  async send(url: string, request: HttpRequest = {}): Promise<HttpAnswer> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (request.token !== undefined) headers.authorization = `Bearer ${request.token}`;
    let body: string | undefined;
    if (request.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(request.json);
    } else if (request.form !== undefined) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(request.form).toString();
    }
    const target = request.query ? `${url}?${new URLSearchParams(request.query)}` : url;
    const response = await fetch(target, {
      method: request.method ?? (body === undefined ? 'GET' : 'POST'),
      headers,
      body,
      redirect: 'manual',
    });
    const text = await response.text();
    let parsed: unknown = text;
    if ((response.headers.get('content-type') ?? '').includes('application/json') && text !== '')
      parsed = JSON.parse(text);
    return { status: response.status, body: parsed, location: response.headers.get('location') };
  }
}

function apiError(answer: HttpAnswer): ApiError {
  const body = (typeof answer.body === 'object' && answer.body !== null ? answer.body : {}) as {
    code?: unknown;
    message?: unknown;
  };
  const message = typeof body.message === 'string' ? body.message : `HTTP ${answer.status}`;
  return new ApiError(answer.status, typeof body.code === 'number' ? body.code : 0, message);
}
