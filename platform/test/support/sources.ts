import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The platform's source folder, for the tests that read its text (single sources, layout, import circles). */
export const SRC = fileURLToPath(new URL('../../src', import.meta.url));

/** Every TypeScript file below `dir` (declaration files excluded), depth first. */
export function sourceFiles(dir: string = SRC): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') && !path.endsWith('.d.ts') ? [path] : [];
  });
}
