import type { SessionControl } from '../gateway/session-control.js';
import type { WakesWebhooks } from '../webhooks/waking.js';

/**
 * What ending a user's access needs besides the kernel (a ban, a deauthorization, a revoked or reset credential):
 * the gateway's sessions, to close the ones the access opened, and waking webhook delivery once the events the
 * change queued are committed.
 */
export interface AccessEnding extends WakesWebhooks {
  sessions: SessionControl;
}
