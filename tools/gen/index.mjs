// Generates the mechanical layers from idl/surface.mjs (see the comment at its top).
//   node tools/gen/index.mjs           write every generated file
//   node tools/gen/index.mjs --check   exit 1 and name the stale files instead of writing
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as idl from '../../idl/surface.mjs';
import { generatedFiles } from './layers.mjs';
import { buildModel } from './model.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const check = process.argv.includes('--check');
const model = buildModel(idl);

const stale = [];
let written = 0;
for (const { path, content } of await generatedFiles(model)) {
  const target = join(root, path);
  const current = existsSync(target) ? readFileSync(target, 'utf8') : null;
  if (current === content) continue;
  if (check) {
    stale.push(path);
    continue;
  }
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, content);
  written++;
}
if (check) {
  if (stale.length) {
    console.error(`generated files are stale (run npm run gen):\n  ${stale.join('\n  ')}`);
    process.exit(1);
  }
  console.log('generated files are up to date');
} else {
  console.log(`gen: ${written} file(s) written`);
}
