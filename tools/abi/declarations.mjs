// The C ABI as a set of one-line declarations, read from the generated header: every exported function, every
// callback and struct typedef, every enum constant with its value. Two headers with the same set offer the same ABI
// to a caller; a removed or changed line is an incompatible change, an added one a compatible addition.
import { readFileSync } from 'node:fs';

export function readAbiVersion(headerText) {
  const major = /#define SVCPP_ABI_VERSION_MAJOR (\d+)/.exec(headerText);
  const minor = /#define SVCPP_ABI_VERSION_MINOR (\d+)/.exec(headerText);
  if (!major || !minor) throw new Error('svcpp.h defines no SVCPP_ABI_VERSION_MAJOR/MINOR');
  return { major: Number(major[1]), minor: Number(minor[1]) };
}

export function abiDeclarations(headerText) {
  const lines = new Set();
  for (const raw of headerText.split('\n')) {
    const line = raw.trim().replace(/\s+/g, ' ');
    if (line.startsWith('SVCPP_API ')) lines.add(line);
    else if (/^typedef .*\(SVCPP_CALL \*\w+\)\(.*\);$/.test(line)) lines.add(line);
    else if (/^typedef struct \w+ \{.*\} \w+;$/.test(line)) lines.add(line);
    else if (/^Svcpp_\w+ = -?\w+,?$/.test(line)) lines.add(line.replace(/,$/, ''));
  }
  return lines;
}

export function readHeader(path) {
  return readFileSync(path, 'utf8');
}
