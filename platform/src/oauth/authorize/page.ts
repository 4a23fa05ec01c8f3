import { escapeHtml, hiddenInputs, page } from '../../http/html.js';
import type { AuthorizeRequest } from './request.js';

/** The consent page: who asks, for what, and a sign-in form that posts the request back. */
export function consentPage(request: AuthorizeRequest, error?: string): string {
  const { app, scopes, params } = request;
  const { svcpp_dev_user: _dev, ...carried } = params;
  return page(
    `Authorize ${app.name}`,
    `<p><strong>${escapeHtml(app.name)}</strong> wants to access your account.</p>
<ul>${scopes.map((scope) => `<li><code>${escapeHtml(scope)}</code></li>`).join('')}</ul>
${error ? `<p class="error">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/oauth2/authorize">
${hiddenInputs(carried)}
<label>Username <input name="username" autocomplete="username" required></label>
<label>Password (if your account has one) <input name="password" type="password" autocomplete="current-password"></label>
<button name="decision" value="authorize" type="submit">Authorize</button>
<button name="decision" value="cancel" type="submit" formnovalidate>Cancel</button>
</form>`,
  );
}

export function authorizeErrorPage(message: string, details: string[]): string {
  return page(
    'Authorization failed',
    `<p class="error">${escapeHtml(message)}</p><ul>${details.map((d) => `<li>${escapeHtml(d)}</li>`).join('')}</ul>`,
  );
}
