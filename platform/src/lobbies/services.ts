import type { SessionControl } from '../gateway/session-control.js';
import type { ReadsUrls } from '../http/urls.js';
import type { OutboundGuard } from '../outbound/guard.js';
import type { WakesWebhooks } from '../webhooks/waking.js';
import type { LobbyLimits } from './limits.js';

/**
 * What the lobbies area builds on: the kernel and webhook waking (lobby events go to webhooks), the gateway's
 * sessions (members' `connected`), the platform's URL (invite links), the guard an `override_event_webhooks_url`
 * passes, and the lobby limits (the `lobbyLimits` start option).
 */
export interface LobbyServices extends WakesWebhooks, ReadsUrls {
  sessions: SessionControl;
  guard: OutboundGuard;
  limits: LobbyLimits;
}
