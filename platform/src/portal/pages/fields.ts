import { html, type HtmlValue, type SafeHtml } from '../html.js';
import type { FieldErrors } from '../forms.js';

export interface FieldOptions {
  /** Form-unique prefix of the element ids (a page can hold several forms with the same field names). */
  form: string;
  name: string;
  label: string;
  type?: 'text' | 'url' | 'password';
  value?: string;
  hint?: string;
  autocomplete?: string;
  required?: boolean;
  errors?: FieldErrors | undefined;
}

export const fieldId = (form: string, name: string) => `${form}-${name.replace(/_/g, '-')}`;

/** A table's column headings, one `<th scope="col">` each. */
export const columnHeads = (...labels: HtmlValue[]) => labels.map((label) => html`<th scope="col">${label}</th>`);

/** Data cells, one `<td>` each, with nothing between them. */
export const cells = (...values: HtmlValue[]) => values.map((value) => html`<td>${value}</td>`);

/** A table row of data cells. */
export const cellsRow = (...values: HtmlValue[]) => html`<tr>${cells(...values)}</tr>`;

export const code = (value: HtmlValue) => html`<code>${value}</code>`;

/** A hidden form field. */
export const hiddenInput = (name: string, value: string) => html`<input type="hidden" name="${name}" value="${value}">`;

/** The hidden anti-forgery field every form posts. */
export const csrfInput = (token: string) => html`<input type="hidden" name="csrf" value="${token}">`;

/** A labelled input; its error (if any) is tied to it with aria-describedby and marks it aria-invalid. */
export function textField(options: FieldOptions): SafeHtml {
  const id = fieldId(options.form, options.name);
  const error = options.errors?.[options.name];
  const described = [options.hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  const attributes = [
    options.value !== undefined ? html` value="${options.value}"` : '',
    options.autocomplete ? html` autocomplete="${options.autocomplete}"` : '',
    options.required ? html` required` : '',
    error ? html` aria-invalid="true"` : '',
    described ? html` aria-describedby="${described}"` : '',
  ];
  return html`<label for="${id}">${options.label}</label>
${options.hint ? html`<p class="muted" id="${id}-hint">${options.hint}</p>` : ''}
<input id="${id}" name="${options.name}" type="${options.type ?? 'text'}"${attributes}>
${error ? html`<p class="field-error" id="${id}-error">${error}</p>` : ''}`;
}

/** A labelled <select>; options are [value, label]. */
export function selectField(
  options: Omit<FieldOptions, 'type' | 'autocomplete'> & { choices: Array<[string, string]> },
): SafeHtml {
  const id = fieldId(options.form, options.name);
  const error = options.errors?.[options.name];
  const option = ([value, label]: [string, string]) =>
    html`<option value="${value}"${value === options.value ? html` selected` : ''}>${label}</option>`;
  return html`<label for="${id}">${options.label}</label>
<select id="${id}" name="${options.name}"${error ? html` aria-invalid="true" aria-describedby="${id}-error"` : ''}>
${options.choices.map(option)}
</select>
${error ? html`<p class="field-error" id="${id}-error">${error}</p>` : ''}`;
}

/**
 * The summary at the top of a form that failed: announced by screen readers (role=alert), each problem a link to
 * its field so a keyboard user gets there with one Enter.
 */
export function errorSummary(form: string, errors: FieldErrors | undefined): SafeHtml {
  if (!errors || Object.keys(errors).length === 0) return html``;
  const items = Object.entries(errors).map(
    ([name, message]) => html`<li><a href="#${fieldId(form, name)}">${message}</a></li>`,
  );
  return html`<div class="notice error" role="alert" id="${form}-errors">
<p>Nothing was changed. Please correct the following:</p>
<ul>${items}</ul>
</div>`;
}
