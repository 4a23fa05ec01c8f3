// The glibc floor of the shipped Linux x64 binaries (native/glibc-floor/glibc-2.28.c): the symbol versions a binary
// requires, as `objdump -T` lists them, and those newer than the floor.
import { execFileSync } from 'node:child_process';

/** glibc 2.28: Node 20's own floor on Linux x64 (Debian 10, Ubuntu 20.04, RHEL 8 and newer). */
export const GLIBC_FLOOR = [2, 28] as const;

const compare = (a: readonly number[], b: readonly number[]) => {
  for (let i = 0; i < Math.max(a.length, b.length); i++)
    if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) - (b[i] ?? 0);
  return 0;
};

/** Every `<LIB>_<x.y>` version `objdump -T` shows for `file` (GLIBC_, GLIBCXX_, CXXABI_, GCC_), sorted. */
export function symbolVersions(file: string): string[] {
  const text = execFileSync('objdump', ['-T', file], { encoding: 'utf8', maxBuffer: 64 << 20 });
  return [...new Set(text.match(/\b(GLIBC|GLIBCXX|CXXABI|GCC)_[0-9][0-9.]*/g) ?? [])].sort();
}

/**
 * What keeps `file` from loading on the floor: symbols of a glibc newer than 2.28, and any libstdc++ version at all
 * (libstdc++ is linked statically, so no GLIBCXX_/CXXABI_ requirement may remain). The symbols, not just versions.
 */
export function aboveFloor(file: string): string[] {
  const text = execFileSync('objdump', ['-T', file], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const offending: string[] = [];
  for (const line of text.split('\n')) {
    const match =
      /\((GLIBC|GLIBCXX|CXXABI)_([0-9.]+)\)\s+(\S+)$/.exec(line) ??
      /\s(GLIBC|GLIBCXX|CXXABI)_([0-9.]+)\s+(\S+)$/.exec(line);
    if (!match) continue;
    const [, lib, version, symbol] = match;
    if (lib !== 'GLIBC' || compare(version!.split('.').map(Number), GLIBC_FLOOR) > 0)
      offending.push(`${symbol}@${lib}_${version}`);
  }
  return offending.sort();
}
