// Generated layers are checked in; this fails when one is stale relative to idl/surface.mjs.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

it('node tools/gen/index.mjs --check exits 0', () => {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const check = spawnSync(process.execPath, ['tools/gen/index.mjs', '--check'], { cwd: root, encoding: 'utf8' });
  expect(check.stderr).toBe('');
  expect(check.status).toBe(0);
});
