/**
 * The portal's SKU page, test entitlements and privileged-intent toggles in Debian's Chromium driven by
 * playwright-core (PROTOCOL.md §15): through labels and buttons as a developer would, and from the keyboard alone.
 */
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningPlatform } from '../../src/index.js';
import { startTestPlatform } from '../support/platform.js';

/** The callbacks given to page.evaluate run in the browser; the platform's tsconfig has no DOM library. */
interface FocusedElement {
  tagName: string;
  textContent: string | null;
  labels?: ArrayLike<{ textContent: string | null }> | null;
}
declare const document: { activeElement: FocusedElement | null; body: FocusedElement };

/** Debian's package (scripts/install-deps.sh); playwright-core downloads no browser of its own. */
const CHROMIUM = '/usr/bin/chromium';

let platform: RunningPlatform;
let browser: Browser;
let counter = 0;

beforeAll(async () => {
  platform = await startTestPlatform({ config: { users: [{ username: 'player_one' }] } });
  browser = await chromium.launch({ executablePath: CHROMIUM });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await platform?.close();
});

/** A signed-in page on the "SKUs and entitlements" section of a new application. */
async function monetizationOfNewApplication(): Promise<{ page: Page; id: string }> {
  const context = await browser.newContext({ viewport: { width: 1000, height: 800 } });
  const page = await context.newPage();
  await page.goto(`${platform.httpUrl}/developers/login`);
  await page.getByLabel('Username').fill('developer');
  await page.getByLabel('Password').fill(platform.devToken);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Applications' }).waitFor();
  const name = `Premium Browser ${process.pid} ${++counter}`;
  await page.getByLabel('Name').fill(name);
  await page.getByRole('button', { name: 'Create application' }).click();
  await page.getByRole('heading', { level: 1, name: `${name} — General information` }).waitFor();
  const id = (await page.locator('[data-field="application-id"]').textContent())!;
  await page.getByRole('link', { name: 'SKUs and entitlements' }).click();
  await page.getByRole('heading', { level: 1, name: `${name} — SKUs and entitlements` }).waitFor();
  return { page, id };
}

/** What the focused element is called: its label, or its text. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement;
    if (!element || element === document.body) return 'body';
    const label = element.labels?.[0]?.textContent;
    return `${element.tagName.toLowerCase()}:${(label ?? element.textContent ?? '').trim()}`;
  });

/** Presses Tab (or `key`) until `name` has the focus (at most `limit` times); fails when it never gets there. */
async function tabTo(page: Page, name: string, limit = 25, key = 'Tab'): Promise<void> {
  const passed: string[] = [];
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press(key);
    const now = await focused(page);
    if (now === name) return;
    passed.push(now);
  }
  expect(passed, `Tab never reached ${name}`).toContain(name);
}

