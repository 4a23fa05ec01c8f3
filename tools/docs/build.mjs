// `npm run docs`: the API documentation, into build-docs/ (not checked in; rebuild it from the sources).
//   build-docs/typescript/             TypeDoc HTML of the TypeScript face: `svcpp` (lib/index.ts) and `svcpp/server`
//   build-docs/c-cpp-reference.md      the C ABI and C++ wrapper reference, generated from idl/surface.mjs
//   build-docs/index.md                where to start, with links to the guides in docs/
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

// The TypeDoc landing page: the README's overview (what svcpp is, up to its set-up section) and the three guides,
// which TypeDoc renders as pages of their own (typedoc.json "projectDocuments"). Links into the repository become
// plain text there: the HTML reference has no copy of the source tree to point at.
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const overview = readme.slice(0, readme.indexOf('\n## ')).replace(/\[([^\]]+)\]\((?!https?:)[^)]*\)/g, '$1');
writeFileSync(join(out, 'typedoc-landing.md'), `${overview.trimEnd()}

## Guides

- [An Electron launcher](../docs/electron-launcher.md): sign a full account in (OAuth2 + PKCE), friends, presence.
- [A Node game server](../docs/game-server.md): provisional accounts, match lobbies and webhooks with \`svcpp/server\`.
- [An engine plugin in C or C++](../docs/engine-plugin.md): the C ABI and the C++ wrapper from the SDK archive.

## The two entry points

- \`svcpp\`: \`Client\` and its value types, events and errors (the SDK over its N-API addon or koffi).
- \`svcpp/server\`: \`SvcppServer\` and the webhook receiver, for game backends (no native code).
`);
execFileSync(process.execPath, [join(root, 'node_modules', 'typedoc', 'bin', 'typedoc'), '--options', join(root, 'typedoc.json'),
  '--readme', join(out, 'typedoc-landing.md')], { cwd: root, stdio: 'inherit' });
console.log('docs: build-docs/typescript/index.html (TypeDoc: svcpp, svcpp/server)');

writeFileSync(join(out, 'index.md'), `# svcpp documentation

- TypeScript: [typescript/index.html](typescript/index.html) — \`svcpp\` (Client and its value types) and
  \`svcpp/server\` (SvcppServer, webhooks).
- C and C++: [c-cpp-reference.md](c-cpp-reference.md) — every function of \`svcpp.h\` and its \`svcpp.hpp\` member.
- Guides (in the repository's docs/): electron-launcher.md, game-server.md, engine-plugin.md.
`);
