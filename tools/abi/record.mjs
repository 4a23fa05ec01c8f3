#!/usr/bin/env node
// Records the C ABI of native/include/svcpp.h as native/abi/<major>.<minor>.txt (see docs/versioning.md).
// Run it after a change to the surface that bumped SVCPP_ABI_VERSION_MINOR (an addition) or _MAJOR (a break).
// A record, once written, is never rewritten: it is what callers compiled against that version rely on.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { abiDeclarations, readAbiVersion, readHeader } from './declarations.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const header = readHeader(`${root}native/include/svcpp.h`);
const { major, minor } = readAbiVersion(header);
const path = `${root}native/abi/${major}.${minor}.txt`;
const text =
  `# svcpp C ABI ${major}.${minor}: one declaration a line, as in native/include/svcpp.h (tools/abi/record.mjs)\n` +
  [...abiDeclarations(header)].sort().join('\n') +
  '\n';
if (existsSync(path) && readFileSync(path, 'utf8') !== text) {
  console.error(
    `${path} already records ABI ${major}.${minor} differently: bump SVCPP_ABI_VERSION_MINOR (an addition) or _MAJOR (a removal or change) in idl/surface.mjs, regenerate, and record again.`,
  );
  process.exit(1);
}
writeFileSync(path, text);
console.log(`recorded ABI ${major}.${minor} in ${path}`);
