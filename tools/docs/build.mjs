// `npm run docs`: the documentation site, into build-docs/ (not checked in; rebuild it from the sources). One landing
// page, build-docs/index.html, links every part:
//   guides/<name>.html              docs/*.md (grouped in site-pages.mjs), and guides/examples/ the examples they run
//   overview.html                   README.md whole (the landing page opens on its first section)
//   typescript/index.html           TypeDoc of the TypeScript face: `svcpp` (lib/index.ts) and `svcpp/server`
//   c-cpp-reference.html            the C ABI and C++ wrapper reference, generated from idl/surface.mjs
//   native/semantics.html           native/SEMANTICS.md, the rules every C call follows
//   platform/index.html, platform/protocol.html, platform/protocol/*.html
//                                   the platform's README, its protocol's index and area pages (the main gateway's too)
// Markdown is rendered by markdown.mjs (markdown-it, GitHub's heading anchors). A relative link to a document or
// example of the site becomes a link to its page, with its #fragment. A link into the rest of the source tree
// (`../native/core/…cpp`, a folder) has no page here — the site carries no copy of the sources — so it is rendered as
// its text, marked as a repository path (class repository-path, the path in its title); a link to a file the
// repository does not have fails the build. test/docs.test.ts follows every internal link of the built site in
// headless Chromium.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as idl from '../../idl/surface.mjs';
import { buildModel } from '../gen/model.mjs';
import { generate as cReference } from './c-reference.mjs';
import { escapeHtml, render } from './markdown.mjs';
import { C_REFERENCE, GUIDES, sitePages } from './site-pages.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const out = join(root, 'build-docs');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

const pages = sitePages(root);
const sources = { [C_REFERENCE]: cReference(buildModel(idl)) };
const sourceText = (source) => sources[source] ?? readFileSync(join(root, source), 'utf8');

/** The href a link of a document at `source` (repository path) must have on the page `page` (site path). */
function linker(source, page) {
  return (href) => {
    if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('#')) return href;
    const hash = href.indexOf('#');
    const path = hash < 0 ? href : href.slice(0, hash);
    const fragment = hash < 0 ? '' : href.slice(hash);
    // A page of the site named as such: the landing page's link to TypeDoc's output.
    if (path.endsWith('.html')) return href;
    const target = posix.normalize(posix.join(posix.dirname(source), path)).replace(/\/$/, '');
    const targetPage = pages.get(target);
    if (targetPage) return posix.relative(posix.dirname(page), targetPage) + fragment;
    if (!existsSync(join(root, target))) throw new Error(`${source}: the link ${href} names no file of the repository`);
    return { repositoryPath: target };
  };
}

