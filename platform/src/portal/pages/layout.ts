import { html, type SafeHtml } from '../html.js';
import type { Flash } from '../sessions.js';

export interface Chrome {
  /** The page's <title> and <h1>. */
  title: string;
  /** The signed-in session's form token (the header's sign-out form needs it); absent on the login page. */
  csrfToken?: string;
  flash?: Flash | undefined;
  /** Which top-level entry is the current page's. */
  current?: 'applications' | 'sessions';
}

/** The notice after a form: a success or a failure, and any credential shown this once. */
function flashNotice(flash: Flash | undefined): SafeHtml {
  if (!flash) return html``;
  return html`<div class="notice ${flash.kind}" role="${flash.kind === 'error' ? 'alert' : 'status'}">
<p>${flash.message}</p>
${flash.secrets?.map(
  (secret) => html`<p>${secret.label}: <span class="secret" data-secret="${secret.label}">${secret.value}</span></p>`,
)}
${flash.secrets?.length ? html`<p class="muted">Copy it now: it is not shown again.</p>` : ''}
</div>`;
}

function topNav(chrome: Chrome): SafeHtml {
  if (chrome.csrfToken === undefined) return html``;
  const link = (href: string, label: string, key: Chrome['current']) =>
    html`<li><a href="${href}"${chrome.current === key ? html` aria-current="page"` : ''}>${label}</a></li>`;
  const links = [
    link('/developers/applications', 'Applications', 'applications'),
    link('/developers/sessions', 'Gateway sessions', 'sessions'),
  ];
  const csrf = html`<input type="hidden" name="csrf" value="${chrome.csrfToken}">`;
  return html`<nav aria-label="Portal"><ul>${links}</ul></nav>
<form method="post" action="/developers/logout">${csrf}<button type="submit">Sign out</button></form>`;
}

/**
 * Every portal page: a skip link first (keyboard users jump past the navigation), one <h1>, landmarks (header,
 * nav, main) and no script at all — links, forms and buttons work with Tab and Enter as the browser makes them.
 */
export function portalPage(chrome: Chrome, main: SafeHtml): string {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${chrome.title} · svcpp Developer Portal</title>
<link rel="stylesheet" href="/developers/portal.css">
</head><body>
<a class="skip" href="#main">Skip to main content</a>
<header><p class="brand">svcpp Developer Portal</p>${topNav(chrome)}</header>
<main id="main" tabindex="-1">
<h1>${chrome.title}</h1>
${flashNotice(chrome.flash)}
${main}
</main>
</body></html>`.text;
}
