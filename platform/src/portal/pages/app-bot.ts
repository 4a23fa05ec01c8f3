import { PRIVILEGED_INTENTS } from '../../gateway/protocol.js';
import { html } from '../html.js';
import type { LiveSession } from '../live-sessions.js';
import { applicationPage, sectionPath, type SectionView } from './application-chrome.js';
import { csrfInput } from './fields.js';

export interface BotView extends SectionView {
  botUsername: string | null;
  /** Whether the bot holds a gateway session now. */
  botSession: LiveSession | undefined;
}

const INTENT_NAMES: Record<number, string> = { [1 << 1]: 'Server members (GUILD_MEMBERS)', [1 << 8]: 'Presence (GUILD_PRESENCES)', [1 << 15]: 'Message content (MESSAGE_CONTENT)' };

export function botPage(view: BotView): string {
  const { app } = view;
  return applicationPage(
    view,
    'bot',
    html`<section aria-labelledby="bot-user-heading"><h2 id="bot-user-heading">Bot user</h2>
<p>Username: <code>${view.botUsername ?? '?'}</code> · id <code>${app.botUserId}</code> ·
${view.botSession ? html`connected to the gateway since ${new Date(view.botSession.since).toISOString()}` : 'not connected to the gateway'}</p>
</section>
<section aria-labelledby="token-heading"><h2 id="token-heading">Token</h2>
<p class="muted">The token is hidden. Resetting it shows the new one once; the old one stops working at once and the bot's
gateway sessions are closed.</p>
<form method="post" action="${sectionPath(app.id, 'bot')}/token">${csrfInput(view.csrfToken)}<button type="submit" class="danger">Reset bot token</button></form>
</section>
<section aria-labelledby="intents-heading"><h2 id="intents-heading">Privileged gateway intents</h2>
<p>This platform does not yet let an application be granted privileged intents: applications have no flags, so a bot
that identifies with one of these is closed with 4014 (disallowed intents). Shown here for reference.</p>
<table><thead><tr><th scope="col">Intent</th><th scope="col">Bit</th><th scope="col">Granted</th></tr></thead><tbody>
${PRIVILEGED_INTENTS.map((entry) => html`<tr><td>${INTENT_NAMES[entry.intent] ?? String(entry.intent)}</td><td><code>1 &lt;&lt; ${Math.log2(entry.intent)}</code></td><td>no</td></tr>`)}
</tbody></table>
</section>`,
  );
}
