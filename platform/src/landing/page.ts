import { html } from '../portal/html.js';
import type { LandingSummary } from './summary.js';

const DATABASE_LABEL: Record<LandingSummary['database'], string> = {
  sqlite: 'SQLite (a file)',
  'sqlite-memory': 'SQLite in memory (nothing is kept after a stop)',
  postgresql: 'PostgreSQL',
};

/**
 * `GET /` for a browser: what is running and where to go next. No script; the portal's stylesheet (served from this
 * origin, so the page's Content-Security-Policy can forbid everything else). An empty icon, so a browser does not ask
 * for /favicon.ico and log its 404 in the console of someone opening the platform for the first time.
 */
export function landingPage(summary: LandingSummary): string {
  const { links } = summary;
  const row = (label: string, value: string, href?: string) => {
    const cell = href ? html`<a href="${href}">${value}</a>` : html`<code>${value}</code>`;
    return html`<tr><th scope="row">${label}</th><td>${cell}</td></tr>`;
  };
  const docs = Object.entries(links.docs).map(
    ([name, href]) => html`<li><a href="${href}">${name}</a> (shipped with this platform)</li>`,
  );
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>svcpp platform ${summary.version}</title>
<link rel="stylesheet" href="/developers/portal.css">
<link rel="icon" href="data:,">
</head><body>
<header><p class="brand">svcpp platform</p></header>
<main id="main">
<h1>svcpp platform ${summary.version}</h1>
<p>The local svcpp platform is running in <strong>${summary.mode}</strong> mode on ${DATABASE_LABEL[summary.database]}.
SDK clients and game servers talk to the API base below; people sign in through the pages linked here.</p>
<table>
${row('Version', summary.version)}
${row('Mode', summary.mode)}
${row('API base', links.api_base)}
${row('Gateway', links.gateway)}
${row('Attachments origin', links.attachments)}
</table>
<h2>Links</h2>
<ul>
<li><a href="${links.portal}">Developer portal</a>: applications, OAuth2 settings, webhooks, gateway sessions</li>
<li><a href="${links.oidc_discovery}">OpenID Connect discovery document</a></li>
${docs}
</ul>
<p>This page as JSON: <code>curl -H 'Accept: application/json' ${links.home}</code></p>
</main>
</body></html>`.text;
}
