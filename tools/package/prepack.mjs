// npm's `prepack` (npm pack, npm publish): a tarball must work once installed, so this builds what it ships and
// refuses to pack what it cannot build. A fresh clone has no dist/ (ignored by git): packed as it was, the package
// installed and then failed at import (ERR_MODULE_NOT_FOUND … dist/esm/index.js).
//   dist/        always rebuilt (tools/package/build.mjs): a dist/ left from older sources would ship stale code.
//   prebuilds/   made by `npm run prebuilds` (minutes: it compiles the addon); without the one for this machine the
//                package would compile the whole core on every user's install, so packing stops and says so.
// Everything goes to stderr: `npm pack --json` prints its JSON on stdout, and a script's stdout lands in it.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const fail = (message) => {
  process.stderr.write(`svcpp prepack: ${message}\n`);
  process.exit(1);
};

const prebuilds = join(root, 'prebuilds', `${process.platform}-${process.arch}`);
const shipped = existsSync(prebuilds) ? readdirSync(prebuilds) : [];
if (!shipped.some((name) => name.endsWith('.node')) || !shipped.includes('libsvcpp.so')) {
  fail(
    `no prebuilt addon and libsvcpp.so in ${prebuilds}: run \`npm run prebuilds\` first (after \`npm run demo\` or ` +
      '`npm run build:native`), then pack again',
  );
}
for (const tool of ['typescript', 'esbuild']) {
  if (!existsSync(join(root, 'node_modules', tool, 'package.json')))
    fail(`the JavaScript build needs ${tool}: run \`npm ci\` first`);
}

execFileSync(process.execPath, [join(root, 'tools', 'package', 'build.mjs')], { cwd: root, stdio: ['ignore', 2, 2] });
for (const file of ['dist/esm/index.js', 'dist/esm/server.js', 'dist/cjs/lib/index.js', 'dist/cjs/lib/server.js']) {
  if (!existsSync(join(root, file))) fail(`tools/package/build.mjs did not write ${file}`);
}
