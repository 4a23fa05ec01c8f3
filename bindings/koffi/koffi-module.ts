// The koffi module, loaded on first use rather than when the binding is imported. koffi finds its native module
// (koffi/build/koffi/<platform>_<arch>/koffi.node) when it is loaded, and an app on the N-API backend must not need
// it: bundled into one file (esbuild, webpack), koffi died at start-up ("Cannot find the native Koffi module")
// although nothing used it. lib/loader.ts loads this binding only for the koffi backend now, but a bundle takes the
// binding in all the same; `require` from createRequire is invisible to bundlers, so koffi stays a runtime
// dependency, resolved from the running file (docs/packaging.md "Bundlers and Electron").
import { createRequire } from 'node:module';
import type * as Koffi from 'koffi';
import type { TypeObject } from 'koffi';

let koffiModule: typeof Koffi | undefined;

/** koffi, loaded the first time a koffi-backed API is made. */
export function koffi(): typeof Koffi {
  if (koffiModule) return koffiModule;
  try {
    koffiModule = createRequire(import.meta.url)('koffi') as typeof Koffi;
  } catch (cause) {
    // A bundle shipped without node_modules, or an asar package that left koffi's binary packed.
    throw new Error(
      `svcpp: the koffi backend needs the koffi package and its native module beside the running code (${String(cause)}); ` +
        "use the default 'napi' backend, or ship node_modules/koffi and @koromix/koffi-<platform>-<arch> unpacked (docs/packaging.md)",
      { cause },
    );
  }
  return koffiModule;
}

/** koffi registers type names process-wide; a second load of the binding must reuse them, not redeclare. */
export function declareType(name: string, declare: () => TypeObject): TypeObject {
  try {
    return koffi().type(name);
  } catch {
    return declare();
  }
}
