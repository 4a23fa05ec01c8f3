// The size budget of the native binaries the npm package ships: the stripped prebuilds exactly as
// tools/make-prebuilds.mjs makes them (prebuildify --strip), not a build tree's unstripped files. A size check of
// the real artefact, not a timing: docs/binary-size.md has the breakdown and how each figure is reproduced.
import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { withPrebuilds } from './pack/package.js';

const MB = 1_000_000;
// The goal, 6 MB each, is the bound: both meet it (docs/binary-size.md has the figures), and a change that makes either
// grow past it fails here.
const LIMITS: Record<string, number> = {
  'libsvcpp.so': 6 * MB,
  'svcpp.glibc.node': 6 * MB,
};

it('each shipped binary (the stripped prebuild) stays within its size budget', () => {
  const measured = withPrebuilds((dir) =>
    Object.keys(LIMITS).map((file) => {
      const path = join(dir, file);
      const sections = execFileSync('readelf', ['-S', '-W', path], { encoding: 'utf8' });
      return { file, bytes: statSync(path).size, stripped: !sections.includes('.symtab') };
    }),
  );
  for (const { file, bytes, stripped } of measured) {
    expect(stripped, `${file} ships stripped`).toBe(true);
    expect(bytes, `${file}: ${(bytes / MB).toFixed(2)} MB`).toBeLessThanOrEqual(LIMITS[file]);
  }
});
