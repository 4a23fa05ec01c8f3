/**
 * No import circles in `platform/src/` (PROTOCOL.md §2 "Route convention"): a module never reaches itself through
 * the modules it imports. Type-only imports count: they load nothing at run time, but a circle of types is a circle
 * of knowledge (an area that knows the hub that knows the area), and it is what keeps a module from being read,
 * tested or moved on its own. Dynamic `import()` is lazy and not an edge. The graph is read from the source text
 * (relative specifiers only), and strongly connected components are found with Tarjan's algorithm.
 */
import { relative } from 'node:path';
import { describe, expect, it } from 'vitest';
// The graph reader and the circle search are the SDK's check's too (test/import-circles.test.ts at the root).
import { circles, importGraph } from '../../../test/support/import-graph.js';
import { SRC, sourceFiles } from '../support/sources.js';

/** Every edge counts here, type-only ones included. */
const allEdges = (graph: ReturnType<typeof importGraph>) =>
  new Map([...graph].map(([file, edges]) => [file, edges.map((edge) => edge.target)]));

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
    const found = circles(allEdges(importGraph(files))).map((component) =>
      component.map((file) => relative(SRC, file)).sort(),
    );
    expect(found).toEqual([]);
  });
});
