// `npm run demo`'s story (demo/quickstart.ts), run as the README's command runs it: the number of steps its opening
// line announces is the number it prints, in order (it announced 6 and printed 7: issue 40, item 16).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

it('the demo announces as many steps as it prints, numbered 1..n', () => {
  const demo = spawnSync(process.execPath, ['--import', 'tsx', 'demo/quickstart.ts'], {
    cwd: root,
    encoding: 'utf8',
    timeout: 110_000,
  });
  expect(demo.stderr).toBe('');
  expect(demo.status).toBe(0);
  const announced = Number(/told in (\d+) steps/.exec(demo.stdout)?.[1]);
  const printed = [...demo.stdout.matchAll(/^(\d+)\. /gm)].map((m) => Number(m[1]));
  expect(printed.length).toBeGreaterThan(0);
  expect(printed).toEqual(Array.from({ length: announced }, (_, i) => i + 1));
});
