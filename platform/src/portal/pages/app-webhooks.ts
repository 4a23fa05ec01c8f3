import type { OutboxRecord } from '../../store/types.js';
import { html } from '../html.js';
import { applicationPage, errorsOf, sectionPath, type SectionView } from './application-chrome.js';
import { cellsRow, code, columnHeads, csrfInput, errorSummary, textField } from './fields.js';

export interface WebhooksView extends SectionView {
  /** The application's latest queued events, newest first. */
  recent: OutboxRecord[];
}

/** The event type inside a stored envelope (the body is the exact JSON that was signed). */
function eventType(entry: OutboxRecord): string {
  try {
    const body = JSON.parse(entry.body) as { event?: { type?: unknown } };
    return typeof body.event?.type === 'string' ? body.event.type : '?';
  } catch {
    return '?';
  }
}

export function webhooksPage(view: WebhooksView): string {
  const { app } = view;
  const base = sectionPath(app.id, 'webhooks');
  const errors = errorsOf(view, 'webhook');
  const urlField = textField({
    form: 'webhook',
    name: 'webhook_url',
    label: 'Webhook URL',
    type: 'url',
    value: app.webhookUrl ?? '',
    hint: 'http or https; leave empty to send no events.',
    errors,
  });
  const eventRow = (entry: OutboxRecord) =>
    cellsRow(code(entry.id), eventType(entry), entry.status, entry.attempts, entry.lastError ?? '');
  return applicationPage(
    view,
    'webhooks',
    html`<section aria-labelledby="url-heading"><h2 id="url-heading">Events webhook URL</h2>
<p class="muted">Events (APPLICATION_AUTHORIZED, APPLICATION_DEAUTHORIZED, ENTITLEMENT_CREATE, QUEST_USER_ENROLLMENT, lobby events) are posted here, signed with Ed25519:
verify <code>X-Signature-Ed25519</code> over <code>X-Signature-Timestamp</code> followed by the body, with the public key
<code>${app.publicKeyHex}</code>.</p>
${errorSummary('webhook', errors)}
<form method="post" action="${base}/url">
${csrfInput(view.csrfToken)}
${urlField}
<button type="submit">Save webhook URL</button>
</form>
<form method="post" action="${base}/test">
${csrfInput(view.csrfToken)}
<button type="submit" class="secondary"${app.webhookUrl ? '' : html` disabled`}>Send test event</button>
</form>
<p class="muted">The test event is a signed PING (<code>{"version": 1, "application_id": …, "type": 0}</code>), sent once, now.</p>
</section>
<section aria-labelledby="recent-heading"><h2 id="recent-heading">Recent events</h2>
${
  view.recent.length === 0
    ? html`<p>No events queued for this application.</p>`
    : html`<table><thead><tr>${columnHeads('Event id', 'Type', 'Status', 'Attempts', 'Last error')}</tr></thead><tbody>
${view.recent.map(eventRow)}</tbody></table>`
}</section>`,
  );
}
