// The repository must stand alone: no comment or doc of ours may cite a reference document that lives outside it.
// Facts those documents held are stated in the repository itself (native/SEMANTICS.md, platform/PROTOCOL.md,
// platform/src/gateway/PROTOCOL-gateway.md, idl/surface.mjs, docs/) and cited there instead.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const self = 'test/repository-stands-alone.test.ts';

/** The outside reference documents, cited as files (`<name>.md`). */
const outside = [
  'sdk-surface', 'wire-protocol', 'c-abi', 'native-build', 'voice-engine', 'platform-bot-api', 'anchors', 'benchmarks',
  'architecture',
];
// A whole file name: not preceded by a name character, so e.g. `docs/my-anchors.md` would not match.
const citation = new RegExp(`(?<![\\w.-])(?:${outside.join('|')})\\.md\\b`, 'i');

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
        continue;  // listed but absent (deleted in the work tree, or a submodule)
      }
      if (text.includes('\0')) continue;  // binary
      text.split('\n').forEach((line, i) => {
        if (citation.test(line)) found.push(`${file}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(found, `cite an in-repo document instead:\n${found.join('\n')}`).toEqual([]);
  });
});
