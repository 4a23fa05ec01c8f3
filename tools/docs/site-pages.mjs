// What the documentation site holds and where each document lands in build-docs/ (tools/docs/build.mjs). Every
// Markdown document of the repository a reader needs has one page; a link between documents becomes a link between
// their pages (markdown.mjs). Every docs/*.md must be in one group of GUIDES: build.mjs fails on one that is not, so a
// new guide cannot be left out of the site unnoticed.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The guides of docs/, grouped as the landing page lists them. */
export const GUIDES = [
  {
    heading: 'Using the SDK',
    docs: [
      'electron-launcher',
      'game-server',
      'engine-plugin',
      'local-client',
      'voice',
      'porting-from-the-reference-sdk',
    ],
  },
  { heading: 'Shipping it', docs: ['packaging', 'platforms', 'versioning', 'binary-size'] },
  {
    heading: 'Working on the SDK',
    docs: ['adding-an-sdk-method', 'connect-to-ready', 'gateway-hot-path', 'lobby-fanout'],
  },
];

/** The generated C and C++ reference, rendered as if it were a document at the repository's root. */
export const C_REFERENCE = 'c-cpp-reference.md';

/**
 * Repository path of each document → its page, relative to build-docs/. The C reference is generated (not a file of
 * the repository); the examples the guides link to are shown as pages of code.
 */
export function sitePages(root) {
  const pages = new Map([
    ['README.md', 'overview.html'],
    [C_REFERENCE, 'c-cpp-reference.html'],
    ['native/SEMANTICS.md', 'native/semantics.html'],
    ['platform/README.md', 'platform/index.html'],
    ['platform/PROTOCOL.md', 'platform/protocol.html'],
  ]);
  const grouped = GUIDES.flatMap((group) => group.docs);
  for (const file of readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()) {
    const name = file.slice(0, -'.md'.length);
    if (!grouped.includes(name)) throw new Error(`docs/${file} is in no group of GUIDES (tools/docs/site-pages.mjs)`);
    pages.set(`docs/${file}`, `guides/${name}.html`);
  }
  for (const file of readdirSync(join(root, 'docs', 'examples')).sort()) {
    pages.set(`docs/examples/${file}`, `guides/examples/${file}.html`);
  }
  for (const file of readdirSync(join(root, 'platform', 'protocol'))
    .filter((name) => name.endsWith('.md'))
    .sort()) {
    pages.set(`platform/protocol/${file}`, `platform/protocol/${file.slice(0, -'.md'.length)}.html`);
  }
  return pages;
}
