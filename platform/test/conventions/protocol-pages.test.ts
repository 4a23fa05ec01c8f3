/** PROTOCOL.md is the index of the design pages in protocol/: every page is listed, every listed page exists, and the
 * relative links of every page resolve (files, and heading anchors in our own pages). */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const pages = readdirSync(join(root, 'protocol'))
  .filter((name) => name.endsWith('.md'))
  .sort();

/** GitHub's heading anchors: lower case, punctuation dropped, spaces as hyphens. */
function anchors(text: string): Set<string> {
  const found = new Set<string>();
  let fence = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) fence = !fence;
    const heading = !fence && /^#{1,6} (.*)$/.exec(line);
    if (heading)
      found.add(
        heading[1]!
          .trim()
          .toLowerCase()
          .replace(/[^\w\- ]/g, '')
          .replace(/ /g, '-'),
      );
  }
  return found;
}

it('lists every page of protocol/ in the index, in order, and each listed page exists', () => {
  const index = readFileSync(join(root, 'PROTOCOL.md'), 'utf8');
  const listed = [...index.matchAll(/\]\(protocol\/([\w.-]+\.md)\)/g)].map((m) => m[1]);
  expect(listed).toEqual(pages);
});

it('resolves every relative link of the index and the pages', () => {
  const broken: string[] = [];
  for (const file of ['PROTOCOL.md', 'README.md', ...pages.map((page) => join('protocol', page))]) {
    const text = readFileSync(join(root, file), 'utf8');
    for (const [, target] of text.matchAll(/\]\(((?!https?:|mailto:)[^)\s]+)\)/g)) {
      const [path, anchor] = target!.split('#');
      const absolute = path ? resolve(dirname(join(root, file)), path) : join(root, file);
      if (!existsSync(absolute)) broken.push(`${file}: ${target}`);
      else if (anchor && absolute.endsWith('.md') && !anchors(readFileSync(absolute, 'utf8')).has(anchor))
        broken.push(`${file}: ${target}`);
    }
  }
  expect(broken).toEqual([]);
});
