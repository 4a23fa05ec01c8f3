/**
 * The developer portal in a real headless browser: Debian's Chromium driven by playwright-core (PROTOCOL.md §15).
 * Every step goes through the page as a developer would — labels, buttons, links — against the real platform on a
 * loopback port. The browser is launched once; each test has its own browser context (own cookies) and signs in.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningPlatform } from '../../src/index.js';
import { request } from '../support/http.js';
import { startTestPlatform } from '../support/platform.js';
import { fullUser } from '../support/social.js';
import { signatureIsValid } from '../support/webhook-receiver.js';

/**
 * The callbacks given to page.evaluate run in the browser. The platform's tsconfig has no DOM library (its code runs
 * in Node), so the few browser objects they use are declared here, in this module only.
 */
interface FocusedElement {
  id: string;
  tagName: string;
  textContent: string | null;
  labels?: ArrayLike<{ textContent: string | null }> | null;
}
declare const document: {
  activeElement: FocusedElement | null;
  body: FocusedElement;
  createElement(tag: 'canvas'): {
    width: number;
    height: number;
    getContext(kind: '2d'): {
      drawImage(image: unknown, x: number, y: number): void;
      getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray };
    } | null;
  };
};
declare const Image: new () => { src: string; width: number; height: number; decode(): Promise<void> };

/** Debian's package (scripts/install-deps.sh); playwright-core downloads no browser of its own. */
const CHROMIUM = '/usr/bin/chromium';

let platform: RunningPlatform;
let browser: Browser;
let counter = 0;

beforeAll(async () => {
  platform = await startTestPlatform();
  browser = await chromium.launch({ executablePath: CHROMIUM });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await platform?.close();
});

/** A fresh browser context (no cookies) with a page; closed by the caller. */
async function newPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1000, height: 800 } });
  return context.newPage();
}

async function signIn(page: Page): Promise<void> {
  await page.goto(`${platform.httpUrl}/developers`);
  await expect.poll(() => page.url()).toBe(`${platform.httpUrl}/developers/login`);
  await page.getByLabel('Username').fill('developer');
  await page.getByLabel('Password').fill(platform.devToken);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Applications' }).waitFor();
}

/** Creates an application through the form; returns its name and id (read from the page). */
async function createApplication(page: Page): Promise<{ name: string; id: string }> {
  const name = `Browser Game ${process.pid} ${++counter}`;
  await page.goto(`${platform.httpUrl}/developers/applications`);
  await page.getByLabel('Name').fill(name);
  await page.getByRole('button', { name: 'Create application' }).click();
  await page.getByRole('heading', { level: 1, name: `${name} — General information` }).waitFor();
  const id = (await page.locator('[data-field="application-id"]').textContent())!;
  return { name, id };
}

