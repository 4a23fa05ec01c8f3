import type { ApplicationRecord } from '../../store/types.js';
import type { FieldErrors } from '../forms.js';
import { html, type SafeHtml } from '../html.js';
import type { Flash } from '../sessions.js';
import { portalPage } from './layout.js';

/** The pages of one application, in the order of the public portal's menu. */
export const APPLICATION_SECTIONS = [
  { slug: '', label: 'General information' },
  { slug: 'oauth2', label: 'OAuth2' },
  { slug: 'identity-providers', label: 'Identity providers' },
  { slug: 'webhooks', label: 'Webhooks' },
  { slug: 'bot', label: 'Bot' },
  { slug: 'monetization', label: 'SKUs and entitlements' },
  { slug: 'lobbies', label: 'Lobbies' },
] as const;

export type SectionSlug = (typeof APPLICATION_SECTIONS)[number]['slug'];

export const sectionPath = (appId: string, slug: SectionSlug) =>
  `/developers/applications/${appId}${slug ? `/${slug}` : ''}`;

/** A form of the page that failed validation: which one, and its field errors. */
export interface FailedForm {
  form: string;
  errors: FieldErrors;
}

export interface SectionView {
  app: ApplicationRecord;
  csrfToken: string;
  flash?: Flash | undefined;
  failed?: FailedForm | undefined;
}

/** The errors of `form` when it is the form that failed. */
export const errorsOf = (view: SectionView, form: string): FieldErrors | undefined =>
  view.failed?.form === form ? view.failed.errors : undefined;

export function applicationPage(view: SectionView, slug: SectionSlug, body: SafeHtml): string {
  const section = APPLICATION_SECTIONS.find((entry) => entry.slug === slug)!;
  const item = (entry: (typeof APPLICATION_SECTIONS)[number]) => {
    const current = entry.slug === slug ? html` aria-current="page"` : '';
    return html`<li><a href="${sectionPath(view.app.id, entry.slug)}"${current}>${entry.label}</a></li>`;
  };
  return portalPage(
    {
      title: `${view.app.name} — ${section.label}`,
      csrfToken: view.csrfToken,
      flash: view.flash,
      current: 'applications',
    },
    html`<nav class="sections" aria-label="Application settings"><ul>
${APPLICATION_SECTIONS.map(item)}
</ul></nav>
${body}`,
  );
}
