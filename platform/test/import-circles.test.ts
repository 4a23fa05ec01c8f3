/**
 * No import circles in `platform/src/` (PROTOCOL.md §2 "Route convention"): a module never reaches itself through
 * the modules it imports. Type-only imports count: they load nothing at run time, but a circle of types is a circle
 * of knowledge (an area that knows the hub that knows the area), and it is what keeps a module from being read,
 * tested or moved on its own. Dynamic `import()` is lazy and not an edge. The graph is read from the source text
 * (relative specifiers only), and strongly connected components are found with Tarjan's algorithm.
 */
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SRC, sourceFiles } from './helpers/sources.js';

/** Static `import … from './x.js'`, `export … from './x.js'` and bare `import './x.js'`. */
const STATIC_IMPORT =
  /^(?:import|export)\s+(?:type\s+)?(?:[^'"]*?)\s*from\s*['"](\.[^'"]+)['"]|^import\s+['"](\.[^'"]+)['"]/gm;

function importGraph(files: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = new Set<string>();
    for (const match of readFileSync(file, 'utf8').matchAll(STATIC_IMPORT)) {
      const specifier = (match[1] ?? match[2])!;
      targets.add(resolve(dirname(file), specifier.replace(/\.js$/, '.ts')));
    }
    graph.set(
      file,
      [...targets].filter((target) => target !== file),
    );
  }
  return graph;
}

/** The strongly connected components with more than one module (each one is a circle). */
function circles(graph: Map<string, string[]>): string[][] {
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

describe('platform/src has no import circles', () => {
  it('finds a circle when there is one (the check itself works)', () => {
    const graph = new Map([
      ['/a.ts', ['/b.ts']],
      ['/b.ts', ['/c.ts']],
      ['/c.ts', ['/a.ts']],
      ['/d.ts', ['/a.ts']],
    ]);
    expect(circles(graph).map((component) => component.sort())).toEqual([['/a.ts', '/b.ts', '/c.ts']]);
  });

  it('no module reaches itself through its imports, type-only ones included', () => {
    const files = sourceFiles(SRC);
    expect(files.length).toBeGreaterThan(100);
    const found = circles(importGraph(files)).map((component) => component.map((file) => relative(SRC, file)).sort());
    expect(found).toEqual([]);
  });
});
