// `npm run docs` (tools/docs/build.mjs) builds one HTML site: TypeDoc builds the TypeScript reference with warnings as
// errors, the C/C++ reference generated from the IDL has an entry for every exported symbol and every enum value, the
// landing page links every guide, and every internal link of the site — followed from the landing page in headless
// Chromium — reaches a page that exists and, with a #fragment, an element of that page with that id.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import * as idl from '../idl/surface.mjs';
import { buildModel } from '../tools/gen/model.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'build-docs');
/** Debian's package (scripts/install-deps.sh); playwright-core downloads no browser of its own. */
const CHROMIUM = '/usr/bin/chromium';

/** The page's own globals, in the functions Playwright runs in the browser (the tsconfig has no DOM types). */
declare const document: {
  querySelector(selector: string): unknown;
  querySelectorAll(selector: string): Iterable<{ id: string; href: string; name: string }>;
};

const read = (page: string) => readFileSync(join(out, page), 'utf8');

describe('npm run docs', () => {
  beforeAll(() => {
    execFileSync(process.execPath, [join(root, 'tools/docs/build.mjs')], { cwd: root, stdio: 'pipe' });
  }, 300_000);

  it('writes the TypeScript reference: both entry points and the classes users start from', () => {
    for (const page of [
      'index.html',
      'modules/svcpp.html',
      'modules/svcpp_server.html',
      'classes/svcpp.Client.html',
      'classes/svcpp.SvcppServer.html',
    ]) {
      expect(existsSync(join(out, 'typescript', page)), page).toBe(true);
    }
    const client = read('typescript/classes/svcpp.Client.html');
    expect(client).toContain('createOrJoinLobby');
    expect(client).toContain('sendLobbyMessage');
  });

  it("opens on the README's overview and the three guides, each a page of its own; TypeDoc's landing page leads back", () => {
    const landing = read('index.html');
    expect(landing).toContain('An open, redistributable social SDK for games, and the local platform it talks to.');
    for (const guide of ['electron-launcher', 'game-server', 'engine-plugin']) {
      expect(landing).toContain(`href="guides/${guide}.html"`);
      expect(read(`guides/${guide}.html`)).toContain('Run the example');
    }
    expect(read('typescript/index.html')).toContain('href="../index.html"');
  });

  it('writes the C and C++ reference with every exported symbol and enum value of the IDL', () => {
    const html = read('c-cpp-reference.html');
    const model = buildModel(idl);
    const missing = model.exportedSymbols.filter(
      (symbol: string) => !html.includes(`${symbol}(`) && !html.includes(`<code>${symbol}</code>`),
    );
    expect(missing).toEqual([]);
    for (const e of model.enums)
      for (const [name] of e.values) expect(html).toContain(`<code>${e.cName}_${name}</code>`);
    expect(html).toContain('Svcpp_Errc Svcpp_Client_Connect(Svcpp_Client *self);');
    expect(html).toContain('C++: <code>svcpp::Client::Connect</code>');
  });

  it('links every guide of docs/ from the landing page, and the reference, semantics and protocol pages', () => {
    const landing = read('index.html');
    const guides = readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md'));
    expect(guides.length).toBeGreaterThan(3);
    for (const guide of guides) expect(landing).toContain(`href="guides/${guide.replace(/\.md$/, '.html')}"`);
    for (const page of [
      'overview.html',
      'typescript/index.html',
      'c-cpp-reference.html',
      'native/semantics.html',
      'platform/index.html',
      'platform/protocol.html',
      'platform/protocol/13-voice.html',
      'platform/protocol/20-main-gateway.html',
    ]) {
      expect(landing).toContain(`href="${page}"`);
    }
  });

  it('renders a link between documents as a link to the page and its anchor, and a link into the sources as text', () => {
    expect(read('platform/index.html')).toContain('href="../guides/local-client.html#running-it"');
    expect(read('guides/local-client.html')).toContain('id="running-it"');
    expect(read('platform/index.html')).toContain('href="protocol/14-bot-api.html#144-channels-and-messages"');
    expect(read('platform/protocol/14-bot-api.html')).toContain('id="144-channels-and-messages"');
    expect(read('overview.html')).toContain(
      '<span class="repository-path" title="in the repository: native/include/svcpp.h">',
    );
    for (const page of ['overview.html', 'guides/electron-launcher.html', 'platform/index.html']) {
      expect(read(page), page).not.toMatch(/href="(?!https?:)[^"]*\.md[#"]/);
    }
  });

  it('follows every internal link from the landing page in Chromium: each page exists, each #fragment is an id on it', async () => {
    const site = pathToFileURL(out).href + '/';
    const browser = await chromium.launch({ executablePath: CHROMIUM });
    try {
      const { idsOf, links } = await crawl(browser, site, `${site}index.html`);
      const broken = links
        .filter(({ to }) => {
          const [page, fragment] = to.split('#') as [string, string | undefined];
          const ids = idsOf.get(page);
          return (
            !to.startsWith(site) ||
            !ids ||
            (fragment !== undefined && fragment !== '' && !ids.has(decodeURIComponent(fragment)))
          );
        })
        .map(({ from, to }) => `${from} → ${to.startsWith(site) ? to.slice(site.length) : to}`);
      console.log(`docs site: ${links.length} internal links followed over ${idsOf.size} pages`);
      expect(broken).toEqual([]);
      expect(idsOf.size).toBeGreaterThan(100);
    } finally {
      await browser.close();
    }
  });
});

/** Tabs that load the site's pages side by side: TypeDoc's pages run scripts, most of the crawl's time. */
const TABS = 3;

/**
 * Every page reachable from `start` through links under `site`, level by level: each page's ids (null for a page
 * that does not exist), and every file: link found (`from` relative to the site, `to` absolute).
 */
async function crawl(browser: Browser, site: string, start: string) {
  const idsOf = new Map<string, Set<string> | null>();
  const links: { from: string; to: string }[] = [];
  const tabs = await Promise.all(Array.from({ length: TABS }, () => browser.newPage()));
  let level = [start];
  while (level.length > 0) {
    const pages = [...new Set(level)].filter((url) => !idsOf.has(url));
    level = [];
    await Promise.all(
      tabs.map(async (tab, t) => {
        for (let i = t; i < pages.length; i += TABS) {
          const url = pages[i]!;
          if (!existsSync(fileURLToPath(url))) {
            idsOf.set(url, null);
            continue;
          }
          await tab.goto(url, { waitUntil: 'domcontentloaded' });
          // TypeDoc's pages build their navigation tree in a script once loaded: its links count too.
          await tab.waitForFunction(
            () => !document.querySelector('#tsd-nav-container') || document.querySelector('#tsd-nav-container a'),
          );
          const found = await tab.evaluate(() => ({
            ids: [...document.querySelectorAll('[id]')]
              .map((element) => element.id)
              .concat([...document.querySelectorAll('a[name]')].map((anchor) => anchor.name)),
            hrefs: [...document.querySelectorAll('a[href]')].map((anchor) => anchor.href),
          }));
          idsOf.set(url, new Set(found.ids));
          // A file: link outside build-docs/ would point into the checkout: it is kept, and reported as broken.
          for (const href of found.hrefs.filter((target) => target.startsWith('file:'))) {
            links.push({ from: url.slice(site.length), to: href });
            if (href.startsWith(site)) level.push(href.split('#')[0]!);
          }
        }
      }),
    );
  }
  return { idsOf, links };
}
