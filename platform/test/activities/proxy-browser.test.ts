/**
 * The activity proxy's path form serves a target's pages under the platform's own origin (PROTOCOL.md §18.2), so
 * it must never let them act as the platform: in Debian's Chromium (playwright-core), a page of the target whose
 * script reads `/api/v10/dev/state` (synchronously, so the outcome is in the title once it loaded) reads nothing —
 * for an application without the stricter policy and for one with it whose target redirects to the platform's route
 * (a CSP's path limits do not hold across redirects). The host form, an origin of its own, runs the page as usual.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningPlatform } from '../../src/index.js';
import { createApp, startTestPlatform } from '../support/platform.js';

/** Debian's package (scripts/install-deps.sh); playwright-core downloads no browser of its own. */
const CHROMIUM = '/usr/bin/chromium';
/** Published threshold of the stricter policy: this id and older have none (PROTOCOL.md §18.3). */
const WITHOUT_POLICY = '1263102905548800000';

let platform: RunningPlatform;
let target: http.Server;
let browser: Browser;

/** A page that reads `url` and puts what it got in its title. */
const readingPage = (url: string) =>
  '<!doctype html><title>activity</title><script>let r; ' +
  `try { const x = new XMLHttpRequest(); x.open('GET', ${JSON.stringify(url)}, false); x.send(); ` +
  "r = 'read ' + x.status + ' ' + x.responseText.slice(0, 30); } catch (e) { r = 'blocked ' + e.name; } " +
  "document.title = 'ran: ' + r;</script>";

beforeAll(async () => {
  platform = await startTestPlatform();
  // The activity's own server: its pages, and a redirect to the platform's development state.
  target = http.createServer((req, res) => {
    if (req.url === '/to-state') return void res.writeHead(302, { location: '/api/v10/dev/state' }).end();
    if (req.url === '/own') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('own data');
    // Pages read relative URLs: through the proxy base they were served from (the platform's origin in the path form).
    const reads: Record<string, string> = {
      '/direct': '/api/v10/dev/state',
      '/redirecting': 'to-state',
      '/host-form': 'own',
    };
    res.writeHead(200, { 'content-type': 'text/html' }).end(readingPage(reads[req.url!] ?? '/api/v10/dev/state'));
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  browser = await chromium.launch({ executablePath: CHROMIUM });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await platform?.close();
  await new Promise<void>((resolve) => target?.close(() => resolve()));
});

async function titleOf(url: string): Promise<string> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(url);
    return await page.title();
  } finally {
    await context.close();
  }
}

describe('activity pages in a browser', () => {
  it('a path-form page of an application without the stricter policy cannot read the platform', async () => {
    const mapping = [{ prefix: '/', target: `127.0.0.1:${(target.address() as AddressInfo).port}` }];
    await createApp(platform, { id: WITHOUT_POLICY, name: 'Old Activity', url_mappings: mapping });
    const title = await titleOf(`${platform.httpUrl}/activities/${WITHOUT_POLICY}/direct`);
    expect(title).not.toMatch(/read 200/);
  });

  it('a path-form page of a new application cannot read the platform through a redirect of its target', async () => {
    const app = await createApp(platform, {
      name: 'New Activity',
      url_mappings: [{ prefix: '/', target: `127.0.0.1:${(target.address() as AddressInfo).port}` }],
    });
    const title = await titleOf(`${platform.httpUrl}/activities/${app.id}/redirecting`);
    expect(title).not.toMatch(/read 200/);
  });

  it('a host-form page runs as usual and reads its own proxy', async () => {
    const app = await createApp(platform, {
      name: 'Host Activity',
      url_mappings: [{ prefix: '/', target: `127.0.0.1:${(target.address() as AddressInfo).port}` }],
    });
    const title = await titleOf(`http://${app.id}.activities.localhost:${new URL(platform.httpUrl).port}/host-form`);
    expect(title).toBe('ran: read 200 own data');
  });
});
