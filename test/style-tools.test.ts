// `gen --check` compares each file tools/gen writes with the generator's output byte for byte, so `npm run format`
// must leave every one alone (and ESLint has nothing to say about code it did not write by hand): a generated file
// missing from .prettierignore and eslint.config.js's ignores would turn stale at the next format. clang-tidy
// (tools/format/clang-tidy.sh, .clang-tidy) must leave them alone too: their findings are the generator's to fix.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
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

/** The C++ units tools/format/clang-tidy.sh lints where the build has their command (listed without a build). */
function clangTidyUnits(): string[] {
  return execFileSync('bash', [join(root, 'tools/format/clang-tidy.sh'), '--list'], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean);
}

/** .clang-tidy's HeaderFilterRegex: the headers whose findings count (it is an ERE that JavaScript reads alike). */
function clangTidyHeaders(): RegExp {
  const line = /^HeaderFilterRegex: '(.*)'$/m.exec(readFileSync(join(root, '.clang-tidy'), 'utf8'));
  if (line === null) throw new Error('.clang-tidy has no HeaderFilterRegex');
  return new RegExp(line[1]);
}

it('clang-tidy lints no generated unit and reports from no generated header', async () => {
  const paths = (await generatedFiles(buildModel(idl))).map(({ path }) => path);
  expect(paths).toContain('native/capi/generated/Client.cpp');
  expect(paths).toContain('native/core/generated/values.hpp');
  const units = new Set(clangTidyUnits());
  const headers = clangTidyHeaders();
  const touched = paths.filter((path) => units.has(path) || headers.test(join(root, path)));
  expect(touched).toEqual([]);
});

it('clang-tidy reaches the hand-written units and headers (the check above can fail)', () => {
  expect(clangTidyUnits()).toEqual(
    expect.arrayContaining(['native/core/client/client.cpp', 'native/capi/library.cpp', 'bindings/napi/src/addon.cpp']),
  );
  const headers = clangTidyHeaders();
  const own = [
    'native/core/version.hpp',
    'native/core/client/client.hpp',
    'native/core/guilds/guilds_service.hpp',
    'native/core/voice/e2ee/frame_encryptor.hpp',
    'native/capi/support/handles.hpp',
    'bindings/napi/src/handle_arena.hpp',
  ];
  expect(own.filter((path) => !headers.test(join(root, path)))).toEqual([]);
});
