/**
 * Every third-party library compiled into libsvcpp.so or the addon has a notice: the components come from the real
 * build (test/support/linked-components.ts), the notices from THIRD_PARTY_NOTICES.md and licenses/. Never skipped:
 * without a build this fails (the suite runs after the native build).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { linkedComponents } from './support/linked-components.js';
import { noticeRows as readNotices } from './support/third-party-notices.js';

const root = fileURLToPath(new URL('..', import.meta.url));

const noticeRows = () => readNotices(join(root, 'THIRD_PARTY_NOTICES.md'));

it('has a notice for every library statically linked or compiled into libsvcpp.so and the addon', () => {
  const rows = noticeRows();
  const missing = linkedComponents(join(root, 'build'))
    .filter((component) => !rows.has(component.name))
    .map((component) => `${component.name} (e.g. ${component.evidence.join(', ')})`);
  expect(missing, 'compiled in without a row in THIRD_PARTY_NOTICES.md').toEqual([]);
});

it('every notice listed exists and is not empty, and lists only what the build contains', () => {
  const rows = noticeRows();
  expect(rows.size).toBeGreaterThan(0);
  for (const [name, notice] of rows) {
    const file = join(root, notice);
    expect(existsSync(file) && statSync(file).size > 0, `notice of ${name}: ${notice || '(no link)'}`).toBe(true);
  }
  const built = new Set(linkedComponents(join(root, 'build')).map((component) => component.name));
  expect(
    [...rows.keys()].filter((name) => !built.has(name)),
    'rows for libraries the build does not contain',
  ).toEqual([]);
});

it('LICENSE is the MIT licence package.json declares', () => {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { license: string; files: string[] };
  expect(manifest.license).toBe('MIT');
  expect(readFileSync(join(root, 'LICENSE'), 'utf8')).toMatch(
    /^MIT License\n\nCopyright \(c\) \d{4} the svcpp authors\n/,
  );
  expect(manifest.files).toEqual(expect.arrayContaining(['LICENSE', 'THIRD_PARTY_NOTICES.md', 'licenses']));
});
