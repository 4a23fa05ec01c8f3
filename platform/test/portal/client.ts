/** A browser-like HTTP client for the developer portal's tests: a cookie jar, forms with their anti-forgery token. */
import { expect } from 'vitest';
import type { RunningPlatform } from '../../src/index.js';
import { request, type TestResponse } from '../support/http.js';

export class PortalClient {
  readonly cookies = new Map<string, string>();
  /** Every Set-Cookie header received, as sent (attribute checks). */
  readonly setCookies: string[] = [];

  /** Where requests go: the platform's URL unless told otherwise (a platform advertising a publicUrl). */
  readonly base: string;

  constructor(
    readonly platform: RunningPlatform,
    private readonly ca?: string,
    base?: string,
  ) {
    this.base = base ?? platform.httpUrl;
  }

  private remember(response: TestResponse): TestResponse {
    const header = response.headers['set-cookie'] ?? [];
    for (const line of header) {
      this.setCookies.push(line);
      const [pair, ...attributes] = line.split(';');
      const [name, value] = [pair!.slice(0, pair!.indexOf('=')).trim(), pair!.slice(pair!.indexOf('=') + 1).trim()];
      if (attributes.some((attribute) => attribute.trim().toLowerCase() === 'max-age=0')) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    return { ...(cookie && { cookie }), ...extra };
  }

  async get(path: string): Promise<TestResponse> {
    return this.remember(
      await request(`${this.base}${path}`, { headers: this.headers(), ...(this.ca && { ca: this.ca }) }),
    );
  }

  /** Posts a form as it is (no token added). */
  async postRaw(
    path: string,
    form: Record<string, string>,
    headers: Record<string, string> = {},
  ): Promise<TestResponse> {
    return this.remember(
      await request(`${this.base}${path}`, { form, headers: this.headers(headers), ...(this.ca && { ca: this.ca }) }),
    );
  }

  /** Opens `page`, then posts `form` to `action` with the page's anti-forgery token, like a browser would. */
  async submit(page: string, action: string, form: Record<string, string> = {}): Promise<TestResponse> {
    const opened = await this.get(page);
    expect(opened.status, opened.text.slice(0, 300)).toBe(200);
    return this.postRaw(action, { csrf: csrfToken(opened.text), ...form });
  }

  async signIn(username: string, password: string): Promise<TestResponse> {
    const page = await this.get('/developers/login');
    expect(page.status).toBe(200);
    return this.postRaw('/developers/login', { csrf: csrfToken(page.text), username, password });
  }

  /** Signs in as the development-mode account; fails the test unless it works. */
  async signInAsDeveloper(): Promise<void> {
    const response = await this.signIn('developer', this.platform.devToken);
    expect([response.status, response.headers.location]).toEqual([303, '/developers/applications']);
  }
}

export function csrfToken(html: string): string {
  const match = /name="csrf" value="([^"]+)"/.exec(html);
  expect(match, 'the page has a form with an anti-forgery token').toBeTruthy();
  return match![1]!;
}

/** The text of the page's field error for `id` (e.g. "provider-issuer"), or undefined. */
export function fieldError(html: string, id: string): string | undefined {
  const text = new RegExp(`<p class="field-error" id="${id}-error">([^<]*)</p>`).exec(html)?.[1];
  return text === undefined ? undefined : unescapeHtml(text);
}

function unescapeHtml(text: string): string {
  const entities: Record<string, string> = { '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&amp;': '&' };
  return text.replace(/&(lt|gt|quot|#39|amp);/g, (entity) => entities[entity]!);
}

/** The credentials a page shows once (label → value). */
export function shownSecrets(html: string): Record<string, string> {
  return Object.fromEntries(
    [...html.matchAll(/data-secret="([^"]+)">([^<]+)</g)].map((match) => [match[1]!, match[2]!]),
  );
}
