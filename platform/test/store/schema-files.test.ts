/** Each area's schema steps live in one file, `src/store/sqlite/<area>-schema.ts`, and nowhere else. */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, it } from 'vitest';
import { SRC, sourceFiles } from '../support/sources.js';

// The runner creates its own bookkeeping table; everything else is an area's step.
const RUNNER = join('store', 'sqlite', 'migrations.ts');

it('writes schema statements (CREATE/ALTER TABLE, CREATE INDEX) only in the *-schema.ts files of store/sqlite', () => {
  const elsewhere = sourceFiles()
    .map((file) => relative(SRC, file))
    .filter((file) => file !== RUNNER && !/^store\/sqlite\/[a-z-]+-schema\.ts$/.test(file))
    .filter((file) =>
      /\b(CREATE TABLE|ALTER TABLE|CREATE (UNIQUE )?INDEX)\b/.test(readFileSync(join(SRC, file), 'utf8')),
    );
  expect(elsewhere).toEqual([]);
});
