import type { FastifyReply, FastifyRequest } from 'fastify';
import { constantTimeEqual } from '../crypto/tokens.js';
import { htmlFormBody } from '../http/body.js';
import { readCookie, SESSION_COOKIE } from './cookies.js';
import type { PortalDeps } from './deps.js';
import type { PortalSession } from './sessions.js';

export const LOGIN_PATH = '/developers/login';

/**
 * Headers of every portal page: no caching (pages can hold a secret shown once), no framing (clickjacking), no
 * script or inline style at all, forms only to this origin, and no Referer sent to other sites.
 */
const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy':
    "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
};

export function sendPage(reply: FastifyReply, status: number, page: string): FastifyReply {
  return reply.code(status).headers(PAGE_HEADERS).send(page);
}

/** 303: the browser follows with a GET (post/redirect/get: reloading the next page never re-sends the form). */
export function redirect(reply: FastifyReply, location: string): FastifyReply {
  return reply.code(303).header('cache-control', 'no-store').header('location', location).send();
}

export function currentSession(deps: PortalDeps, request: FastifyRequest): PortalSession | undefined {
  return deps.sessions.get(readCookie(request, SESSION_COOKIE));
}

/** The form fields of a portal post (a form content type only: anything else is the platform's 50035 body). */
export function formFields(request: FastifyRequest): Record<string, string | string[]> {
  return htmlFormBody(request);
}

/** The form carries the session's anti-forgery token (one value, equal in constant time). */
export function csrfMatches(expected: string, fields: Record<string, string | string[]>): boolean {
  const sent = fields.csrf;
  return typeof sent === 'string' && constantTimeEqual(sent, expected);
}
