/**
 * Uploaded files can never script the platform (PROTOCOL.md §14.4 "Attachment files"), in Debian's Chromium driven
 * by playwright-core: a bot uploads pages whose script reads a same-origin route (`/api/v10/dev/state`, with a
 * synchronous request, so its outcome is in the title once the page has loaded) and opens them as a user would,
 * at the `url` the message carries. The files live on an origin of their own; types a browser runs or renders
 * actively are downloads, everything is sandboxed and never sniffed.
 */
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../support/http.js';
import { botMultipart } from '../bot/helpers.js';
import { startBotPlatform, type BotFixture } from '../bot/fixture.js';

/** Debian's package (scripts/install-deps.sh); playwright-core downloads no browser of its own. */
const CHROMIUM = '/usr/bin/chromium';

let f: BotFixture;
let browser: Browser;

beforeAll(async () => {
  f = await startBotPlatform();
  browser = await chromium.launch({ executablePath: CHROMIUM });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await f?.platform.close();
});

/** A script that reads the platform's dev state from wherever the page is served, and says what it got in the title. */
function readingScript(): string {
  const platform = JSON.stringify(f.platform.httpUrl);
  return (
    'let result; try { const x = new XMLHttpRequest(); ' +
    `x.open('GET', ${platform} + '/api/v10/dev/state', false); x.send(); ` +
    `result = 'read ' + x.status + ' ' + x.responseText.slice(0, 30); } catch (e) { result = 'blocked ' + e.name; } ` +
    `document.title = 'ran: ' + result;`
  );
}

const PAGES = {
  html: () => `<!doctype html><title>upload</title><script>${readingScript()}</script><p>hello</p>`,
  svg: () => `<svg xmlns="http://www.w3.org/2000/svg"><title>upload</title><script>${readingScript()}</script></svg>`,
  xhtml: () =>
    '<html xmlns="http://www.w3.org/1999/xhtml"><head><title>upload</title>' +
    `<script>${readingScript()}</script></head><body/></html>`,
};

/** Uploads one file as the bot and returns its attachment object. */
async function upload(
  filename: string,
  type: string,
  body: string,
): Promise<{ url: string; proxy_url: string; filename: string }> {
  const response = await botMultipart(f, 'POST', `/channels/${f.generalId}/messages`, [
    { name: 'payload_json', body: JSON.stringify({ content: filename }) },
    { name: 'files[0]', filename, type, body },
  ]);
  expect(response.status, response.text).toBe(200);
  return response.body.attachments[0];
}

/**
 * Opens `url` in a fresh browser context (no cookies): the page's title once loaded, and whether the browser saved
 * the answer as a download instead of showing it.
 */
async function open(url: string): Promise<{ title: string; download: boolean }> {
  const context = await browser.newContext({ acceptDownloads: true });
  try {
    const page = await context.newPage();
    let download = false;
    await page.goto(url).catch((error: Error) => {
      if (!/Download is starting/.test(error.message)) throw error;
      download = true;
    });
    return { title: await page.title(), download };
  } finally {
    await context.close();
  }
}

describe('uploaded files in a browser', () => {
  it('an uploaded HTML page never runs as a page of the platform: it is a download from another origin', async () => {
    const attachment = await upload('x.html', 'text/html', PAGES.html());
    const { title, download } = await open(attachment.url);
    // The script neither ran nor read anything (the attack: "ran: read 200 {…dev state…}").
    expect(title).not.toMatch(/^ran/);
    expect(download).toBe(true);
    expect(new URL(attachment.url).origin).not.toBe(new URL(f.platform.httpUrl).origin);
    expect(attachment.proxy_url).toBe(attachment.url);
  });

  it("the platform's own origin no longer serves the file at all", async () => {
    const attachment = await upload('y.html', 'text/html', PAGES.html());
    const onPlatform = `${f.platform.httpUrl}${new URL(attachment.url).pathname}`;
    expect((await request(onPlatform)).status).toBe(404);
    expect(await open(onPlatform)).toEqual({ title: '', download: false });
  });

  it('SVG, XHTML and XML pages with scripts are downloads too', async () => {
    for (const [filename, type, body] of [
      ['x.svg', 'image/svg+xml', PAGES.svg()],
      ['x.xhtml', 'application/xhtml+xml', PAGES.xhtml()],
      ['x.xml', 'text/xml', PAGES.xhtml()],
    ] as const) {
      const { title, download } = await open((await upload(filename, type, body)).url);
      expect(download, filename).toBe(true);
      expect(title, filename).not.toMatch(/^ran/);
    }
  });

  it('a page uploaded under a passive type is shown as that type: never sniffed into HTML, never scripted', async () => {
    for (const [filename, type] of [
      ['page.txt', 'text/plain'],
      ['page.png', 'image/png'],
    ] as const) {
      const { title, download } = await open((await upload(filename, type, PAGES.html())).url);
      expect(download, filename).toBe(false);
      expect(title, filename).not.toMatch(/^ran/);
    }
  });
});
