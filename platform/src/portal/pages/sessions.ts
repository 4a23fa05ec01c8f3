import type { GatewayStats } from '../../gateway/types.js';
import { html } from '../html.js';
import type { LiveSession } from '../live-sessions.js';
import type { Flash } from '../sessions.js';
import { cells, columnHeads } from './fields.js';
import { portalPage } from './layout.js';

export interface SessionsView {
  csrfToken: string;
  flash?: Flash | undefined;
  stats: GatewayStats;
  sessions: Array<LiveSession & { username: string | null; applicationName: string | null }>;
}

export function sessionsPage(view: SessionsView): string {
  const { connections, attached, detached } = view.stats;
  const counts = [
    `${connections} open connections`,
    `${attached} attached sessions`,
    `${detached} sessions waiting to be resumed`,
  ].join(' · ');
  const heads = columnHeads('User', 'Kind', 'Application', 'Connected since');
  const row = (session: SessionsView['sessions'][number]) => {
    const application = session.applicationName ?? session.applicationId;
    const since = new Date(session.since).toISOString();
    return html`<tr><td>${session.username ?? '?'} <code>${session.userId}</code></td><td>${session.kind}</td>
<td><a href="/developers/applications/${session.applicationId}">${application}</a></td>${cells(since)}</tr>`;
  };
  return portalPage(
    { title: 'Gateway sessions', csrfToken: view.csrfToken, flash: view.flash, current: 'sessions' },
    html`<p>${counts}.</p>
<p class="muted">Who holds a gateway session now, per user and application (several sessions of one pair are one row; a dropped
session that can still be resumed keeps its row). Sessions live in memory: a restart ends them all.</p>
${
  view.sessions.length === 0
    ? html`<p>Nobody is connected.</p>`
    : html`<table><thead><tr>${heads}</tr></thead><tbody>
${view.sessions.map(row)}</tbody></table>`
}`,
  );
}
