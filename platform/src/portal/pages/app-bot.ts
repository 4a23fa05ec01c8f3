import { html } from '../html.js';
import type { LiveSession } from '../live-sessions.js';
import { INTENT_FLAGS, intentGranted, type IntentToggle } from '../intent-settings.js';
import { applicationPage, errorsOf, sectionPath, type SectionView } from './application-chrome.js';
import { csrfInput, errorSummary, fieldId } from './fields.js';

export interface BotView extends SectionView {
  /** Authorized users of the application (the privileged-intent rule counts these). */
  users: number;
  botUsername: string | null;
  /** Whether the bot holds a gateway session now. */
  botSession: LiveSession | undefined;
}

export function botPage(view: BotView): string {
  const { app } = view;
  const errors = errorsOf(view, 'intents');
  const gatewayState = view.botSession
    ? html`connected to the gateway since ${new Date(view.botSession.since).toISOString()}`
    : 'not connected to the gateway';
  const resetButton = html`<button type="submit" class="danger">Reset bot token</button>`;
  const intentRow = (toggle: IntentToggle) => {
    const id = fieldId('intents', toggle);
    const error = errors?.[toggle];
    const checked = intentGranted(app, toggle) ? html` checked` : '';
    const invalid = error ? html` aria-invalid="true" aria-describedby="${id}-error"` : '';
    return html`<p><input type="checkbox" id="${id}" name="${toggle}"${checked}${invalid}>
<label class="inline" for="${id}">${INTENT_FLAGS[toggle].label}</label></p>
${error ? html`<p class="field-error" id="${id}-error">${error}</p>` : ''}`;
  };
  return applicationPage(
    view,
    'bot',
    html`<section aria-labelledby="bot-user-heading"><h2 id="bot-user-heading">Bot user</h2>
<p>Username: <code>${view.botUsername ?? '?'}</code> · id <code>${app.botUserId}</code> ·
${gatewayState}</p>
</section>
<section aria-labelledby="token-heading"><h2 id="token-heading">Token</h2>
<p class="muted">The token is hidden. Resetting it shows the new one once; the old one stops working at once and the bot's
gateway sessions are closed.</p>
<form method="post" action="${sectionPath(app.id, 'bot')}/token">${csrfInput(view.csrfToken)}${resetButton}</form>
</section>
<section aria-labelledby="intents-heading"><h2 id="intents-heading">Privileged gateway intents</h2>
<p class="muted">An application with fewer than 10,000 users switches these on here (the <code>_LIMITED</code> application
flag); from 10,000 users it must apply instead. The application has ${view.users.toLocaleString('en-US')} users. A bot that
identifies with an intent it was not granted is closed with 4014.</p>
${errorSummary('intents', errors)}
<form method="post" action="${sectionPath(app.id, 'bot')}/intents">
${csrfInput(view.csrfToken)}
<fieldset><legend>Intents</legend>
${(Object.keys(INTENT_FLAGS) as IntentToggle[]).map(intentRow)}
</fieldset>
<button type="submit">Save intents</button>
</form>
</section>`,
  );
}
