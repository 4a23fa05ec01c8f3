// The snapshot types of the TypeScript face are generated from the IDL (idl/surface.mjs `snapshots.public` →
// contract/snapshots.ts); no hand-written type in lib/ restates one, field for field.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as idl from '../idl/surface.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const lib = join(root, 'lib');
const generatedSnapshots = join(root, 'contract/snapshots.ts');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/**
 * Interface name → its fields (name, optionality and type, sorted), read from the source text. Names of snapshot
 * types are compared without their suffix (`UserSnapshot`, `UserHandleData` and `UserData` are one type written two
 * ways), so that a hand-written copy that refers to its own nested copies is still seen.
 */
function interfaces(text: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const m of text.matchAll(/^export interface (\w+)(?: extends [^{]+)? \{\n([\s\S]*?)^\}/gm)) {
    const fields = [...m[2]!.matchAll(/^ {2}(?:readonly )?(\w+)(\??): (.+);$/gm)]
      .map((f) => {
        const type = f[3]!.replace(/\b(\w+?)(?:HandleData|Data|Snapshot|Init)\b/g, '$1').replace(/Handle\b/g, '');
        return `${f[1]}${f[2]}: ${type}`;
      })
      .sort();
    if (fields.length > 0) found.set(m[1]!, fields.join(','));
  }
  return found;
}

describe('snapshot types', () => {
  const generated = interfaces(readFileSync(generatedSnapshots, 'utf8'));

  it('restates no generated interface in a hand-written one (same fields = the same type written twice)', () => {
    const restated: string[] = [];
    for (const file of sources(lib)) {
      if (file.includes(`${join('lib', 'generated')}`)) continue;
      for (const [name, fields] of interfaces(readFileSync(file, 'utf8'))) {
        for (const [generatedName, generatedFields] of generated) {
          if (fields === generatedFields) restated.push(`${relative(root, file)}: ${name} restates ${generatedName}`);
        }
      }
    }
    expect(restated).toEqual([]);
  });

  it('generates every public snapshot type, documented, and the package exports each', () => {
    const index = readFileSync(join(lib, 'index.ts'), 'utf8');
    const text = readFileSync(generatedSnapshots, 'utf8');
    for (const { name } of Object.values(idl.snapshots.public) as Array<{ name: string }>) {
      expect(generated.has(name), name).toBe(true);
      expect(text, name).toMatch(new RegExp(`\\*/\\nexport interface ${name} \\{`));
      expect(index, name).toMatch(new RegExp(`\\b${name}\\b`));
    }
  });

  it('the comparison sees a restated type (the check itself works)', () => {
    const copy = interfaces('export interface Copy {\n  id: bigint;\n  name: string;\n}\n');
    const original = interfaces('export interface Original {\n  name: string;\n  /** doc */\n  id: bigint;\n}\n');
    expect(copy.get('Copy')).toBe(original.get('Original'));
  });
});
