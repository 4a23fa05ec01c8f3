import { html, type SafeHtml } from '../html.js';
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

/** The hidden anti-forgery field every form posts. */
export const csrfInput = (token: string) => html`<input type="hidden" name="csrf" value="${token}">`;

/** A labelled input; its error (if any) is tied to it with aria-describedby and marks it aria-invalid. */
export function textField(options: FieldOptions): SafeHtml {
  const id = fieldId(options.form, options.name);
  const error = options.errors?.[options.name];
  const described = [options.hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return html`<label for="${id}">${options.label}</label>
${options.hint ? html`<p class="muted" id="${id}-hint">${options.hint}</p>` : ''}
<input id="${id}" name="${options.name}" type="${options.type ?? 'text'}"${options.value !== undefined ? html` value="${options.value}"` : ''}${
    options.autocomplete ? html` autocomplete="${options.autocomplete}"` : ''
  }${options.required ? html` required` : ''}${error ? html` aria-invalid="true"` : ''}${described ? html` aria-describedby="${described}"` : ''}>
${error ? html`<p class="field-error" id="${id}-error">${error}</p>` : ''}`;
}

/** A labelled <select>; options are [value, label]. */
export function selectField(
  options: Omit<FieldOptions, 'type' | 'autocomplete'> & { choices: Array<[string, string]> },
): SafeHtml {
  const id = fieldId(options.form, options.name);
  const error = options.errors?.[options.name];
  return html`<label for="${id}">${options.label}</label>
<select id="${id}" name="${options.name}"${error ? html` aria-invalid="true" aria-describedby="${id}-error"` : ''}>
${options.choices.map(([value, label]) => html`<option value="${value}"${value === options.value ? html` selected` : ''}>${label}</option>`)}
</select>
${error ? html`<p class="field-error" id="${id}-error">${error}</p>` : ''}`;
}

/**
 * The summary at the top of a form that failed: announced by screen readers (role=alert), each problem a link to
 * its field so a keyboard user gets there with one Enter.
 */
export function errorSummary(form: string, errors: FieldErrors | undefined): SafeHtml {
  if (!errors || Object.keys(errors).length === 0) return html``;
  return html`<div class="notice error" role="alert" id="${form}-errors">
<p>Nothing was changed. Please correct the following:</p>
<ul>${Object.entries(errors).map(([name, message]) => html`<li><a href="#${fieldId(form, name)}">${message}</a></li>`)}</ul>
</div>`;
}
