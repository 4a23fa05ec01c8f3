/**
 * The desktop user's side of the platform's OAuth2 authorize endpoint (PROTOCOL.md §3, §12.8): what a person does
 * on the consent page, done by the standalone local client with the credentials it signed in with — the same
 * form post (`username`, `password`, `decision=authorize`), the same grant checks, the same redirect. Nothing here
 * is a private route: the code (or token) is read from the Location of the redirect, never followed.
 */
import { RpcError } from '../../codes.js';
import { RpcFailure } from '../../connection.js';
import type { AuthorizeGrant } from '../platform-link.js';
import type { PlatformHttp } from './http.js';

export interface Credentials {
  username: string;
  /** Absent for accounts without a password (a development platform's users sign in by name). */
  password?: string;
}

/** A user access token for one application, from the implicit grant. */
export interface AppToken {
  accessToken: string;
  expiresAt: number;
  scopes: string[];
}

/** The sign-in was refused (wrong name or password, banned): the local client cannot act for this user. */
export class SignInRefused extends Error {}

const oauthError = (error: string, description: string) =>
  new RpcFailure(RpcError.OAUTH2_ERROR, `OAuth2 Error: ${error}: ${description}`);

/** The grant parameters as the authorize endpoint takes them. */
function grantParams(clientId: string, responseType: 'code' | 'token', grant: AuthorizeGrant): Record<string, string> {
  return {
    client_id: clientId,
    response_type: responseType,
    scope: grant.scopes.join(' '),
    ...(grant.redirectUri !== undefined && { redirect_uri: grant.redirectUri }),
    ...(grant.codeChallenge !== undefined && { code_challenge: grant.codeChallenge }),
    ...(grant.codeChallengeMethod !== undefined && { code_challenge_method: grant.codeChallengeMethod }),
    ...(grant.nonce !== undefined && { nonce: grant.nonce }),
  };
}

/** The parameters of a redirect's query and (implicit grant) fragment. */
function redirectParams(location: string): URLSearchParams {
  const url = new URL(location);
  const params = new URLSearchParams(url.search);
  for (const [key, value] of new URLSearchParams(url.hash.replace(/^#/, ''))) params.set(key, value);
  return params;
}

export class AuthorizeEndpoint {
  constructor(
    private readonly http: PlatformHttp,
    private readonly credentials: Credentials,
  ) {}

  /**
   * The checks that need no consent: a GET of the endpoint answers the consent page (200) when the request is
   * acceptable, a redirect with `error` when a grant rule refuses it, 400 when the client or redirect URI is wrong.
   */
  async check(clientId: string, grant: AuthorizeGrant): Promise<void> {
    const answer = await this.http.send(`${this.http.origin}/oauth2/authorize`, {
      query: grantParams(clientId, 'code', grant),
    });
    if (answer.status === 200) return;
    if (answer.status === 302 && answer.location) {
      const params = redirectParams(answer.location);
      throw oauthError(
        params.get('error') ?? 'invalid_request',
        params.get('error_description') ?? 'The request was refused.',
      );
    }
    throw oauthError('invalid_request', 'Invalid OAuth2 redirect_uri');
  }

  /** The desktop user approved: the consent form's post, answered with a code. */
  async code(clientId: string, grant: AuthorizeGrant): Promise<string> {
    const params = await this.approve(grantParams(clientId, 'code', grant));
    const code = params?.get('code');
    if (!params || !code)
      throw oauthError(
        params?.get('error') ?? 'invalid_request',
        params?.get('error_description') ?? 'The platform refused the request.',
      );
    return code;
  }

  /**
   * The local client's own token for an application: the implicit grant, approved as the desktop user. Undefined
   * when the platform does not accept the request for this client id (unknown application, or no single registered
   * redirect URI to answer on); SignInRefused when the credentials are.
   */
  async token(clientId: string, scopes: string[]): Promise<AppToken | undefined> {
    const params = await this.approve(grantParams(clientId, 'token', { scopes }));
    const accessToken = params?.get('access_token');
    if (!params || !accessToken) return undefined;
    return {
      accessToken,
      expiresAt: Date.now() + Number(params.get('expires_in') ?? 0) * 1000,
      scopes: (params.get('scope') ?? '').split(' '),
    };
  }

  /** Posts the consent form; the redirect's parameters, or undefined when the request itself was refused (400). */
  private async approve(params: Record<string, string>): Promise<URLSearchParams | undefined> {
    const form = {
      ...params,
      username: this.credentials.username,
      ...(this.credentials.password !== undefined && { password: this.credentials.password }),
      decision: 'authorize',
    };
    const answer = await this.http.send(`${this.http.origin}/oauth2/authorize`, { form });
    if (answer.status === 401)
      throw new SignInRefused(
        `the platform refused the sign-in of ${JSON.stringify(this.credentials.username)} ` +
          '(unknown user or wrong password)',
      );
    if (answer.status !== 302 || !answer.location) return undefined;
    const result = redirectParams(answer.location);
    if (result.get('error') === 'access_denied' && /banned/i.test(result.get('error_description') ?? '')) {
      throw new SignInRefused(`the account ${JSON.stringify(this.credentials.username)} is banned`);
    }
    return result;
  }
}
