import { z } from 'zod';
import type { PlatformKernel } from '../../kernel.js';
import { hashToken } from '../../crypto/tokens.js';
import { OAuthError } from '../../http/errors.js';
import { isBanned } from '../../accounts/bans.js';
import type { DeviceCodeRecord, UserRecord } from '../../store/types.js';
import type { AuthenticatedClient } from '../client-auth.js';
import { invalidGrant, parseOAuthForm } from './form.js';

export const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

export const deviceCodeSchema = z.object({
  device_code: z.string().min(1).max(256),
});

/** RFC 8628 §3.5: increase the interval by 5 s on every too-early poll. */
const SLOW_DOWN_STEP_SECONDS = 5;

/**
 * Polls a device code. Pending → authorization_pending (or slow_down when polled faster than the interval),
 * denied → access_denied, expired → expired_token; an approved code is returned for redemption.
 */
export function checkDeviceCode(
  ctx: PlatformKernel,
  client: AuthenticatedClient,
  form: Record<string, string | string[]>,
): { record: DeviceCodeRecord; user: UserRecord } {
  const fields = parseOAuthForm(deviceCodeSchema, form);
  const record = ctx.store.deviceCodes.findByHash(hashToken(fields.device_code));
  if (!record || record.applicationId !== client.app.id || record.status === 'redeemed')
    throw invalidGrant('device_code');
  const now = ctx.now();
  if (record.expiresAt <= now) throw new OAuthError(400, 'expired_token', 'The device code has expired.');
  if (record.status === 'denied') throw new OAuthError(400, 'access_denied', 'The user denied the request.');
  if (record.status === 'pending') {
    const tooEarly = record.lastPollAt !== null && now - record.lastPollAt < record.intervalSeconds * 1000;
    ctx.store.deviceCodes.update({
      ...record,
      lastPollAt: now,
      intervalSeconds: tooEarly ? record.intervalSeconds + SLOW_DOWN_STEP_SECONDS : record.intervalSeconds,
    });
    if (tooEarly) throw new OAuthError(400, 'slow_down', 'Polling too fast; increase the interval by 5 seconds.');
    throw new OAuthError(400, 'authorization_pending', 'The user has not approved the request yet.');
  }
  const user = record.userId ? ctx.store.users.get(record.userId) : undefined;
  if (!user || isBanned(user, now)) throw invalidGrant('device_code');
  return { record, user };
}
