// Finds and loads a backend. N-API: node-gyp-build (build/Release first, then prebuilds/<platform>-<arch>/).
// The addon links libsvcpp.so and finds it next to itself (RUNPATH $ORIGIN; on Windows, svcpp.dll beside the addon:
// Node loads an addon with LOAD_WITH_ALTERED_SEARCH_PATH, so its own folder is searched first); koffi loads the library
// from that same directory, so both backends in one process share one libsvcpp instance (the dynamic loader reuses an
// object it has already mapped from the same file). Without an addon, koffi looks in build/Release, then
// prebuilds/<platform>-<arch>/ (PREBUILDS_ONLY skips build/). Escape hatch for bundlers and Electron asar
// layouts: the SVCPP_PREBUILD environment variable (read by node-gyp-build too) or the `nativeRoot` option name
// another directory with that same layout.
// Before any of that, the running system must be one the package ships binaries for (lib/targets.ts): anywhere
// else loading fails at once with SvcppUnsupportedTargetError, which names the system and the supported targets.
// Each backend is loaded once per thread (a worker loads its own JS bindings; the native library is per process).
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import nodeGypBuildModule from 'node-gyp-build';
// Types only: the binding's module itself is loaded by koffiBinding(), when the koffi backend is chosen.
import type * as KoffiBinding from '../bindings/koffi/generated.js';
import type { NativeApi } from '../contract/native-api.js';
import { errcError } from './errors.js';
import { ABI_VERSION } from './generated/errc.js';
import { targetFor } from './targets.js';

export type BackendName = 'napi' | 'koffi';

export interface LoadOptions {
  /**
   * A directory laid out like the package (build/Release/ or prebuilds/<platform>-<arch>/) holding the addon and the
   * C ABI library (libsvcpp.so; svcpp.dll on Windows). Default: SVCPP_PREBUILD, else the installed package.
   */
  nativeRoot?: string;
}

/**
 * The package root: the nearest directory upwards with svcpp's package.json (works from lib/ and dist/cjs/lib/;
 * dist/cjs/package.json has no name).
 */
function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).name === 'svcpp') return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error('svcpp: cannot find the package root');
    dir = parent;
  }
}

const nativeRootOf = (options: LoadOptions) => options.nativeRoot ?? process.env.SVCPP_PREBUILD ?? packageRoot();

interface AddonExports extends NativeApi {
  setErrorFactory(factory: (errc: number, detail: string) => Error): void;
}

interface NodeGypBuild {
  (dir: string): AddonExports;
  /** The path of the addon node-gyp-build would load; throws when there is none. */
  resolve(dir: string): string;
}
// A static import, so that a bundler (esbuild, webpack) takes node-gyp-build (plain JavaScript) into the bundle: the
// bundled app then needs only the native files beside it (docs/packaging.md "Bundlers and Electron").
const nodeGypBuild = () => nodeGypBuildModule as unknown as NodeGypBuild;

/** The addon node-gyp-build picks for this root, or undefined when none is built or shipped. */
function addonPath(options: LoadOptions): string | undefined {
  try {
    return nodeGypBuild().resolve(nativeRootOf(options));
  } catch {
    return undefined;
  }
}

/** Absolute path of the C ABI library (for koffi and other FFI users): the very file the addon loads. */
export function nativeLibraryPath(options: LoadOptions = {}): string {
  const target = targetFor();
  const addon = addonPath(options);
  const root = nativeRootOf(options);
  const file = target.libraryFile;
  const candidates = addon
    ? [join(dirname(addon), file)]
    : [
        ...(process.env.PREBUILDS_ONLY ? [] : [join(root, 'build', 'Release', file)]),
        join(root, 'prebuilds', target.name, file),
      ];
  const found = candidates.find((path) => existsSync(path));
  if (!found) throw new Error(`svcpp: ${file} not found (looked in ${candidates.join(', ')})`);
  return found;
}

/**
 * The koffi binding, loaded the first time the koffi backend is chosen: an app on the N-API backend never loads its
 * modules, nor koffi, which the binding itself loads on first use (bindings/koffi/koffi-module.ts), so it runs,
 * bundled or not, without koffi's binary. A synchronous require, since loadBackend is synchronous (a Client makes its
 * backend in its constructor), where `import()` would be a promise. In the package (dist/cjs, CommonJS) `require` is
 * the module's own and the call names the file as a literal, so that a bundler takes the binding in as it took the
 * static import in; the checkout's ES modules make one with createRequire (tsx and the tests' setup teach it .ts).
 */
function koffiBinding(): typeof KoffiBinding {
  const binding =
    typeof require === 'function'
      ? // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy and synchronous (above)
        require('../bindings/koffi/generated.js')
      : createRequire(import.meta.url)('../bindings/koffi/generated.js');
  return binding as typeof KoffiBinding;
}

const loadKoffi = (libraryPath: string): NativeApi => koffiBinding().createKoffiApi(libraryPath, errcError);

function loadNapi(options: LoadOptions): NativeApi {
  const addon = nodeGypBuild()(nativeRootOf(options));
  addon.setErrorFactory(errcError);
  return addon;
}

const loaded = new Map<BackendName, NativeApi>();

/** The NativeApi of a backend: the C ABI as JavaScript sees it (advanced use; prefer Client and friends). */
export function loadBackend(name: BackendName = 'napi', options: LoadOptions = {}): NativeApi {
  let api = loaded.get(name);
  if (api) return api;
  targetFor(); // an unsupported system fails here, by name, before any file lookup
  if (name === 'napi') api = loadNapi(options);
  // The binding gets the face's errors handed in, as the addon does (loadNapi): bindings/ imports nothing from lib/.
  // The library is found first, so that a missing one fails before any of the binding loads.
  else if (name === 'koffi') api = loadKoffi(nativeLibraryPath(options));
  else throw new TypeError(`svcpp: unknown backend ${String(name)}`);
  try {
    api.CheckAbiVersion(ABI_VERSION);
  } catch (error) {
    throw errcError(
      9,
      `svcpp: the native library (ABI ${api.GetAbiVersion()}) cannot serve this package (ABI ${ABI_VERSION}): ${String(error)}`,
    );
  }
  loaded.set(name, api);
  return api;
}
