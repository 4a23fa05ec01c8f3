import type { GatewayStats } from '../../gateway/types.js';
import { html } from '../html.js';
import type { LiveSession } from '../live-sessions.js';
import type { Flash } from '../sessions.js';
import { portalPage } from './layout.js';

export interface SessionsView {
  csrfToken: string;
  flash?: Flash | undefined;
  stats: GatewayStats;
  sessions: Array<LiveSession & { username: string | null; applicationName: string | null }>;
}

export function sessionsPage(view: SessionsView): string {
  return portalPage(
    { title: 'Gateway sessions', csrfToken: view.csrfToken, flash: view.flash, current: 'sessions' },
    html`<p>${view.stats.connections} open connections · ${view.stats.attached} attached sessions · ${view.stats.detached} sessions waiting to be resumed.</p>
<p class="muted">Who holds a gateway session now, per user and application (several sessions of one pair are one row; a dropped
session that can still be resumed keeps its row). Sessions live in memory: a restart ends them all.</p>
${
  view.sessions.length === 0
    ? html`<p>Nobody is connected.</p>`
    : html`<table><thead><tr><th scope="col">User</th><th scope="col">Kind</th><th scope="col">Application</th><th scope="col">Connected since</th></tr></thead><tbody>
${view.sessions.map(
  (session) => html`<tr><td>${session.username ?? '?'} <code>${session.userId}</code></td><td>${session.kind}</td>
<td><a href="/developers/applications/${session.applicationId}">${session.applicationName ?? session.applicationId}</a></td><td>${new Date(session.since).toISOString()}</td></tr>`,
)}</tbody></table>`
}`,
  );
}
