/**
 * The JavaScript edge has no import circles (issue 43): no module of `lib/` or `bindings/` reaches itself through the
 * modules it imports, and the koffi binding depends on the TypeScript face only for the types of the generated
 * contract it implements (NativeApi and the snapshot data it returns). Its errors are handed to it (lib/loader.ts
 * passes the face's error factory, as it does to the N-API addon), so nothing of lib/ runs inside bindings/.
 * Type-only imports count as edges, as in platform/test/import-circles.test.ts: a circle of types is a circle of
 * knowledge. Dynamic `import()` is lazy and not an edge.
 */
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { circles, importGraph, sourceFiles } from './support/import-graph.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const name = (file: string) => relative(root, file);

/** The generated contract a binding implements: types only, generated from the IDL (tools/gen). */
const CONTRACT = ['lib/generated/native-api.ts', 'lib/generated/snapshots.ts'];

describe('lib/ and bindings/ have no import circles', () => {
  const files = [...sourceFiles(join(root, 'lib')), ...sourceFiles(join(root, 'bindings'))];
  const graph = importGraph(files);

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

  it('bindings/ imports from lib/ only the types of the generated contract, nothing that runs', () => {
    const intoLib = [...graph].flatMap(([file, imports]) =>
      name(file).startsWith('bindings/')
        ? imports
            .filter((edge) => name(edge.target).startsWith('lib/'))
            .map((edge) => ({ from: name(file), to: name(edge.target), typeOnly: edge.typeOnly }))
        : [],
    );
    expect(intoLib.filter((edge) => !edge.typeOnly || !CONTRACT.includes(edge.to))).toEqual([]);
  });
});
