import { html } from '../html.js';
import type { DeveloperAccount } from '../account.js';
import { csrfInput, errorSummary, textField } from './fields.js';
import { portalPage } from './layout.js';

/** How to sign in, for the account the platform has (PROTOCOL.md §15). */
function signInHint(account: DeveloperAccount) {
  if (account.kind === 'dev-token') {
    return html`<p class="muted">Development mode: sign in as <code>${account.username}</code> with the dev token the platform printed
at start (new at every start).</p>`;
  }
  if (account.kind === 'configured') return html``;
  return html`<div class="notice error" role="alert"><p>No developer account is configured. Add <code>developer_account</code>
(username and password hash) to the platform's config, or start it in development mode.</p></div>`;
}

export function loginPage(options: { account: DeveloperAccount; loginToken: string; error?: string }): string {
  const errors = options.error ? { password: options.error } : undefined;
  const passwordField = textField({
    form: 'login',
    name: 'password',
    label: 'Password',
    type: 'password',
    autocomplete: 'current-password',
    required: true,
    errors,
  });
  return portalPage(
    { title: 'Sign in' },
    html`${signInHint(options.account)}
${errorSummary('login', errors)}
<form method="post" action="/developers/login">
${csrfInput(options.loginToken)}
${textField({ form: 'login', name: 'username', label: 'Username', autocomplete: 'username', required: true })}
${passwordField}
<button type="submit">Sign in</button>
</form>`,
  );
}

/** A post whose anti-forgery token is missing or wrong: nothing was done. */
export function forgedRequestPage(): string {
  return portalPage(
    { title: 'Request refused' },
    html`<p role="alert">This form was not sent from the portal page you have open (its security token is missing or out of
date), so nothing was changed.</p>
<p><a href="/developers">Back to the portal</a> and send the form again.</p>`,
  );
}

export function notFoundPage(csrfToken: string): string {
  return portalPage(
    { title: 'Not found', csrfToken },
    html`<p>There is no such application. <a href="/developers/applications">All applications</a></p>`,
  );
}
