import type { FastifyRequest } from 'fastify';

/**
 * The `X-Audit-Log-Reason` header: URL-encoded by clients (discord.js encodes it), at most 512 characters once
 * decoded. A value that does not decode is kept as sent.
 */
export function auditReason(request: FastifyRequest): string | null {
  const header = request.headers['x-audit-log-reason'];
  if (typeof header !== 'string' || header === '') return null;
  let reason = header;
  try {
    reason = decodeURIComponent(header);
  } catch {
    // Not percent-encoded after all.
  }
  return reason.slice(0, 512);
}
