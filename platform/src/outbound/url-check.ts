/**
 * Configuration-time checks of destinations set over HTTP (PROTOCOL.md §7 "Outbound requests"): the same guard
 * as at send time, so a URL the platform would never send to is refused where it is set, with a field error that
 * says why. The send-time check stays (a name may resolve elsewhere later; a URL may predate this check).
 */
import { fieldError } from '../http/errors.js';
import type { OutboundGuard } from './guard.js';

/** OURS: the field error code of a refused destination. */
export const URL_DESTINATION_REFUSED = 'URL_DESTINATION_REFUSED';

/** 50035 at `path` when the guard refuses `url`; nothing for null or undefined (a cleared or unchanged field). */
export async function assertOutboundUrl(
  guard: OutboundGuard,
  path: ReadonlyArray<string | number>,
  url: string | null | undefined,
): Promise<void> {
  if (!url) return;
  const problem = await guard.problem(url);
  if (problem) throw fieldError(path, URL_DESTINATION_REFUSED, problem);
}
