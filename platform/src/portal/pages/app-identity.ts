import { ID_TOKEN_AUTH_TYPES } from '../../config/schema.js';
import type { IdentityProviderConfig } from '../../store/types.js';
import { html } from '../html.js';
import { applicationPage, errorsOf, sectionPath, type SectionView } from './application-chrome.js';
import { csrfInput, errorSummary, hiddenInput, selectField, textField } from './fields.js';

export function identityProvidersPage(view: SectionView): string {
  const { app } = view;
  const base = sectionPath(app.id, 'identity-providers');
  const errors = errorsOf(view, 'provider');
  const removeFields = (provider: IdentityProviderConfig) => [
    csrfInput(view.csrfToken),
    hiddenInput('type', provider.type),
    hiddenInput('issuer', provider.issuer),
  ];
  const codeCell = (value: string) => html`<td><code>${value}</code></td>`;
  const providerRow = (provider: IdentityProviderConfig) =>
    html`<tr><td>${provider.type}</td>${codeCell(provider.issuer)}${codeCell(provider.clientId)}
<td><form class="inline-form" method="post" action="${base}/remove">${removeFields(provider)}
<button type="submit" class="secondary" aria-label="Remove ${provider.issuer}">Remove</button></form></td></tr>`;
  const headers = ['Type', 'Issuer', 'Client id (audience)'].map((label) => html`<th scope="col">${label}</th>`);
  const typeField = selectField({
    form: 'provider',
    name: 'type',
    label: 'Type',
    value: 'OIDC',
    choices: ID_TOKEN_AUTH_TYPES.map((type): [string, string] => [type, type]),
    errors,
  });
  const issuerField = textField({
    form: 'provider',
    name: 'issuer',
    label: 'Issuer URL',
    type: 'url',
    hint: 'For example https://accounts.example.com',
    required: true,
    errors,
  });
  const clientIdField = textField({
    form: 'provider',
    name: 'client_id',
    label: 'Client id (the audience of the ID tokens)',
    required: true,
    errors,
  });
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
    : html`<table><thead><tr>${headers}<th scope="col"><span class="muted">Action</span></th></tr></thead><tbody>
${app.identityProviders.map(providerRow)}</tbody></table>`
}</section>
<section aria-labelledby="add-provider-heading"><h2 id="add-provider-heading">Add an identity provider</h2>
${errorSummary('provider', errors)}
<form method="post" action="${base}">
${csrfInput(view.csrfToken)}
${typeField}
${issuerField}
${clientIdField}
<button type="submit">Add identity provider</button>
</form></section>`,
  );
}
