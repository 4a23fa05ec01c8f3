/** Where clients connect: the WebSocket URL that /gateway, /gateway/bot and READY's resume_gateway_url report. */

export const GATEWAY_PATH = '/gateway';

/**
 * `publicUrl` is the platform's base URL (`http(s)://host:port[/prefix]`) or already a `ws(s)://` URL; without one,
 * the request's protocol and Host header are used, so a TLS listener yields `wss://`.
 */
export function gatewayUrl(publicUrl: string | undefined, request: { protocol: string; host: string }): string {
  const base = publicUrl ?? `${request.protocol}://${request.host}`;
  const url = new URL(base);
  if (url.protocol === 'http:') url.protocol = 'ws:';
  else if (url.protocol === 'https:') url.protocol = 'wss:';
  else if (url.protocol !== 'ws:' && url.protocol !== 'wss:') throw new TypeError(`unsupported public URL ${base}`);
  const path = url.pathname.replace(/\/+$/, '');
  url.pathname = path.endsWith(GATEWAY_PATH) ? path : `${path}${GATEWAY_PATH}`;
  url.search = '';
  url.hash = '';
  return url.toString();
}