describe('portal premium pages in Chromium', () => {
  it('creates a SKU, grants a test entitlement to a user and deletes it', async () => {
    const { page, id } = await monetizationOfNewApplication();
    try {
      await page.getByLabel('Name').fill('Dragon Egg');
      await page.getByLabel('Type').selectOption('2');
      await page.getByLabel('Price in cents').fill('1999');
      await page.getByRole('button', { name: 'Create SKU' }).click();
      await page.getByText('SKU Dragon Egg created.').waitFor();
      await expect
        .poll(() => page.getByRole('row', { name: /Dragon Egg/ }).textContent())
        .toMatch(/Durable.*dragon-egg.*available.*19\.99/);

      await page.getByLabel('SKU', { exact: true }).selectOption({ label: 'Dragon Egg (Durable)' });
      await page.getByLabel('Owner', { exact: true }).fill('player_one');
      await page.getByRole('button', { name: 'Grant test entitlement' }).click();
      await page.getByText(/Test entitlement \d+ granted\./).waitFor();
      const entitlement = platform.store.premium.listEntitlements({
        applicationId: id,
        limit: 5,
        includeDeleted: false,
        includeConsumed: true,
      })[0]!;
      expect(entitlement.userId).toBe(platform.store.users.findByUsername('player_one')!.id);

      await page
        .getByRole('button', {
          name: `Delete test entitlement ${entitlement.id} (Dragon Egg for player_one (${entitlement.userId}))`,
        })
        .click();
      await page.getByText('Test entitlement deleted.').waitFor();
      await page.getByText('No test entitlements.').waitFor();
    } finally {
      await page.context().close();
    }
  });

  it('shows a refused grant at its field: an unknown user', async () => {
    const { page } = await monetizationOfNewApplication();
    try {
      await page.getByLabel('Name').fill('Potion');
      await page.getByRole('button', { name: 'Create SKU' }).click();
      await page.getByText('SKU Potion created.').waitFor();
      await page.getByLabel('Owner', { exact: true }).fill('nobody_at_all');
      await page.getByRole('button', { name: 'Grant test entitlement' }).click();
      await page.getByRole('alert').getByText('No user with this id or username.').waitFor();
      expect(await page.getByLabel('Owner', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    } finally {
      await page.context().close();
    }
  });

  it('toggles a privileged intent, and shows the 10,000-user rule as an error when it applies', async () => {
    const { page, id } = await monetizationOfNewApplication();
    try {
      await page.getByRole('link', { name: 'Bot' }).click();
      await page.getByLabel('Message content (MESSAGE_CONTENT)').check();
      await page.getByRole('button', { name: 'Save intents' }).click();
      await page.getByText('Privileged intents saved').waitFor();
      expect(await page.getByLabel('Message content (MESSAGE_CONTENT)').isChecked()).toBe(true);
      expect(platform.store.applications.get(id)!.flags & (1 << 19)).toBe(1 << 19);

      platform.store.transaction(() => {
        for (let i = 0; i < 10_000; i++)
          platform.store.grants.upsert({
            applicationId: id,
            userId: String(8_000_000 + i),
            scopes: ['identify'],
            createdAt: 0,
          });
      });
      await page.getByLabel('Presence (GUILD_PRESENCES)').check();
      await page.getByRole('button', { name: 'Save intents' }).click();
      await page
        .getByRole('alert')
        .getByText(/must apply for this privileged intent/)
        .waitFor();
      expect(await page.getByLabel('Presence (GUILD_PRESENCES)').getAttribute('aria-invalid')).toBe('true');
      expect(platform.store.applications.get(id)!.flags & (1 << 13)).toBe(0);
    } finally {
      await page.context().close();
    }
  });

  it('works from the keyboard alone: create a SKU, grant it, toggle an intent', async () => {
    const { page, id } = await monetizationOfNewApplication();
    try {
      await tabTo(page, 'input:Name');
      await page.keyboard.type('Keyboard Gem');
      await page.keyboard.press('Tab');
      expect(await focused(page)).toBe('select:Type');
      await page.keyboard.press('ArrowDown'); // Durable → Consumable
      await tabTo(page, 'button:Create SKU', 6);
      await page.keyboard.press('Enter');
      await page.getByText('SKU Keyboard Gem created.').waitFor();
      expect(platform.store.premium.listSkus(id).map((sku) => [sku.name, sku.type])).toEqual([['Keyboard Gem', 3]]);

      await tabTo(page, 'input:Owner', 40);
      await page.keyboard.type('player_one');
      await page.keyboard.press('Enter');
      await page.getByText(/Test entitlement \d+ granted\./).waitFor();
      await tabTo(page, 'button:Delete', 40);

      await tabTo(page, 'a:Bot', 60, 'Shift+Tab');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { level: 2, name: 'Privileged gateway intents' }).waitFor();
      await tabTo(page, 'input:Server members (GUILD_MEMBERS)', 40);
      await page.keyboard.press('Space');
      await tabTo(page, 'button:Save intents', 4);
      await page.keyboard.press('Enter');
      await page.getByText('Privileged intents saved').waitFor();
      expect(platform.store.applications.get(id)!.flags & (1 << 15)).toBe(1 << 15);
    } finally {
      await page.context().close();
    }
  });
});
