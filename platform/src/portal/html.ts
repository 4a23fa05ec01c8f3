import { escapeHtml } from '../http/html.js';

/**
 * Markup that is already safe to send. The portal builds every page with the `html` tag below, which escapes each
 * interpolated value unless it is SafeHtml itself — so a value from the database (an application name, a redirect
 * URI) can never become markup, and nothing has to remember to call escapeHtml.
 */
export class SafeHtml {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

export type HtmlValue = SafeHtml | string | number | boolean | null | undefined | readonly HtmlValue[];

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

/**
 * Tagged template: literal parts are kept, interpolations are escaped (arrays are joined, false/null/undefined
 * dropped).
 */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0]!;
  values.forEach((value, index) => {
    out += render(value) + strings[index + 1]!;
  });
  return new SafeHtml(out);
}
