// The package as npm ships it, for the tests that install it (test/pack*.test.ts, test/glibc-floor.test.ts):
// prebuilds (prebuildify), the JavaScript build, `npm pack`, and installation into an empty project.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../..', import.meta.url));

export interface PackedPackage {
  /** Absolute path of the .tgz. */
  tarball: string;
  /** Paths inside the package, as `npm pack --json` lists them. */
  files: string[];
}

export const run = (cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env) =>
  execFileSync(cmd, args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20 });

/**
 * Runs `fn` holding a lock shared by every test process: the test files run in parallel, and two of them rewriting
 * prebuilds/ or dist/ at once would pack each other's half-written files; two builds in the CMake tree build/ at once
 * (the prebuilds' libsvcpp.so, the SDK archive's svcpp_sdk) would corrupt ninja's state. A lock left by a killed run
 * expires.
 */
export function withPackageLock<T>(fn: () => T): T {
  const lock = join(root, 'build-prebuild', 'lock');
  mkdirSync(join(root, 'build-prebuild'), { recursive: true });
  const sleeper = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > 15 * 60_000)
        rmSync(lock, { recursive: true, force: true });
      Atomics.wait(sleeper, 0, 0, 500);
    }
  }
  try {
    return fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** Makes the prebuilds (prebuilds/<platform>-<arch>/) and hands their directory to `fn`, under the lock. */
export function withPrebuilds<T>(fn: (dir: string) => T): T {
  return withPackageLock(() => {
    run(process.execPath, ['tools/make-prebuilds.mjs'], root);
    return fn(join(root, 'prebuilds', `${process.platform}-${process.arch}`));
  });
}

/** Makes the prebuilds and packs the package into `into` (npm's prepack makes the JavaScript build). */
export function packPackage(into: string): PackedPackage {
  return withPackageLock(() => {
    run(process.execPath, ['tools/make-prebuilds.mjs'], root);
    // As in a fresh clone, which has no dist/ (issue 40, item 10): npm's prepack must build it or the tarball
    // installs and then fails at import.
    rmSync(join(root, 'dist'), { recursive: true, force: true });
    const packed = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', into], root))[0];
    return { tarball: join(into, packed.filename), files: packed.files.map((f: { path: string }) => f.path) };
  });
}

/**
 * A directory holding nothing but `node`, `npm` and `sh` (npm runs install scripts with it): as PATH it leaves out
 * every compiler, make, cmake and python, so a step that would compile fails instead of compiling.
 */
export function nodeOnlyBin(work: string): string {
  const bin = join(work, 'bin');
  if (!existsSync(bin)) {
    mkdirSync(bin);
    symlinkSync(process.execPath, join(bin, 'node'));
    symlinkSync('/bin/sh', join(bin, 'sh'));
    symlinkSync(
      execFileSync('sh', ['-c', 'readlink -f "$(command -v npm)"'], { encoding: 'utf8' }).trim(),
      join(bin, 'npm'),
    );
  }
  return bin;
}

/** An empty project (`type`: its package.json's module type) with `tarball` installed; returns its directory. */
export function installInEmptyProject(
  work: string,
  name: string,
  type: 'module' | 'commonjs',
  tarball: string,
  env: NodeJS.ProcessEnv,
): string {
  const app = mkdtempSync(join(work, `${name}-`));
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name, private: true, type }));
  run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], app, env);
  return app;
}

/** The environment of a run with no compiler: PATH is node, npm and sh alone, and node-gyp-build ignores any build/. */
export function noCompilerEnv(work: string): NodeJS.ProcessEnv {
  return { PATH: nodeOnlyBin(work), PREBUILDS_ONLY: '1', HOME: process.env.HOME };
}
