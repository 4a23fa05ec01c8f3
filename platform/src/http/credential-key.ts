import type { FastifyRequest } from 'fastify';
import { hashToken } from '../crypto/tokens.js';

/**
 * The identity a rate limit counts against: the credential in the Authorization header (one bot, one user token,
 * one Basic client) or, without one, the client IP. Hashed so raw tokens never sit in memory maps.
 */
export function credentialKey(request: FastifyRequest): string {
  const header = request.headers.authorization;
  return header ? `cred:${hashToken(header)}` : `ip:${request.ip}`;
}
