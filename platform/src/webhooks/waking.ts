import type { PlatformKernel } from '../kernel.js';

/**
 * The kernel and a way to wake webhook delivery: what a change that queues webhook events takes (the outbox entries
 * are written in its transaction; waking after the commit sends them now instead of at the deliverer's next poll).
 */
export interface WakesWebhooks extends PlatformKernel {
  wakeWebhooks(): void;
}
