import { compactVerify, decodeProtectedHeader, importJWK, type JWK } from 'jose';
import { parseClientJson, type ClientJson } from '../../http/json-input.js';
import type { OutboundHttpClient } from '../../outbound/http-client.js';
import type { IdentityProviderConfig } from '../../store/types.js';
import { ProvisionalErrors } from '../errors.js';
import { discoverIssuer, type DiscoveredIssuer } from './discovery.js';

/** Asymmetric algorithms only (platform/PROTOCOL.md §5 "ID-token verification"). */
export const ALLOWED_ALGS = new Set(['RS256', 'RS384', 'RS512', 'ES256', 'ES384', 'ES512', 'PS256', 'PS384', 'PS512']);
const MAX_TOKEN_AGE_SECONDS = 7 * 86_400;
/** Tolerated clock difference for `iat` in the future. */
const CLOCK_SKEW_SECONDS = 300;

export interface VerifiedIdToken {
  issuer: string;
  subject: string;
  /** `preferred_username` when it is 1–32 characters (becomes the provisional display name). */
  preferredUsername?: string;
}

interface CacheEntry {
  expiresAt: number;
  issuer: Promise<DiscoveredIssuer>;
}

/**
 * Verifies ID tokens from the identity providers configured per application. Checks, in order: JWT shape,
 * `kid`, algorithm, discovery + key set, signature, `iss`, `aud`, `exp`, `iat` (≤ 7 days), `sub`.
 */
export class OidcProviderVerifier {
  private readonly cache = new Map<string, CacheEntry>();

  constructor(
    private readonly http: OutboundHttpClient,
    private readonly options: { allowLocalhostIssuers: boolean; cacheSeconds: number; now: () => number },
  ) {}

  async verify(provider: IdentityProviderConfig, token: string): Promise<VerifiedIdToken> {
    let header;
    try {
      if (token.split('.').length !== 3) throw new Error('not a compact JWS');
      header = decodeProtectedHeader(token);
    } catch {
      throw ProvisionalErrors.invalidOidcJwt('malformed token');
    }
    if (typeof header.kid !== 'string' || header.kid === '') throw ProvisionalErrors.missingKid();
    const alg = header.alg;
    if (typeof alg !== 'string' || !ALLOWED_ALGS.has(alg))
      throw ProvisionalErrors.invalidOidcJwt('signing algorithm not allowed');

    const issuer = await this.discover(provider.issuer);
    if (!issuer.signingAlgs.includes(alg))
      throw ProvisionalErrors.invalidOidcJwt('signing algorithm not advertised by the issuer');
    const jwk = issuer.keys.find((key) => key.kid === header.kid);
    if (!jwk) throw ProvisionalErrors.invalidOidcJwt('unknown kid');

    let claims: ClientJson;
    try {
      const key = await importJWK(jwk as JWK, alg);
      const verified = await compactVerify(token, key, { algorithms: [alg] });
      claims = parseClientJson(new TextDecoder().decode(verified.payload));
    } catch {
      throw ProvisionalErrors.invalidOidcJwt('signature verification failed');
    }
    // Read as every input is (json-input.ts): `sub` and `preferred_username` are stored and shown to others.
    if (!claims.ok && claims.problem === 'invalid-unicode')
      throw ProvisionalErrors.invalidOidcJwt('claims are not valid Unicode text');
    if (!claims.ok || claims.value === null || typeof claims.value !== 'object')
      throw ProvisionalErrors.invalidOidcJwt('signature verification failed');
    const payload = claims.value as Record<string, unknown>;

    if (payload.iss !== provider.issuer) throw ProvisionalErrors.issuerMismatch();
    const audiences = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
    if (!audiences.includes(provider.clientId)) throw ProvisionalErrors.audienceMismatch();
    const now = this.options.now() / 1000;
    if (typeof payload.exp !== 'number' || payload.exp <= now) throw ProvisionalErrors.expiredIdToken();
    if (typeof payload.iat !== 'number') throw ProvisionalErrors.invalidOidcJwt('missing iat');
    if (now - payload.iat > MAX_TOKEN_AGE_SECONDS) throw ProvisionalErrors.tokenTooOld();
    if (payload.iat - now > CLOCK_SKEW_SECONDS) throw ProvisionalErrors.invalidOidcJwt('iat is in the future');
    if (typeof payload.sub !== 'string' || payload.sub === '') throw ProvisionalErrors.invalidOidcJwt('missing sub');

    const result: VerifiedIdToken = { issuer: provider.issuer, subject: payload.sub };
    const name = payload.preferred_username;
    if (typeof name === 'string' && name.length >= 1 && name.length <= 32) result.preferredUsername = name;
    return result;
  }

  private discover(issuer: string): Promise<DiscoveredIssuer> {
    const now = this.options.now();
    const cached = this.cache.get(issuer);
    if (cached && cached.expiresAt > now) return cached.issuer;
    const pending = discoverIssuer(this.http, issuer, this.options.allowLocalhostIssuers);
    this.cache.set(issuer, { expiresAt: now + this.options.cacheSeconds * 1000, issuer: pending });
    // A failed discovery is not cached: the next exchange tries again.
    pending.catch(() => this.cache.delete(issuer));
    return pending;
  }
}
