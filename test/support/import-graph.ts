// The static import graph of TypeScript sources, read from their text (relative specifiers only), and the circles in
// it (strongly connected components, by Tarjan's algorithm): the import-circle checks of the SDK
// (test/import-circles.test.ts) and of the platform (platform/test/conventions/import-circles.test.ts).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** One import of a module: the file it names, and whether it is `import type` / `export type` (loads nothing). */
export interface ImportEdge {
  target: string;
  typeOnly: boolean;
}

/**
 * Static `import … from './x.js'`, `export … from './x.js'` and bare `import './x.js'`; group 1 is `type` when the
 * whole statement is type-only. A dynamic `import()` is lazy and not an edge.
 */
const STATIC_IMPORT =
  /^(?:import|export)\s+(type\s+)?(?:[^'"]*?)\s*from\s*['"](\.[^'"]+)['"]|^import\s+['"](\.[^'"]+)['"]/gm;

/** Every TypeScript file below `dir` (declaration files excluded). */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') && !path.endsWith('.d.ts') ? [path] : [];
  });
}

/** Each file's imports of other files (a `./x.js` specifier names the `./x.ts` source). */
export function importGraph(files: string[]): Map<string, ImportEdge[]> {
  const graph = new Map<string, ImportEdge[]>();
  for (const file of files) {
    const edges = new Map<string, ImportEdge>();
    for (const match of readFileSync(file, 'utf8').matchAll(STATIC_IMPORT)) {
      const target = resolve(dirname(file), (match[2] ?? match[3])!.replace(/\.js$/, '.ts'));
      if (target === file) continue;
      const typeOnly = match[1] !== undefined && (edges.get(target)?.typeOnly ?? true);
      edges.set(target, { target, typeOnly });
    }
    graph.set(file, [...edges.values()]);
  }
  return graph;
}

/** The strongly connected components with more than one module (each one is a circle); every edge counts. */
export function circles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) found.push(component);
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}
