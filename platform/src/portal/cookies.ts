import type { FastifyReply, FastifyRequest } from 'fastify';

/** The signed-in session (path /developers: no other route of the platform ever sees it). */
export const SESSION_COOKIE = 'svcpp_portal_session';
/** The login form's anti-forgery value (double submit: the form field must equal this cookie). */
export const LOGIN_COOKIE = 'svcpp_portal_login';
export const PORTAL_PATH = '/developers';

/** The named cookie of the request; the first one wins when a name repeats. */
export function readCookie(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index < 0) continue;
    if (part.slice(0, index).trim() === name) return part.slice(index + 1).trim();
  }
  return undefined;
}

/**
 * HttpOnly (no script reads it), SameSite=Strict (no other site's page or link sends it), Secure when the platform
 * serves TLS (a plain-HTTP platform on loopback cannot set a Secure cookie at all).
 */
export function setCookie(
  reply: FastifyReply,
  name: string,
  value: string,
  options: { secure: boolean; maxAgeSeconds?: number; path?: string },
): void {
  const parts = [`${name}=${value}`, `Path=${options.path ?? PORTAL_PATH}`, 'HttpOnly', 'SameSite=Strict'];
  if (options.maxAgeSeconds !== undefined) parts.push(`Max-Age=${options.maxAgeSeconds}`);
  if (options.secure) parts.push('Secure');
  // fastify appends Set-Cookie headers instead of replacing them: one call per cookie.
  reply.header('set-cookie', parts.join('; '));
}

export function clearCookie(reply: FastifyReply, name: string, options: { secure: boolean; path?: string }): void {
  setCookie(reply, name, '', { ...options, maxAgeSeconds: 0 });
}
