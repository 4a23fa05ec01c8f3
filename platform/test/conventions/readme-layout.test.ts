/** platform/README.md "Layout and tests" names every folder of src/, and every `src/…` path it names exists. */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const readme = readFileSync(join(root, 'README.md'), 'utf8');

it('names every src/ folder in the layout, and names no path that is gone', () => {
  const folders = readdirSync(join(root, 'src')).filter((name) => statSync(join(root, 'src', name)).isDirectory());
  expect(folders.filter((name) => !readme.includes(`\`src/${name}\``))).toEqual([]);
  const named = [...readme.matchAll(/`(src\/[\w./-]+)`/g)].map((m) => m[1]!);
  expect(named.filter((path) => !existsSync(join(root, path)))).toEqual([]);
});
