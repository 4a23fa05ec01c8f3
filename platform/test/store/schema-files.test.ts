/** Each area's schema steps live in one file, `src/store/sqlite/<area>-schema.ts`, and nowhere else. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const src = fileURLToPath(new URL('../../src', import.meta.url));
// The runner creates its own bookkeeping table; everything else is an area's step.
const RUNNER = join('store', 'sqlite', 'migrations.ts');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

it('writes schema statements (CREATE/ALTER TABLE, CREATE INDEX) only in the *-schema.ts files of store/sqlite', () => {
  const elsewhere = sources(src)
    .map((file) => relative(src, file))
    .filter((file) => file !== RUNNER && !/^store\/sqlite\/[a-z-]+-schema\.ts$/.test(file))
    .filter((file) => /\b(CREATE TABLE|ALTER TABLE|CREATE (UNIQUE )?INDEX)\b/.test(readFileSync(join(src, file), 'utf8')));
  expect(elsewhere).toEqual([]);
});
