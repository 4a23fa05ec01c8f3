import { html } from '../html.js';
import { applicationPage, errorsOf, sectionPath, type SectionView } from './application-chrome.js';
import { csrfInput, errorSummary, hiddenInput, textField } from './fields.js';

export function oauth2Page(view: SectionView): string {
  const { app } = view;
  const base = sectionPath(app.id, 'oauth2');
  const redirectErrors = errorsOf(view, 'redirect');
  const resetButton = html`<button type="submit" class="danger">Reset client secret</button>`;
  const checked = app.publicClient ? html` checked` : '';
  const removeFields = (uri: string) => [csrfInput(view.csrfToken), hiddenInput('redirect_uri', uri)];
  const uriField = textField({
    form: 'redirect',
    name: 'redirect_uri',
    label: 'New redirect URI',
    hint: 'Absolute, without a fragment. http://127.0.0.1 URIs match any port (native apps).',
    required: true,
    errors: redirectErrors,
  });
  return applicationPage(
    view,
    'oauth2',
    html`<section aria-labelledby="client-heading"><h2 id="client-heading">Client information</h2>
<p>Client id: <code>${app.id}</code></p>
<p>Client secret: <span class="muted">hidden. Resetting it shows the new one once; the old one stops working at once.</span></p>
<form method="post" action="${base}/client-secret">${csrfInput(view.csrfToken)}${resetButton}</form>
</section>
<section aria-labelledby="public-heading"><h2 id="public-heading">Public client</h2>
<form method="post" action="${base}/public-client">
${csrfInput(view.csrfToken)}
<p><input type="checkbox" id="public-client" name="public_client"${checked} aria-describedby="public-client-hint">
<label class="inline" for="public-client">Public client</label></p>
<p class="muted" id="public-client-hint">Games that cannot keep a secret use PKCE instead of the client secret (token, provisional-account and child-token endpoints).</p>
<button type="submit">Save</button>
</form></section>
<section aria-labelledby="redirects-heading"><h2 id="redirects-heading">Redirect URIs</h2>
${
  app.redirectUris.length === 0
    ? html`<p>No redirect URIs.</p>`
    : html`<ul>${app.redirectUris.map(
        (uri) => html`<li><code>${uri}</code>
<form class="inline-form" method="post" action="${base}/redirect-uris/remove">${removeFields(uri)}
<button type="submit" class="secondary" aria-label="Remove ${uri}">Remove</button></form></li>`,
      )}</ul>`
}
${errorSummary('redirect', redirectErrors)}
<form method="post" action="${base}/redirect-uris">
${csrfInput(view.csrfToken)}
${uriField}
<button type="submit">Add redirect URI</button>
</form></section>`,
  );
}
