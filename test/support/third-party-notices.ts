/**
 * THIRD_PARTY_NOTICES.md's table, read the way the notices tests need it: the repository's copy
 * (test/third-party-notices.test.ts) and the one shipped in the engine SDK archive (test/sdk-archive.test.ts).
 */
import { readFileSync } from 'node:fs';

/** Each component name of a row (backticked, "Found in the build as") → its notice file, relative to the table. */
export function noticeRows(noticesFile: string): Map<string, string> {
  const rows = new Map<string, string>();
  for (const line of readFileSync(noticesFile, 'utf8').split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    if (cells.length !== 7 || !cells[4]!.startsWith('`')) continue;
    const notice = /\]\(([^)]+)\)/.exec(cells[5]!)?.[1];
    for (const [, name] of cells[4]!.matchAll(/`([^`]+)`/g)) rows.set(name!, notice ?? '');
  }
  return rows;
}
