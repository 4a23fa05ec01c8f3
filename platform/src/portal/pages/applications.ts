import type { ApplicationRecord } from '../../store/types.js';
import type { FieldErrors } from '../forms.js';
import { html } from '../html.js';
import type { Flash } from '../sessions.js';
import { csrfInput, errorSummary, selectField, textField } from './fields.js';
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
  const rows = view.applications.map(
    (
      app,
    ) => html`<tr><td><a href="/developers/applications/${app.id}">${app.name}</a></td><td><code>${app.id}</code></td>
<td>${app.parentId ? (names.get(app.parentId) ?? app.parentId) : html`<span class="muted">—</span>`}</td><td>${app.publicClient ? 'yes' : 'no'}</td></tr>`,
  );
  return portalPage(
    { title: 'Applications', csrfToken: view.csrfToken, flash: view.flash, current: 'applications' },
    html`<section aria-labelledby="create-heading">
<h2 id="create-heading">Create an application</h2>
${errorSummary('create', view.errors)}
<form method="post" action="/developers/applications">
${csrfInput(view.csrfToken)}
${textField({ form: 'create', name: 'name', label: 'Name', hint: '2 to 64 characters; must be new.', required: true, errors: view.errors })}
${selectField({ form: 'create', name: 'parent_id', label: 'Parent application', value: '', choices: parentChoices(view.applications), errors: view.errors })}
<button type="submit">Create application</button>
</form>
</section>
<section aria-labelledby="list-heading">
<h2 id="list-heading">Your applications</h2>
${
  view.applications.length === 0
    ? html`<p>No applications yet.</p>`
    : html`<table><caption class="muted">${view.applications.length === 1 ? '1 application' : `${view.applications.length} applications`}</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Application id</th><th scope="col">Parent</th><th scope="col">Public client</th></tr></thead>
<tbody>${rows}</tbody></table>`
}
</section>`,
  );
}
