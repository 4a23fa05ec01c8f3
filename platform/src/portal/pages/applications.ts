import type { ApplicationRecord } from '../../store/types.js';
import type { FieldErrors } from '../forms.js';
import { html } from '../html.js';
import type { Flash } from '../sessions.js';
import { cells, columnHeads, csrfInput, errorSummary, selectField, textField } from './fields.js';
import { portalPage } from './layout.js';

export interface ApplicationsView {
  applications: ApplicationRecord[];
  csrfToken: string;
  flash?: Flash | undefined;
  errors?: FieldErrors | undefined;
}

/** Applications that may be chosen as a parent: those that are not children themselves. */
export function parentChoices(applications: ApplicationRecord[], selfId?: string): Array<[string, string]> {
  return [
    ['', 'None'],
    ...applications
      .filter((app) => app.parentId === null && app.id !== selfId)
      .map((app): [string, string] => [app.id, `${app.name} (${app.id})`]),
  ];
}

export function applicationsPage(view: ApplicationsView): string {
  const names = new Map(view.applications.map((app) => [app.id, app.name]));
  const rows = view.applications.map((app) => {
    const parent = app.parentId ? (names.get(app.parentId) ?? app.parentId) : html`<span class="muted">—</span>`;
    return html`<tr><td><a href="/developers/applications/${app.id}">${app.name}</a></td><td><code>${app.id}</code></td>
${cells(parent, app.publicClient ? 'yes' : 'no')}</tr>`;
  });
  const nameField = textField({
    form: 'create',
    name: 'name',
    label: 'Name',
    hint: '2 to 64 characters; must be new.',
    required: true,
    errors: view.errors,
  });
  const parentField = selectField({
    form: 'create',
    name: 'parent_id',
    label: 'Parent application',
    value: '',
    choices: parentChoices(view.applications),
    errors: view.errors,
  });
  const count = view.applications.length === 1 ? '1 application' : `${view.applications.length} applications`;
  const heads = columnHeads('Name', 'Application id', 'Parent', 'Public client');
  return portalPage(
    { title: 'Applications', csrfToken: view.csrfToken, flash: view.flash, current: 'applications' },
    html`<section aria-labelledby="create-heading">
<h2 id="create-heading">Create an application</h2>
${errorSummary('create', view.errors)}
<form method="post" action="/developers/applications">
${csrfInput(view.csrfToken)}
${nameField}
${parentField}
<button type="submit">Create application</button>
</form>
</section>
<section aria-labelledby="list-heading">
<h2 id="list-heading">Your applications</h2>
${
  view.applications.length === 0
    ? html`<p>No applications yet.</p>`
    : html`<table><caption class="muted">${count}</caption>
<thead><tr>${heads}</tr></thead>
<tbody>${rows}</tbody></table>`
}
</section>`,
  );
}
