// The generator's layers and the files they write (index.mjs writes or checks them; a test checks that prettier and
// ESLint leave each one alone).
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

// One module per layer; each exports generate(model) -> Array<{path, content}> (paths relative to the repo root).
export const LAYERS = [
  'c_header',
  'core',
  'capi',
  'symbols',
  'cpp_wrapper',
  'napi',
  'koffi',
  'typescript',
  'ts_client',
  'porting_doc',
];

/** Every generated file of the model, layer by layer: {path, content}. */
export async function generatedFiles(model) {
  const files = [];
  for (const layer of LAYERS) {
    const file = join(here, `${layer}.mjs`);
    if (!existsSync(file)) throw new Error(`generator layer ${layer} is missing (${file})`);
    const { generate } = await import(pathToFileURL(file).href);
    files.push(...generate(model));
  }
  return files;
}
