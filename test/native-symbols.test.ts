// The binary contract: libsvcpp exports exactly the committed Svcpp_* list, the addon only its Node-API entry
// points, and neither depends on OpenSSL, libsodium or Opus at run time (they are linked in statically, hidden).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const LIBRARY = `${root}build/Release/libsvcpp.so`;
const ADDON = `${root}build/Release/svcpp_node.node`;

const definedDynamicSymbols = (file: string) =>
  execFileSync('nm', ['-D', '--defined-only', file], { encoding: 'utf8' })
    .split('\n').filter(Boolean).map((line) => line.split(' ').pop()!).sort();

describe('native binaries', () => {
  it('libsvcpp.so exports exactly native/capi/exported-symbols.txt', () => {
    const expected = readFileSync(`${root}native/capi/exported-symbols.txt`, 'utf8').split('\n').filter(Boolean).sort();
    expect(definedDynamicSymbols(LIBRARY)).toEqual(expected);
  });

  it('the addon exports only its Node-API entry points', () => {
    expect(definedDynamicSymbols(ADDON)).toEqual(['napi_register_module_v1', 'node_api_module_get_api_version_v1']);
  });

  it.each([LIBRARY, ADDON])('%s links no OpenSSL, libsodium or Opus dynamically', (file) => {
    const ldd = execFileSync('ldd', [file], { encoding: 'utf8' });
    expect(ldd).not.toMatch(/libssl|libcrypto|libsodium|libopus/);
  });
});
