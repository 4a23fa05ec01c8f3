// One rule for every CMake build directory the checkout's scripts reuse (scripts/run.sh's build trees,
// tools/make-prebuilds.mjs, tools/make-sdk-archive.mjs): a tree is reused only when it was configured for this
// very checkout. A copied or moved checkout carries build trees whose CMakeCache.txt names the original folder
// (CMAKE_HOME_DIRECTORY: the sources, CMAKE_CACHEFILE_DIR: the tree itself); building in one makes ninja re-run
// CMake for the original folder over and over ("manifest 'build.ninja' still dirty after 100 tries") and rewrites
// the original checkout's tree meanwhile. Such a tree is removed, so the next build configures a fresh one here.
//   import { claimCMakeTree } from './cmake-tree.mjs'     claimCMakeTree(buildDir, sourceDir) -> buildDir
//   node tools/cmake-tree.mjs <build dir>...             the same for each directory, sources = the checkout
import { existsSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const checkout = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The folders a CMakeCache.txt was configured for, or undefined when `buildDir` holds no CMake cache. */
export function cmakeTreeOrigin(buildDir) {
  const cache = join(buildDir, 'CMakeCache.txt');
  if (!existsSync(cache)) return undefined;
  const text = readFileSync(cache, 'utf8');
  const entry = (name) => new RegExp(`^${name}:[A-Z]+=(.*)$`, 'm').exec(text)?.[1];
  return { sourceDir: entry('CMAKE_HOME_DIRECTORY'), buildDir: entry('CMAKE_CACHEFILE_DIR') };
}

const sameFolder = (a, b) => a !== undefined && existsSync(a) && realpathSync(a) === realpathSync(b);

/** True when `buildDir` holds a CMake tree configured for `sourceDir` in `buildDir` itself. */
export function isOwnCMakeTree(buildDir, sourceDir = checkout) {
  const origin = cmakeTreeOrigin(buildDir);
  return origin !== undefined && sameFolder(origin.buildDir, buildDir) && sameFolder(origin.sourceDir, sourceDir);
}

/**
 * Makes `buildDir` safe to configure and build for `sourceDir`: a CMake tree configured for another folder is
 * removed (saying so on stderr); an own tree, a folder without a CMake cache or a missing folder stay as they are.
 * Returns `buildDir`.
 */
export function claimCMakeTree(buildDir, sourceDir = checkout) {
  const origin = cmakeTreeOrigin(buildDir);
  if (origin === undefined || isOwnCMakeTree(buildDir, sourceDir)) return buildDir;
  process.stderr.write(
    `svcpp: ${buildDir} is a CMake tree of ${origin.sourceDir ?? 'another checkout'} (built in ${origin.buildDir ?? '?'}): ` +
      'a copied or moved checkout; removing it so that a fresh one is configured here\n',
  );
  rmSync(buildDir, { recursive: true, force: true });
  return buildDir;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const dir of process.argv.slice(2)) claimCMakeTree(resolve(dir));
}
