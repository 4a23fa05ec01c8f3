// `npm run docs`: the API documentation, into build-docs/ (not checked in; rebuild it from the sources).
//   build-docs/typescript/             TypeDoc HTML of the TypeScript face: `svcpp` (lib/index.ts) and `svcpp/server`
//   build-docs/c-cpp-reference.md      the C ABI and C++ wrapper reference, generated from idl/surface.mjs
//   build-docs/index.md                where to start, with links to the guides in docs/
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as idl from '../../idl/surface.mjs';
import { buildModel } from '../gen/model.mjs';
import { generate as cReference } from './c-reference.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const out = join(root, 'build-docs');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

writeFileSync(join(out, 'c-cpp-reference.md'), cReference(buildModel(idl)));
console.log('docs: build-docs/c-cpp-reference.md (C and C++, from idl/surface.mjs)');

execFileSync(process.execPath, [join(root, 'node_modules', 'typedoc', 'bin', 'typedoc'), '--options', join(root, 'typedoc.json')],
  { cwd: root, stdio: 'inherit' });
console.log('docs: build-docs/typescript/index.html (TypeDoc: svcpp, svcpp/server)');

writeFileSync(join(out, 'index.md'), `# svcpp documentation

- TypeScript: [typescript/index.html](typescript/index.html) — \`svcpp\` (Client and its value types) and
  \`svcpp/server\` (SvcppServer, webhooks).
- C and C++: [c-cpp-reference.md](c-cpp-reference.md) — every function of \`svcpp.h\` and its \`svcpp.hpp\` member.
- Guides (in the repository's docs/): electron-launcher.md, game-server.md, engine-plugin.md.
`);
