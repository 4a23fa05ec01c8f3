import type { ApplicationRecord } from '../../store/types.js';
import { html } from '../html.js';
import { applicationPage, errorsOf, sectionPath, type SectionView } from './application-chrome.js';
import { parentChoices } from './applications.js';
import { csrfInput, errorSummary, selectField } from './fields.js';

export interface GeneralView extends SectionView {
  applications: ApplicationRecord[];
  ownerName: string | null;
}

export function generalPage(view: GeneralView): string {
  const { app } = view;
  const children = view.applications.filter((other) => other.parentId === app.id);
  const parent = view.applications.find((other) => other.id === app.parentId);
  const errors = errorsOf(view, 'parent');
  const childItem = (child: ApplicationRecord) =>
    html`<li><a href="${sectionPath(child.id, '')}">${child.name}</a> <code>${child.id}</code></li>`;
  const parentField = selectField({
    form: 'parent',
    name: 'parent_id',
    label: 'Parent application',
    value: app.parentId ?? '',
    choices: parentChoices(view.applications, app.id),
    errors,
  });
  return applicationPage(
    view,
    '',
    html`<section aria-labelledby="ids-heading"><h2 id="ids-heading">Identifiers</h2>
<table><tbody>
<tr><th scope="row">Application id (client id)</th><td><code data-field="application-id">${app.id}</code></td></tr>
<tr><th scope="row">Public key (webhook signatures)</th><td><code>${app.publicKeyHex}</code></td></tr>
<tr><th scope="row">Bot user id</th><td><code>${app.botUserId}</code></td></tr>
<tr><th scope="row">Owner</th><td>${view.ownerName ?? html`<span class="muted">none</span>`}</td></tr>
<tr><th scope="row">Created</th><td>${new Date(app.createdAt).toISOString()}</td></tr>
</tbody></table></section>
<section aria-labelledby="family-heading"><h2 id="family-heading">Parent and child applications</h2>
<p class="muted">A child application shares its parent's account links (publisher-level linking). One level only: a
parent cannot be a child, and a child cannot be a parent.</p>
${parent ? html`<p>Parent: <a href="${sectionPath(parent.id, '')}">${parent.name}</a></p>` : ''}
${children.length > 0 ? html`<h3>Children</h3><ul>${children.map(childItem)}</ul>` : ''}
${errorSummary('parent', errors)}
<form method="post" action="${sectionPath(app.id, '')}/parent">
${csrfInput(view.csrfToken)}
${parentField}
<button type="submit">Save parent</button>
</form></section>`,
  );
}
