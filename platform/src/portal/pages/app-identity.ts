import { ID_TOKEN_AUTH_TYPES } from '../../config/schema.js';
import { html } from '../html.js';
import { applicationPage, errorsOf, sectionPath, type SectionView } from './application-chrome.js';
import { csrfInput, errorSummary, selectField, textField } from './fields.js';

export function identityProvidersPage(view: SectionView): string {
  const { app } = view;
  const base = sectionPath(app.id, 'identity-providers');
  const errors = errorsOf(view, 'provider');
  return applicationPage(
    view,
    'identity-providers',
    html`<p class="muted">OpenID Connect providers whose ID tokens this application exchanges for provisional accounts. The issuer
must use https, carry no query, fragment or user info, and name a public host (no IP address, no .local, .internal,
.arpa or .localhost); it is checked when you save.</p>
<section aria-labelledby="providers-heading"><h2 id="providers-heading">Configured providers</h2>
${
  app.identityProviders.length === 0
    ? html`<p>No identity providers.</p>`
    : html`<table><thead><tr><th scope="col">Type</th><th scope="col">Issuer</th><th scope="col">Client id (audience)</th><th scope="col"><span class="muted">Action</span></th></tr></thead><tbody>
${app.identityProviders.map(
  (
    provider,
  ) => html`<tr><td>${provider.type}</td><td><code>${provider.issuer}</code></td><td><code>${provider.clientId}</code></td>
<td><form class="inline-form" method="post" action="${base}/remove">${csrfInput(view.csrfToken)}<input type="hidden" name="type" value="${provider.type}"><input type="hidden" name="issuer" value="${provider.issuer}">
<button type="submit" class="secondary" aria-label="Remove ${provider.issuer}">Remove</button></form></td></tr>`,
)}</tbody></table>`
}</section>
<section aria-labelledby="add-provider-heading"><h2 id="add-provider-heading">Add an identity provider</h2>
${errorSummary('provider', errors)}
<form method="post" action="${base}">
${csrfInput(view.csrfToken)}
${selectField({ form: 'provider', name: 'type', label: 'Type', value: 'OIDC', choices: ID_TOKEN_AUTH_TYPES.map((type): [string, string] => [type, type]), errors })}
${textField({ form: 'provider', name: 'issuer', label: 'Issuer URL', type: 'url', hint: 'For example https://accounts.example.com', required: true, errors })}
${textField({ form: 'provider', name: 'client_id', label: 'Client id (the audience of the ID tokens)', required: true, errors })}
<button type="submit">Add identity provider</button>
</form></section>`,
  );
}
