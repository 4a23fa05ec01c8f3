// Builds the npm package's JavaScript: one CommonJS implementation and thin ESM entry points over it.
//   dist/cjs/   every contract/, lib/ and bindings/koffi/ module compiled to CommonJS (esbuild, file by file, not
//               bundled), with the declarations tsc emits (tsconfig.build.json); dist/cjs/package.json says
//               "commonjs". contract/ (the generated types and enums both lib/ and bindings/koffi build on) lands in
//               dist/cjs/contract/, so the emitted files' `../contract/x.js` specifiers hold as they do in the sources.
//   dist/esm/   index.js and server.js: `export * from` the CommonJS modules, and their declarations.
// Why not two full builds: a program whose ESM code imports svcpp while a CommonJS dependency requires it would get
// two copies of every class (SvcppError from one fails `instanceof` in the other) and two loaders racing for the
// native library (the dual-package hazard). With ESM as a facade over CommonJS, both reach the same module instances.
// Usage: node tools/package/build.mjs (npm run build:ts).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const cjs = join(root, 'dist', 'cjs');
const esm = join(root, 'dist', 'esm');
const ENTRY_POINTS = ['index', 'server']; // package.json "exports": "." and "./server"

const sourcesUnder = (dir) =>
  readdirSync(join(root, dir), { recursive: true })
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts'))
    .map((name) => join(root, dir, name));

rmSync(join(root, 'dist'), { recursive: true, force: true });

// Declarations (and the type check): tsc, into dist/cjs.
execFileSync(
  process.execPath,
  [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(root, 'tsconfig.build.json')],
  { stdio: 'inherit' },
);

// CommonJS: the sources keep their `./x.js` specifiers, which are right for the emitted files too. Two modules use
// import.meta.url (the loader, to find the package; koffi-module, to create `require`); in CommonJS it becomes the
// emitted file's URL.
const common = {
  outdir: cjs,
  outbase: root,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  sourcemap: false,
  logLevel: 'warning',
};
const sources = [...sourcesUnder('contract'), ...sourcesUnder('lib'), ...sourcesUnder('bindings/koffi')];
const usesImportMeta = [join(root, 'lib', 'loader.ts'), join(root, 'bindings', 'koffi', 'koffi-module.ts')];
await build({ ...common, entryPoints: sources.filter((file) => !usesImportMeta.includes(file)) });
await build({
  ...common,
  entryPoints: usesImportMeta,
  define: { 'import.meta.url': 'svcppModuleUrl' },
  banner: { js: 'const svcppModuleUrl = require("node:url").pathToFileURL(__filename).href;' },
});
writeFileSync(join(cjs, 'package.json'), `${JSON.stringify({ type: 'commonjs' }, null, 2)}\n`);

// ESM facades: Node finds a CommonJS module's export names statically (esbuild's output is written so it can),
// so `export *` re-exports every named export, live, from the one CommonJS instance.
mkdirSync(esm, { recursive: true });
for (const name of ENTRY_POINTS) {
  const target = relative(esm, join(cjs, 'lib', `${name}.js`));
  const text = `// ESM entry point: a facade over the CommonJS build (tools/package/build.mjs says why).\nexport * from '${target}';\n`;
  writeFileSync(join(esm, `${name}.js`), text);
  writeFileSync(join(esm, `${name}.d.ts`), text);
}
console.log(
  `build: ${sources.length} modules -> dist/cjs (CommonJS + declarations), dist/esm (${ENTRY_POINTS.join(', ')})`,
);
