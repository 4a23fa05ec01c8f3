// `gen --check` compares each file tools/gen writes with the generator's output byte for byte, so `npm run format`
// must leave every one alone (and ESLint has nothing to say about code it did not write by hand): a generated file
// missing from .prettierignore and eslint.config.js's ignores would turn stale at the next format.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import * as prettier from 'prettier';
import { expect, it } from 'vitest';
import * as idl from '../idl/surface.mjs';
import { generatedFiles } from '../tools/gen/layers.mjs';
import { buildModel } from '../tools/gen/model.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
// As the prettier CLI reads them (npm run format runs it from the root).
const ignorePath = [join(root, '.gitignore'), join(root, '.prettierignore')];
const eslint = new ESLint({ cwd: root });

/** What touches the file: prettier formats it (it has a parser for it and does not ignore it), ESLint lints it. */
async function toolsOf(path: string): Promise<string[]> {
  const file = join(root, path);
  const { ignored, inferredParser } = await prettier.getFileInfo(file, { ignorePath });
  const linted = (await eslint.calculateConfigForFile(file)) !== undefined;
  return [...(!ignored && inferredParser ? ['prettier'] : []), ...(linted ? ['eslint'] : [])];
}

it('prettier and ESLint leave every generated file alone', async () => {
  const paths = (await generatedFiles(buildModel(idl))).map(({ path }) => path);
  expect(paths).toContain('bindings/koffi/generated.ts');
  const touched: string[] = [];
  for (const path of paths) for (const tool of await toolsOf(path)) touched.push(`${tool}: ${path}`);
  expect(touched).toEqual([]);
});

it('both reach a hand-written file (the check above can fail)', async () => {
  expect(await toolsOf('lib/index.ts')).toEqual(['prettier', 'eslint']);
  expect(await toolsOf('tools/gen/index.mjs')).toEqual(['prettier', 'eslint']);
});
