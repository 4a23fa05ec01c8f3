/**
 * Redirect URI matching: exact string match with a registered URI, except that loopback IP redirects
 * (`http://127.0.0.1/...`, `http://[::1]/...`) match on any port (RFC 8252 §7.3), because native apps listen on
 * an ephemeral port. Returns the URI to redirect to, or undefined when it is not registered.
 */
export function matchRedirectUri(registered: readonly string[], requested: string | undefined): string | undefined {
  if (requested === undefined) return registered.length === 1 ? registered[0] : undefined;
  if (registered.includes(requested)) return requested;
  const asked = parse(requested);
  if (!asked || !isLoopback(asked)) return undefined;
  for (const candidate of registered) {
    const known = parse(candidate);
    if (
      known &&
      isLoopback(known) &&
      known.hostname === asked.hostname &&
      known.pathname === asked.pathname &&
      known.search === asked.search
    ) {
      return requested;
    }
  }
  return undefined;
}

function parse(uri: string): URL | undefined {
  try {
    return new URL(uri);
  } catch {
    return undefined;
  }
}

function isLoopback(url: URL): boolean {
  return url.protocol === 'http:' && (url.hostname === '127.0.0.1' || url.hostname === '[::1]');
}

/** Appends query parameters to a redirect URI (custom schemes such as `game:/authorize/callback` included). */
export function withQuery(uri: string, params: Record<string, string | undefined>): string {
  const url = new URL(uri);
  for (const [key, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(key, value);
  return url.toString();
}

/** Puts parameters in the fragment (implicit grant). */
export function withFragment(uri: string, params: Record<string, string | undefined>): string {
  const url = new URL(uri);
  const fragment = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined) fragment.set(key, value);
  url.hash = fragment.toString();
  return url.toString();
}
