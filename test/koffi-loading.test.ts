// koffi is loaded only for the koffi backend (docs/packaging.md "Bundlers and Electron"): an app on the N-API backend
// never loads the koffi binding's modules (lib/loader.ts requires them when that backend is chosen), the koffi package
// or its binary, so it runs, bundled or not, where koffi is not shipped. Each case runs in its own Node process, whose
// loaded modules are its own.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const fixture = fileURLToPath(new URL('./fixtures/koffi-loaded.ts', import.meta.url));
const report = (backend: 'napi' | 'koffi') => {
  const child = spawnSync(process.execPath, ['--import', 'tsx', fixture, backend], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(child.stderr).toBe('');
  expect(child.status).toBe(0);
  return JSON.parse(child.stdout) as {
    log: string;
    koffiBinding: boolean;
    koffiPackage: boolean;
    koffiBinary: boolean | undefined;
  };
};
/** What the report says of koffi's binary: mapped or not where /proc/self/maps tells (Linux), nothing elsewhere. */
const binary = (mapped: boolean) => (process.platform === 'linux' ? mapped : undefined);

describe('koffi is loaded only when the koffi backend is chosen', () => {
  it('a client on the N-API backend works without loading the koffi binding, the koffi package or its binary', () => {
    expect(report('napi')).toEqual({
      log: 'application id set to 42',
      koffiBinding: false,
      koffiPackage: false,
      koffiBinary: binary(false),
    });
  });

  it('a client on the koffi backend loads koffi and works (the same report, seen from the other side)', () => {
    expect(report('koffi')).toEqual({
      log: 'application id set to 42',
      koffiBinding: true,
      koffiPackage: true,
      koffiBinary: binary(true),
    });
  });
});
