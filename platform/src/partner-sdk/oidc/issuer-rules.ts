import { isIP } from 'node:net';

const FORBIDDEN_SUFFIXES = ['.local', '.arpa', '.internal', '.localhost'];

/**
 * Issuer URL rules (platform/PROTOCOL.md §5 "Issuer rules"): https, no query, fragment or userinfo, a public
 * multi-label host name (not an IP address, not under .local/.arpa/.internal/.localhost). `allowLocalhost`
 * (development) also accepts the host `localhost`. Returns the problem, or undefined when the URL is acceptable.
 */
export function issuerUrlProblem(value: string, allowLocalhost: boolean): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'Issuer must be an absolute URL.';
  }
  if (url.protocol !== 'https:') return 'Issuer must use https.';
  if (url.username || url.password) return 'Issuer must not contain userinfo.';
  if (url.search || value.includes('?')) return 'Issuer must not contain a query.';
  if (url.hash || value.includes('#')) return 'Issuer must not contain a fragment.';
  return hostProblem(url.hostname, allowLocalhost);
}

/** The host part of the rules, shared with the jwks_uri check. */
export function hostProblem(hostname: string, allowLocalhost: boolean): string | undefined {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (allowLocalhost && host === 'localhost') return undefined;
  if (isIP(host.replace(/^\[|\]$/g, '')) !== 0) return 'Issuer host must be a name, not an IP address.';
  if (host === 'localhost' || FORBIDDEN_SUFFIXES.some((suffix) => host.endsWith(suffix))) {
    return 'Issuer host must be a public host name.';
  }
  if (!host.includes('.')) return 'Issuer host must have at least two labels.';
  return undefined;
}

/** The discovery document address: `{issuer}/.well-known/openid-configuration`. */
export function discoveryUrl(issuer: string): string {
  return `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
}
