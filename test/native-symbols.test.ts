// The binary contract: libsvcpp exports exactly the committed Svcpp_* list, the addon only its Node-API entry
// points, and neither depends on OpenSSL, libsodium or Opus at run time (they are linked in statically, hidden).
// The addon carries no core of its own: it calls the C ABI in the libsvcpp.so next to it (RUNPATH $ORIGIN).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const LIBRARY = `${root}build/Release/libsvcpp.so`;
const ADDON = `${root}build/Release/svcpp_node.node`;

const dynamicSymbols = (file: string, which: '--defined-only' | '--undefined-only') =>
  execFileSync('nm', ['-D', which, file], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean)
    .map((line) => line.trim().split(' ').pop()!)
    .sort();
const exportedSymbols = () =>
  readFileSync(`${root}native/capi/exported-symbols.txt`, 'utf8').split('\n').filter(Boolean).sort();

/** The DT_NEEDED and DT_RUNPATH entries of the dynamic section (`readelf -d`). */
function dynamicSection(file: string) {
  const text = execFileSync('readelf', ['-d', file], { encoding: 'utf8' });
  const values = (tag: string) => [...text.matchAll(new RegExp(`\\(${tag}\\)\\s+.*\\[(.*)\\]`, 'g'))].map((m) => m[1]);
  return { needed: values('NEEDED'), runpath: values('RUNPATH'), rpath: values('RPATH') };
}

describe('native binaries', () => {
  it('libsvcpp.so exports exactly native/capi/exported-symbols.txt', () => {
    expect(dynamicSymbols(LIBRARY, '--defined-only')).toEqual(exportedSymbols());
  });

  it('the addon exports only its Node-API entry points', () => {
    expect(dynamicSymbols(ADDON, '--defined-only')).toEqual([
      'napi_register_module_v1',
      'node_api_module_get_api_version_v1',
    ]);
  });

  it.each([LIBRARY, ADDON])('%s links no OpenSSL, libsodium or Opus dynamically', (file) => {
    const ldd = execFileSync('ldd', [file], { encoding: 'utf8' });
    expect(ldd).not.toMatch(/libssl|libcrypto|libsodium|libopus/);
  });

  it('the addon needs libsvcpp.so, found next to it, and nothing else of ours', () => {
    const { needed, runpath, rpath } = dynamicSection(ADDON);
    expect(needed).toContain('libsvcpp.so');
    // Everything else is the C/C++ runtime every Linux process has (libpthread and libdl: the glibc floor,
    // cmake/glibc-floor.cmake; libstdc++ is then linked statically).
    expect(
      needed
        .filter((lib) => lib !== 'libsvcpp.so')
        .every((lib) => /^(libstdc\+\+|libm|libgcc_s|libc|libpthread|libdl|ld-linux-[\w-]+)\.so/.test(lib)),
    ).toBe(true);
    expect(runpath).toEqual(['$ORIGIN']);
    expect(rpath).toEqual([]);
    expect(execFileSync('ldd', [ADDON], { encoding: 'utf8' })).toContain(`libsvcpp.so => ${LIBRARY} `);
  });

  it('the addon calls the C ABI through libsvcpp.so instead of carrying a copy of the core', () => {
    const imported = dynamicSymbols(ADDON, '--undefined-only').filter((name) => name.startsWith('Svcpp_'));
    expect(imported.length).toBeGreaterThan(0);
    const exported = new Set(exportedSymbols());
    expect(imported.filter((name) => !exported.has(name))).toEqual([]);
    // The core links OpenSSL statically: its symbols are in libsvcpp's own table, and must not be in the addon's.
    const ownSymbols = (file: string) => execFileSync('nm', [file], { encoding: 'utf8', maxBuffer: 64 << 20 });
    expect(ownSymbols(LIBRARY)).toMatch(/ SSL_CTX_new$/m);
    expect(ownSymbols(ADDON)).not.toMatch(/ SSL_CTX_new$/m);
  });
});
