/** The runnable snippets of README.md: each ```ts block right after a `<!-- snippet: <name> -->` line. */
import { readFileSync } from 'node:fs';

const MARKED_BLOCK = /^<!-- snippet: ([\w-]+) -->\n```ts\n([\s\S]*?)^```$/gm;

/** Snippet name → code, in README order; a name used twice throws (the test could not tell them apart). */
export function readmeSnippets(readmePath: string): Map<string, string> {
  const snippets = new Map<string, string>();
  for (const [, name, code] of readFileSync(readmePath, 'utf8').matchAll(MARKED_BLOCK)) {
    if (snippets.has(name!)) throw new Error(`README.md marks two snippets "${name}"`);
    snippets.set(name!, code!);
  }
  return snippets;
}
