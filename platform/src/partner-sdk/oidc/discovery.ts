import type { OutboundHttpClient } from '../../outbound/http-client.js';
import { ProvisionalErrors } from '../errors.js';
import { discoveryUrl, hostProblem } from './issuer-rules.js';

export interface DiscoveredIssuer {
  jwksUri: string;
  signingAlgs: string[];
  keys: Array<Record<string, unknown>>;
}

const TIMEOUT_MS = 5_000;

async function fetchJson(http: OutboundHttpClient, url: string): Promise<unknown> {
  const response = await http.request(url, { timeoutMs: TIMEOUT_MS, headers: { accept: 'application/json' } });
  // Redirects are blocked (spec, Authentication rule 4): a 3xx is a failure, never followed.
  if (response.status !== 200) throw new Error(`HTTP ${response.status}`);
  return JSON.parse(response.body.toString('utf8'));
}

/**
 * Fetches `{issuer}/.well-known/openid-configuration` and its key set (platform/PROTOCOL.md §5 "ID-token
 * verification"). The document must name exactly this issuer, a `jwks_uri` (https, same host rules) and
 * `id_token_signing_alg_values_supported`. Failures map to 530008 (discovery) and 530009 (key set).
 */
export async function discoverIssuer(
  http: OutboundHttpClient,
  issuer: string,
  allowLocalhost: boolean,
): Promise<DiscoveredIssuer> {
  let document: Record<string, unknown>;
  try {
    const body = await fetchJson(http, discoveryUrl(issuer));
    if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new Error('not an object');
    document = body as Record<string, unknown>;
  } catch {
    throw ProvisionalErrors.discoveryNotFound();
  }
  const jwksUri = document.jwks_uri;
  const algs = document.id_token_signing_alg_values_supported;
  if (
    document.issuer !== issuer ||
    typeof jwksUri !== 'string' ||
    !Array.isArray(algs) ||
    !algs.every((a) => typeof a === 'string')
  ) {
    throw ProvisionalErrors.discoveryNotFound();
  }
  let jwksUrl: URL;
  try {
    jwksUrl = new URL(jwksUri);
  } catch {
    throw ProvisionalErrors.jwksNotFound();
  }
  if (jwksUrl.protocol !== 'https:' || hostProblem(jwksUrl.hostname, allowLocalhost))
    throw ProvisionalErrors.jwksNotFound();

  let keys: Array<Record<string, unknown>>;
  try {
    const body = (await fetchJson(http, jwksUri)) as { keys?: unknown };
    if (!Array.isArray(body?.keys)) throw new Error('no keys');
    keys = body.keys.filter((k): k is Record<string, unknown> => k !== null && typeof k === 'object');
  } catch {
    throw ProvisionalErrors.jwksNotFound();
  }
  return { jwksUri, signingAlgs: algs as string[], keys };
}