/** A webhook endpoint that checks the Ed25519 signature the way a game backend must, answering 401 when it fails. */
async function startVerifyingReceiver(publicKeyHex: () => string) {
  const verified: unknown[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const webhook = { headers: req.headers, raw, body: JSON.parse(raw) as unknown };
      const valid = signatureIsValid(publicKeyHex(), webhook);
      if (valid) verified.push(webhook.body);
      res.writeHead(valid ? 204 : 401).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/interactions`,
    verified,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('developer portal in Chromium', () => {
  it('signs in and creates an application, whose credentials are shown once', async () => {
    const page = await newPage();
    try {
      await signIn(page);
      const { name, id } = await createApplication(page);
      const app = platform.store.applications.get(id)!;
      expect(app.name).toBe(name);
      await expect.poll(() => page.locator('[data-secret="Client secret"]').textContent()).toBe(app.clientSecret);
      await expect.poll(() => page.locator('[data-secret="Bot token"]').textContent()).toBe(app.botToken);
      await page.reload();
      expect(await page.locator('[data-secret]').count()).toBe(0);
    } finally {
      await page.context().close();
    }
  });

  it('adds a redirect URI and an OIDC identity provider; a bad issuer is refused with the error shown', async () => {
    const page = await newPage();
    try {
      await signIn(page);
      const { id } = await createApplication(page);
      await page.getByRole('link', { name: 'OAuth2' }).click();
      await page.getByLabel('New redirect URI').fill('https://game.example/oauth/callback');
      await page.getByRole('button', { name: 'Add redirect URI' }).click();
      await page.getByRole('status').filter({ hasText: 'Redirect URI added.' }).waitFor();
      await page.getByText('https://game.example/oauth/callback', { exact: true }).waitFor();
      expect(platform.store.applications.get(id)!.redirectUris).toEqual(['https://game.example/oauth/callback']);

      await page.getByRole('link', { name: 'Identity providers' }).click();
      await page.getByLabel('Issuer URL').fill('http://accounts.example.com');
      await page.getByLabel('Client id (the audience of the ID tokens)').fill('game-client');
      await page.getByRole('button', { name: 'Add identity provider' }).click();
      const alert = page.getByRole('alert');
      await alert.waitFor();
      expect(await alert.textContent()).toContain('Issuer must use https.');
      expect(await page.getByLabel('Issuer URL').getAttribute('aria-invalid')).toBe('true');
      await page.getByText('No identity providers.').waitFor();
      expect(platform.store.applications.get(id)!.identityProviders).toEqual([]);

      await page.getByLabel('Issuer URL').fill('https://accounts.example.com');
      await page.getByLabel('Client id (the audience of the ID tokens)').fill('game-client');
      await page.getByRole('button', { name: 'Add identity provider' }).click();
      await page.getByRole('status').filter({ hasText: 'Identity provider added.' }).waitFor();
      await page.getByRole('cell', { name: 'https://accounts.example.com', exact: true }).waitFor();
      expect(platform.store.applications.get(id)!.identityProviders).toEqual([
        { type: 'OIDC', issuer: 'https://accounts.example.com', clientId: 'game-client' },
      ]);
    } finally {
      await page.context().close();
    }
  });

  it('sets a webhook URL and sends a test event to a local receiver that verifies its signature', async () => {
    const page = await newPage();
    let appId = '';
    const receiver = await startVerifyingReceiver(() => platform.store.applications.get(appId)!.publicKeyHex);
    try {
      await signIn(page);
      appId = (await createApplication(page)).id;
      await page.getByRole('link', { name: 'Webhooks' }).click();
      await page.getByLabel('Webhook URL', { exact: true }).fill(receiver.url);
      await page.getByRole('button', { name: 'Save webhook URL' }).click();
      await page.getByRole('status').filter({ hasText: 'Webhook URL saved.' }).waitFor();
      await page.getByRole('button', { name: 'Send test event' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: 'Test event delivered. The receiver answered HTTP 204.' })
        .waitFor();
      expect(receiver.verified).toEqual([{ version: 1, application_id: appId, type: 0 }]);
    } finally {
      await page.context().close();
      await receiver.close();
    }
  });

  it('shows a lobby with its members', async () => {
    const page = await newPage();
    try {
      const members = [await fullUser(platform), await fullUser(platform)];
      const secret = `browser-lobby-${process.pid}-${++counter}`;
      let lobbyId = '';
      for (const member of members) {
        const joined = await request(`${platform.apiBase}/lobbies`, {
          method: 'PUT',
          headers: { authorization: `Bearer ${member.token}` },
          json: { secret },
        });
        expect(joined.status, joined.text).toBe(200);
        lobbyId = joined.body.id;
      }
      await signIn(page);
      await page.getByRole('link', { name: /svcpp Dev App/ }).click();
      await page.getByRole('link', { name: 'Lobbies' }).click();
      const lobby = page.locator(`section[data-lobby="${lobbyId}"]`);
      await lobby.getByRole('heading', { name: `Lobby ${lobbyId}` }).waitFor();
      const table = lobby.getByRole('table', { name: `Members of lobby ${lobbyId}` });
      for (const member of members) await table.getByRole('cell', { name: member.username, exact: true }).waitFor();
      expect(await table.getByRole('row').count()).toBe(3);
    } finally {
      await page.context().close();
    }
  });

  it('renders the look it is meant to: dark header, blue primary button, a visible focus ring on the focused field', async () => {
    // A rendered-pixel check instead of a baseline image: fonts and anti-aliasing differ between Chromium builds,
    // the colours of these three areas do not. The screenshot is decoded by the browser itself (canvas).
    const page = await newPage();
    try {
      await page.goto(`${platform.httpUrl}/developers/login`);
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('login-username');
      const field = (await page.getByLabel('Username').boundingBox())!;
      const button = (await page.getByRole('button', { name: 'Sign in' }).boundingBox())!;
      const png = (await page.screenshot()).toString('base64');

      const probe = await browser.newPage();
      try {
        const pixels = await probe.evaluate(
          async ({ png, field, button }) => {
            const image = new Image();
            image.src = `data:image/png;base64,${png}`;
            await image.decode();
            const canvas = document.createElement('canvas');
            canvas.width = image.width;
            canvas.height = image.height;
            const context = canvas.getContext('2d')!;
            context.drawImage(image, 0, 0);
            const at = (x: number, y: number): number[] =>
              Array.from(context.getImageData(Math.round(x), Math.round(y), 1, 1).data.slice(0, 3));
            // The focus outline (3 px, 2 px away from the field) crosses the row 3.5 px above the field's top edge.
            const ring: number[][] = [];
            for (let x = field.x + 10; x < field.x + field.width - 10; x += 5) ring.push(at(x, field.y - 3.5));
            return { header: at(4, 4), button: at(button.x + 4, button.y + button.height / 2), ring };
          },
          { png, field, button },
        );
        const near = (actual: number[], expected: number[]) =>
          actual.every((channel, i) => Math.abs(channel - expected[i]!) <= 24);
        expect(near(pixels.header, [0x1e, 0x29, 0x3b]), `header ${pixels.header}`).toBe(true);
        expect(near(pixels.button, [0x1d, 0x4e, 0xd8]), `button ${pixels.button}`).toBe(true);
        expect(pixels.ring.length).toBeGreaterThan(10);
        expect(
          pixels.ring.every((pixel) => near(pixel, [0xb4, 0x53, 0x09])),
          `ring ${JSON.stringify(pixels.ring)}`,
        ).toBe(true);
      } finally {
        await probe.close();
      }
    } finally {
      await page.context().close();
    }
  });

  it('works from the keyboard alone: Tab and Enter from the sign-in page to a created application', async () => {
    const page = await newPage();
    /** What the focused element is called: its label, or its text. */
    const focused = () =>
      page.evaluate(() => {
        const element = document.activeElement;
        if (!element || element === document.body) return 'body';
        const label = element.labels?.[0]?.textContent;
        return `${element.tagName.toLowerCase()}:${(label ?? element.textContent ?? '').trim()}`;
      });
    try {
      await page.goto(`${platform.httpUrl}/developers/login`);
      const order: string[] = [];
      for (let i = 0; i < 4; i++) {
        await page.keyboard.press('Tab');
        order.push(await focused());
      }
      expect(order).toEqual(['a:Skip to main content', 'input:Username', 'input:Password', 'button:Sign in']);
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.type('developer');
      await page.keyboard.press('Tab');
      await page.keyboard.type(platform.devToken);
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { level: 1, name: 'Applications' }).waitFor();

      // The skip link jumps past the navigation straight into the page's own content.
      await page.keyboard.press('Tab');
      expect(await focused()).toBe('a:Skip to main content');
      await page.keyboard.press('Enter');
      await page.keyboard.press('Tab');
      expect(await focused()).toBe('input:Name');
      const name = `Keyboard Game ${process.pid}`;
      await page.keyboard.type(name);
      await page.keyboard.press('Tab');
      expect(await focused()).toBe('select:Parent application');
      await page.keyboard.press('Tab');
      expect(await focused()).toBe('button:Create application');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { level: 1, name: `${name} — General information` }).waitFor();
      expect(platform.store.applications.findByName(name)).toBeDefined();
    } finally {
      await page.context().close();
    }
  });
});
