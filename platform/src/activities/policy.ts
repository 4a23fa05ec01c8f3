/**
 * The stricter proxy policy (PROTOCOL.md §18.3). Published: applications created after application id
 * 1263102905548800000 got the stricter proxy policy at creation — a Content-Security-Policy that lets the activity's
 * pages load and request only their own proxy. Ids are snowflakes, so "created after" is "id greater than".
 * Older applications keep the earlier policy: the proxy adds no CSP of its own.
 */
export const STRICT_PROXY_POLICY_AFTER_ID = 1263102905548800000n;

export function hasStrictProxyPolicy(applicationId: string): boolean {
  return BigInt(applicationId) > STRICT_PROXY_POLICY_AFTER_ID;
}

/**
 * The CSP of the stricter policy for an application whose proxy is `proxyBase` (an absolute URL without a trailing
 * slash). A source ending in `/` matches every path below it, so requests to the platform's other routes — or to
 * another application's proxy on the same origin — are blocked; inline scripts and styles stay allowed, as
 * activities are single-page applications that commonly use them.
 */
export function strictProxyPolicy(proxyBase: string): string {
  const own = `${proxyBase}/`;
  return [
    `default-src ${own} data: blob:`,
    `script-src ${own} 'unsafe-inline' 'unsafe-eval'`,
    `style-src ${own} 'unsafe-inline'`,
    `connect-src ${own}`,
    `form-action ${own}`,
    `base-uri ${own}`,
  ].join('; ');
}
