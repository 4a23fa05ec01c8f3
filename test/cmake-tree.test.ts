// A moved or copied checkout (issue 40, item 12): its build trees are the original's (CMakeCache.txt names the
// original folder), and building in one re-ran CMake until ninja gave up ("manifest 'build.ninja' still dirty after
// 100 tries") while it regenerated the original checkout's tree. tools/cmake-tree.mjs — used by scripts/run.sh,
// tools/make-prebuilds.mjs and tools/make-sdk-archive.mjs — removes such a tree so that a fresh one is configured.
// Shown on a tiny CMake project copied the way a user copies a checkout (cp -a), with the tool inside it.
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimCMakeTree, cmakeTreeOrigin, isOwnCMakeTree } from '../tools/cmake-tree.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'svcpp-cmake-tree-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const original = join(work, 'original');
const run = (cmd: string, args: string[]) =>
  execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const configureAndBuild = (checkout: string) => {
  run('cmake', ['-S', checkout, '-B', join(checkout, 'build'), '-G', 'Ninja']);
  run('cmake', ['--build', join(checkout, 'build')]);
};
/** What a build in another folder must leave alone: the original tree's generated files. */
const fingerprint = (build: string) =>
  ['CMakeCache.txt', 'build.ninja'].map((name) => {
    const file = join(build, name);
    return { name, mtime: statSync(file).mtimeMs, text: readFileSync(file, 'utf8') };
  });

beforeAll(() => {
  mkdirSync(join(original, 'tools'), { recursive: true });
  writeFileSync(
    join(original, 'CMakeLists.txt'),
    'cmake_minimum_required(VERSION 3.20)\nproject(tiny C)\nadd_executable(tiny main.c)\n',
  );
  writeFileSync(join(original, 'main.c'), 'int main(void) { return 0; }\n');
  copyFileSync(join(root, 'tools/cmake-tree.mjs'), join(original, 'tools/cmake-tree.mjs'));
  configureAndBuild(original);
});

describe('tools/cmake-tree.mjs', () => {
  it('keeps a tree configured for its own checkout', () => {
    expect(isOwnCMakeTree(join(original, 'build'), original)).toBe(true);
    expect(claimCMakeTree(join(original, 'build'), original)).toBe(join(original, 'build'));
    expect(existsSync(join(original, 'build', 'CMakeCache.txt'))).toBe(true);
  });

  it('in a copied checkout, replaces the copied tree with a fresh one and leaves the original tree alone', () => {
    const copy = join(work, 'copy');
    cpSync(original, copy, { recursive: true, preserveTimestamps: true });
    const before = fingerprint(join(original, 'build'));
    expect(cmakeTreeOrigin(join(copy, 'build'))).toEqual({ sourceDir: original, buildDir: join(original, 'build') });
    expect(isOwnCMakeTree(join(copy, 'build'), copy)).toBe(false);

    // As scripts/run.sh calls it: the copy's own tool, the copy's checkout as the sources.
    const said = execFileSync(process.execPath, [join(copy, 'tools/cmake-tree.mjs'), join(copy, 'build')], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    expect(said).toBe('');
    expect(existsSync(join(copy, 'build'))).toBe(false);

    configureAndBuild(copy);
    expect(isOwnCMakeTree(join(copy, 'build'), copy)).toBe(true);
    expect(existsSync(join(copy, 'build', 'tiny'))).toBe(true);
    expect(fingerprint(join(original, 'build'))).toEqual(before);
  });

  it('leaves a folder without a CMake cache (or no folder) as it is', () => {
    const plain = join(work, 'plain');
    mkdirSync(plain);
    writeFileSync(join(plain, 'keep.txt'), 'x');
    expect(claimCMakeTree(plain, original)).toBe(plain);
    expect(readFileSync(join(plain, 'keep.txt'), 'utf8')).toBe('x');
    expect(claimCMakeTree(join(work, 'missing'), original)).toBe(join(work, 'missing'));
    expect(isOwnCMakeTree(join(work, 'missing'), original)).toBe(false);
  });
});
