/** `GET /`: the landing page for browsers, its JSON form, and the shipped documents it links to (PROTOCOL.md §2). */
import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningPlatform } from '../../src/index.js';
import { request } from '../support/http.js';
import { startTestPlatform } from '../support/platform.js';

/** The page's own global, in a function Playwright runs in the browser (the platform's tsconfig has no DOM types). */
declare function getComputedStyle(element: unknown): { backgroundColor: string };

const VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

describe('landing page', () => {
  let platform: RunningPlatform;
  beforeAll(async () => {
    platform = await startTestPlatform();
  });
  afterAll(async () => {
    await platform.close();
  });

  it('is an HTML page for a browser: version, mode, and links to the portal, the docs and the OIDC discovery', async () => {
    const response = await request(`${platform.httpUrl}/`, { headers: { accept: BROWSER_ACCEPT } });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['content-security-policy']).toContain("default-src 'none'");
    expect(response.text).toContain(`svcpp platform ${VERSION}`);
    expect(response.text).toContain('<strong>development</strong> mode');
    const links = [...response.text.matchAll(/href="([^"]+)"/g)].map((match) => match[1]);
    expect(links).toEqual(
      expect.arrayContaining([
        `${platform.httpUrl}/developers`,
        `${platform.httpUrl}/.well-known/openid-configuration`,
        `${platform.httpUrl}/docs/README.md`,
        `${platform.httpUrl}/docs/PROTOCOL.md`,
      ]),
    );
  });

  it('every link of the page answers (the stylesheet too)', async () => {
    const page = (await request(`${platform.httpUrl}/`)).text;
    const links = [...page.matchAll(/href="([^"]+)"/g)]
      .map((match) => new URL(match[1]!, `${platform.httpUrl}/`).href)
      .filter((link) => !link.startsWith('data:'));
    for (const link of links) {
      const response = await request(link);
      // The portal sends a visitor who is not signed in to its login page.
      expect({ link, ok: response.status === 200 || response.status === 303 }).toEqual({ link, ok: true });
    }
  });

  it('answers JSON to Accept: application/json, with no database URL in it', async () => {
    const response = await request(`${platform.httpUrl}/`, { headers: { accept: 'application/json' } });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json');
    expect(response.headers.vary).toContain('Accept');
    expect(response.body).toEqual({
      name: 'svcpp-platform',
      version: VERSION,
      mode: 'development',
      database: expect.stringMatching(/^(sqlite-memory|postgresql)$/),
      links: {
        home: `${platform.httpUrl}/`,
        api_base: platform.apiBase,
        gateway: platform.gatewayUrl,
        attachments: platform.attachmentsUrl,
        portal: `${platform.httpUrl}/developers`,
        oidc_discovery: `${platform.httpUrl}/.well-known/openid-configuration`,
        docs: {
          'README.md': `${platform.httpUrl}/docs/README.md`,
          'PROTOCOL.md': `${platform.httpUrl}/docs/PROTOCOL.md`,
        },
      },
    });
    expect(response.text).not.toMatch(/postgres(ql)?:\/\//);
  });

  it('serves the shipped README, PROTOCOL and its pages as text, and nothing else under /docs', async () => {
    const readme = await request(`${platform.httpUrl}/docs/README.md`);
    expect(readme.status).toBe(200);
    expect(readme.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(readme.text).toBe(readFileSync(new URL('../../README.md', import.meta.url), 'utf8'));
    // The design pages PROTOCOL.md indexes are shipped too; nothing else of the package is, however it is spelled.
    const page = await request(`${platform.httpUrl}/docs/protocol/14-bot-api.md`);
    expect(page.status).toBe(200);
    expect(page.text).toBe(readFileSync(new URL('../../protocol/14-bot-api.md', import.meta.url), 'utf8'));
    for (const path of [
      '/docs/package.json',
      '/docs/..%2Fpackage.json',
      '/docs/%2E%2E%2Fpackage.json',
      '/docs/',
      '/docs/protocol/',
      '/docs/protocol/../package.json',
      '/docs/protocol/..%2Fpackage.json',
      '/docs/src/index.ts',
    ]) {
      const response = await request(`${platform.httpUrl}${path}`);
      expect({ path, status: response.status }).toEqual({ path, status: 404 });
    }
  });
});

describe('landing page of a production-like platform', () => {
  it('says so', async () => {
    const platform = await startTestPlatform({ devMode: false });
    try {
      const response = await request(`${platform.httpUrl}/`, { headers: { accept: 'application/json' } });
      expect(response.body).toMatchObject({ mode: 'production' });
    } finally {
      await platform.close();
    }
  });
});

describe('landing page in a browser', () => {
  it('renders in headless Chromium with its stylesheet, no Content-Security-Policy violation, and links that lead on', async () => {
    const platform = await startTestPlatform();
    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
    try {
      const page = await browser.newPage();
      const problems: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(message.text());
      });
      page.on('response', (answer) => {
        if (answer.status() >= 400) problems.push(`${answer.status()} ${answer.url()}`);
      });
      const response = await page.goto(`${platform.httpUrl}/`);
      expect(response?.status()).toBe(200);
      expect(await page.locator('h1').textContent()).toBe(`svcpp platform ${VERSION}`);
      // The portal's stylesheet applied: the header bar has its dark background.
      expect(await page.locator('header').evaluate((header) => getComputedStyle(header).backgroundColor)).toBe(
        'rgb(30, 41, 59)',
      );
      // Everything the page itself asked for loaded (and nothing the CSP refused is logged).
      await page.waitForLoadState('networkidle');
      expect(problems).toEqual([]);
      await page.getByRole('link', { name: 'OpenID Connect discovery document' }).click();
      expect(JSON.parse((await page.locator('body').textContent()) ?? '')).toMatchObject({ issuer: platform.httpUrl });
    } finally {
      await browser.close();
      await platform.close();
    }
  }, 60_000);
});