/** A page of the site: `body` under the site's header, `page` its path in build-docs/. */
function writePage(page, title, body, source) {
  const up = posix.relative(posix.dirname(page), '.') || '.';
  const link = (target, text) => `<a href="${up}/${target}">${text}</a>`;
  const nav = [
    link('index.html#guides', 'Guides'),
    link('typescript/index.html', 'TypeScript'),
    link('c-cpp-reference.html', 'C and C++'),
    link('native/semantics.html', 'C ABI semantics'),
    link('platform/protocol.html', 'Platform protocol'),
  ].join(' ');
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} — svcpp</title>
<link rel="stylesheet" href="${up}/site.css">
</head>
<body>
<header>${link('index.html', 'svcpp documentation')}
<nav>${nav}</nav></header>
<main>
${body}</main>
<footer>${source ? `From <code>${escapeHtml(source)}</code>, built` : 'Built'} by <code>npm run docs</code>.</footer>
</body>
</html>
`;
  mkdirSync(join(out, dirname(page)), { recursive: true });
  writeFileSync(join(out, page), html);
}

/** What the footer names as a page's source: the C reference's is the IDL, the landing page's none. */
const shownSource = { [C_REFERENCE]: 'idl/surface.mjs', 'index.md': null };

function writeMarkdownPage(source, page, text = sourceText(source)) {
  const { html, title } = render(text, linker(source, page));
  writePage(page, title, html, source in shownSource ? shownSource[source] : source);
  return title;
}

const titles = new Map();
for (const [source, page] of pages) {
  if (source.startsWith('docs/examples/')) {
    const heading = `<h1 id="top"><code>${escapeHtml(source)}</code></h1>\n`;
    const body = `${heading}<pre><code>${escapeHtml(sourceText(source))}</code></pre>\n`;
    writePage(page, source, body, source);
  } else {
    titles.set(source, writeMarkdownPage(source, page));
  }
}
copyFileSync(join(here, 'site.css'), join(out, 'site.css'));
console.log(`docs: ${pages.size} pages of guides, references and protocol (Markdown rendered to HTML)`);

// TypeDoc's landing page (under TypeDoc's own title, the project's name) names the two entry points and leads back to
// the site; every TypeDoc page's header links to the site too (typedoc.json navigationLinks). TypeDoc would copy the
// target of a relative link into its own output, so both are written as `https://svcpp-site.invalid/<page>` (a
// reserved name no link could mean) and made relative to each TypeDoc page once TypeDoc has written them.
const startPage = "[the documentation's start page](https://svcpp-site.invalid/index.html)";
writeFileSync(
  join(out, 'typedoc-landing.md'),
  `The TypeScript reference of the package's two entry points:

- \`svcpp\`: \`Client\` and its value types, events and errors (the SDK over its N-API addon or koffi).
- \`svcpp/server\`: \`SvcppServer\` and the webhook receiver, for game backends (no native code).

The guides, the C and C++ reference and the platform's protocol are on ${startPage}.
`,
);
execFileSync(
  process.execPath,
  [
    join(root, 'node_modules', 'typedoc', 'bin', 'typedoc'),
    '--options',
    join(root, 'typedoc.json'),
    '--readme',
    join(out, 'typedoc-landing.md'),
  ],
  { cwd: root, stdio: 'inherit' },
);
rmSync(join(out, 'typedoc-landing.md'));
for (const file of readdirSync(join(out, 'typescript'), { recursive: true }).filter((name) => name.endsWith('.html'))) {
  const up = posix.relative(posix.dirname(posix.join('typescript', file)), '.');
  const path = join(out, 'typescript', file);
  writeFileSync(path, readFileSync(path, 'utf8').replaceAll('href="https://svcpp-site.invalid/', `href="${up}/`));
}
console.log('docs: build-docs/typescript/index.html (TypeDoc: svcpp, svcpp/server)');

// The landing page: the README's first section, then every part of the site.
const readme = sourceText('README.md');
const overview = readme.slice(readme.indexOf('\n') + 1, readme.indexOf('\n## ')).trim();
const item = (source) => `- [${titles.get(source)}](${source})`;
const protocolPages = [...pages.keys()].filter((source) => source.startsWith('platform/protocol/'));
const guideList = GUIDES.map(
  (group) => `### ${group.heading}\n\n${group.docs.map((name) => item(`docs/${name}.md`)).join('\n')}`,
).join('\n\n');
writeMarkdownPage(
  'index.md',
  'index.html',
  `# svcpp documentation

${overview}

The whole overview, with set-up, layout and the TypeScript face in brief: [README](README.md).

## Guides

${guideList}

## Reference

- [TypeScript: \`svcpp\` and \`svcpp/server\`](typescript/index.html) — TypeDoc of the package's two entry points.
- [C and C++](${C_REFERENCE}) — every function of \`svcpp.h\` with its \`svcpp.hpp\` member, generated from the IDL.
- [The C ABI's runtime semantics](native/SEMANTICS.md) — handles, strings, callbacks, threads and errors, as every
  call implements them.

## The platform

- [The local platform](platform/README.md) — running it, its options, deployment, layout and tests.
- [Its protocol](platform/PROTOCOL.md) — what the platform designed where the service leaves it open, by area:
${protocolPages.map((source) => `  ${item(source)}`).join('\n')}
`,
);
console.log('docs: build-docs/index.html');
