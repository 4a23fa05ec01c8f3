/**
 * The JavaScript edge has no import circles (issue 43): no module of `contract/`, `lib/` or `bindings/` reaches itself
 * through the modules it imports, and the face (lib/) and the koffi binding (bindings/koffi) do not know each other.
 * What both build on, the generated contract (contract/: the NativeApi a binding implements, the snapshot data it
 * returns, the enums), lives apart and imports neither folder. bindings/ imports nothing from lib/, not even a type:
 * its errors are handed to it (lib/loader.ts passes the face's error factory, as it does to the N-API addon). lib/
 * reaches bindings/ through its loader alone, the one module that chooses a backend.
 * Type-only imports count as edges, as in platform/test/import-circles.test.ts: a circle of types is a circle of
 * knowledge. Dynamic `import()` is lazy and not an edge (nor is the loader's require of the koffi binding: that it
 * loads only for the koffi backend is test/koffi-loading.test.ts's to hold).
 */
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { circles, importGraph, sourceFiles } from './support/import-graph.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const name = (file: string) => relative(root, file);

/** The one module of lib/ that imports from bindings/: it loads the backend the application chose. */
const LOADER = 'lib/loader.ts';

describe('contract/, lib/ and bindings/ have no import circles', () => {
  const files = ['contract', 'lib', 'bindings'].flatMap((dir) => sourceFiles(join(root, dir)));
  const graph = importGraph(files);
  /** Every import from a module under `from` of a module under `to`, as `importer -> imported`. */
  const edgesBetween = (from: string, to: string) =>
    [...graph].flatMap(([file, imports]) =>
      name(file).startsWith(from)
        ? imports
            .filter((edge) => name(edge.target).startsWith(to))
            .map((edge) => `${name(file)} -> ${name(edge.target)}`)
        : [],
    );

  it('finds a circle when there is one (the check itself works)', () => {
    const sample = new Map([
      ['/a.ts', ['/b.ts']],
      ['/b.ts', ['/c.ts']],
      ['/c.ts', ['/a.ts']],
      ['/d.ts', ['/a.ts']],
    ]);
    expect(circles(sample).map((component) => component.sort())).toEqual([['/a.ts', '/b.ts', '/c.ts']]);
  });

  it('no module reaches itself through its imports, type-only ones included', () => {
    expect(files.filter((file) => name(file).startsWith('bindings/koffi/')).length).toBeGreaterThan(5);
    const edges = new Map([...graph].map(([file, imports]) => [file, imports.map((edge) => edge.target)]));
    expect(circles(edges).map((component) => component.map(name).sort())).toEqual([]);
  });

  it('the contract imports neither lib/ nor bindings/', () => {
    expect(files.filter((file) => name(file).startsWith('contract/')).length).toBeGreaterThan(0);
    expect([...edgesBetween('contract/', 'lib/'), ...edgesBetween('contract/', 'bindings/')]).toEqual([]);
  });

  it('bindings/ imports nothing from lib/, not even a type, and builds on the contract', () => {
    expect(edgesBetween('bindings/', 'lib/')).toEqual([]);
    expect(edgesBetween('bindings/koffi/', 'contract/')).toContain(
      'bindings/koffi/generated.ts -> contract/native-api.ts',
    );
  });

  it('lib/ reaches bindings/ only through its loader', () => {
    const intoBindings = edgesBetween('lib/', 'bindings/');
    expect(intoBindings.length).toBeGreaterThan(0);
    expect(intoBindings.filter((edge) => !edge.startsWith(`${LOADER} -> `))).toEqual([]);
  });
});
