// The C ABI's versioning policy (docs/versioning.md), held by the records of each released version in
// native/abi/<major>.<minor>.txt: within a MAJOR nothing recorded may change or go, and every addition needs a
// MINOR bump with its own record. The SONAME rule (libsvcpp.so.<MAJOR>) is read from the same header.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { abiDeclarations, readAbiVersion } from '../tools/abi/declarations.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const header = readFileSync(join(root, 'native/include/svcpp.h'), 'utf8');
const current = readAbiVersion(header);
const declared = abiDeclarations(header);

function records() {
  return readdirSync(join(root, 'native/abi'))
    .map((name) => /^(\d+)\.(\d+)\.txt$/.exec(name))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({
      major: Number(m[1]),
      minor: Number(m[2]),
      lines: readFileSync(join(root, 'native/abi', m[0]), 'utf8')
        .split('\n')
        .filter((l) => l && !l.startsWith('#')),
    }))
    .sort((a, b) => a.major - b.major || a.minor - b.minor);
}

describe('C ABI versioning', () => {
  it('reads every kind of declaration from the header: functions, callbacks, structs, enum values', () => {
    const sample = abiDeclarations(
      [
        'SVCPP_API uint32_t SVCPP_CALL Svcpp_GetAbiVersion(void);',
        'typedef void (SVCPP_CALL *Svcpp_FreeFn)(void *userData);',
        'typedef struct Svcpp_String { uint8_t *ptr; size_t size; } Svcpp_String;',
        '    Svcpp_Errc_Ok = 0,',
        '/* a comment */',
      ].join('\n'),
    );
    expect([...sample]).toEqual([
      'SVCPP_API uint32_t SVCPP_CALL Svcpp_GetAbiVersion(void);',
      'typedef void (SVCPP_CALL *Svcpp_FreeFn)(void *userData);',
      'typedef struct Svcpp_String { uint8_t *ptr; size_t size; } Svcpp_String;',
      'Svcpp_Errc_Ok = 0',
    ]);
  });

  it('keeps every declaration recorded for the current MAJOR (a change or removal needs a MAJOR bump)', () => {
    const sameMajor = records().filter((r) => r.major === current.major);
    expect(sameMajor.length, `no native/abi/${current.major}.*.txt: run node tools/abi/record.mjs`).toBeGreaterThan(0);
    for (const record of sameMajor) {
      const missing = record.lines.filter((line) => !declared.has(line));
      expect(
        missing,
        `ABI ${record.major}.${record.minor} declarations changed or removed without a MAJOR bump`,
      ).toEqual([]);
    }
  });

  it('records the current version exactly (an addition needs a MINOR bump and its record)', () => {
    const newest = records().at(-1)!;
    expect(`${newest.major}.${newest.minor}`).toBe(`${current.major}.${current.minor}`);
    const unrecorded = [...declared].filter((line) => !newest.lines.includes(line));
    expect(
      unrecorded,
      'declared but not in the newest record: bump SVCPP_ABI_VERSION_MINOR and run node tools/abi/record.mjs',
    ).toEqual([]);
  });

  it('catches a changed signature and an unrecorded addition (the checks on a modified header)', () => {
    const changed = abiDeclarations(header.replace('Svcpp_GetAbiVersion(void)', 'Svcpp_GetAbiVersion(int flags)'));
    expect(
      records()
        .at(-1)!
        .lines.filter((line) => !changed.has(line)),
    ).toContain('SVCPP_API uint32_t SVCPP_CALL Svcpp_GetAbiVersion(void);');
    const added = abiDeclarations(`${header}\nSVCPP_API void SVCPP_CALL Svcpp_NewThing(void);\n`);
    expect([...added].filter((line) => !records().at(-1)!.lines.includes(line))).toEqual([
      'SVCPP_API void SVCPP_CALL Svcpp_NewThing(void);',
    ]);
  });

  it('names the SONAME after the MAJOR and states the current version in docs/versioning.md', () => {
    const sdk = readFileSync(join(root, 'native/sdk/CMakeLists.txt'), 'utf8');
    expect(sdk).toMatch(/SOVERSION \$\{SVCPP_ABI_MAJOR\}/);
    const policy = readFileSync(join(root, 'docs/versioning.md'), 'utf8');
    expect(policy).toContain(`The current C ABI is **${current.major}.${current.minor}**`);
  });
});

describe('release metadata', () => {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

  it('has repository, bugs and homepage fields, and ships the changelog', () => {
    expect(pkg.repository).toMatchObject({ type: 'git', url: expect.stringMatching(/^git\+https:\/\//) });
    expect(pkg.bugs.url).toMatch(/^https:\/\//);
    expect(pkg.homepage).toMatch(/^https:\/\//);
    expect(pkg.files).toContain('CHANGELOG.md');
  });

  it('keeps CHANGELOG.md in Keep a Changelog form, naming the package and ABI versions not yet released', () => {
    const log = readFileSync(join(root, 'CHANGELOG.md'), 'utf8');
    const headings = [...log.matchAll(/^## \[([^\]]+)\](?: - (\d{4}-\d{2}-\d{2}))?$/gm)].map((m) => m[1]);
    expect(headings[0]).toBe('Unreleased');
    for (const version of headings.slice(1)) expect(version).toMatch(/^\d+\.\d+\.\d+$/);
    const unreleased = log.split(/^## /m).find((s) => s.startsWith('[Unreleased]'))!;
    for (const section of unreleased.matchAll(/^### (.+)$/gm)) {
      expect(['Added', 'Changed', 'Deprecated', 'Removed', 'Fixed', 'Security']).toContain(section[1]);
    }
    if (!headings.includes(pkg.version)) {
      expect(unreleased).toContain(`Package \`svcpp\` ${pkg.version}, C ABI ${current.major}.${current.minor}`);
    }
  });
});
