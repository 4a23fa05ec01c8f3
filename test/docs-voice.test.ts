// docs/voice.md is where a user learns a call's events: it must name every event `Call` emits (the CallEvents type of
// lib/voice/call.ts). `encryptionStateChanged` was emitted but never named there (issue 40, item 16).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

it('docs/voice.md shows a listener for every Call event', () => {
  const source = readFileSync(join(root, 'lib/voice/call.ts'), 'utf8');
  const [, body] = /^export type CallEvents = \{\n([\s\S]*?)^\};/m.exec(source) ?? [];
  const events = [...body!.matchAll(/^ {2}(\w+): \[/gm)].map((m) => m[1]!);
  expect(events).toContain('encryptionStateChanged');
  const guide = readFileSync(join(root, 'docs/voice.md'), 'utf8');
  expect(events.filter((name) => !guide.includes(`call.on('${name}'`))).toEqual([]);
});
