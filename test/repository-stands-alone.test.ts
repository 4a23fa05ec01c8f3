// The repository must stand alone: no comment or doc of ours may cite a reference document that lives outside it.
// Facts those documents held are stated in the repository itself (native/SEMANTICS.md, platform/PROTOCOL.md and its
// pages, idl/surface.mjs, docs/) and cited there instead.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const self = 'test/repository-stands-alone.test.ts';

/** The outside reference documents, cited as files (`<name>.md`) or by section (`<name> §9`, `<name>.md §9`). */
const outside = [
  'sdk-surface',
  'wire-protocol',
  'c-abi',
  'native-build',
  'voice-engine',
  'platform-bot-api',
  'anchors',
  'benchmarks',
  'architecture',
];
// A whole name (not preceded by a name character, so e.g. `docs/my-anchors.md` would not match) followed by `.md`,
// or by a section reference: `§`, `section 3` or `sec. 3`. Our own documents (`PROTOCOL.md §10.5`, `SEMANTICS.md`)
// are not in the list, so citing them is fine.
const section = String.raw`\s*(?:§|sections?\s*\d|sec\.\s*\d)`;
// Section references also match with a space for the hyphen (`wire protocol §3`).
const names = outside.map((name) => name.replace(/-/g, '[- ]')).join('|');
const citation = new RegExp(String.raw`(?<![\w.-])(?:(?:${outside.join('|')})\.md\b|(?:${names})${section})`, 'i');

describe('the citation pattern', () => {
  it.each([
    'wire-protocol §8.4',
    'see sdk-surface§9 rule 4',
    '(c-abi.md §13)',
    'native-build.md',
    'Anchors section 2',
    'benchmarks sec. 4',
    'architecture §1',
    'wire protocol §3',
    'Voice-Engine Section 5',
  ])('flags %j', (line) => expect(citation.test(line)).toBe(true));
  it.each([
    'platform/PROTOCOL.md §10.5',
    'native/SEMANTICS.md "Pump and hook"',
    'platform/protocol/20-main-gateway.md',
    'docs/my-anchors.md',
    'the benchmarks run nightly',
    'wire protocol of the gateway',
    'c-abi rules',
  ])('does not flag %j', (line) => expect(citation.test(line)).toBe(false));
});

describe('repository stands alone', () => {
  it('no tracked file cites an outside reference document', () => {
    const files = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
      .split('\0')
      .filter((f) => f && f !== self && !f.split('/').includes('node_modules'));
    const found: string[] = [];
    for (const file of files) {
      let text: string;
      try {
        text = readFileSync(join(root, file), 'utf8');
      } catch {
        continue; // listed but absent (deleted in the work tree, or a submodule)
      }
      if (text.includes('\0')) continue; // binary
      text.split('\n').forEach((line, i) => {
        if (citation.test(line)) found.push(`${file}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(found, `cite an in-repo document instead:\n${found.join('\n')}`).toEqual([]);
  });
});
