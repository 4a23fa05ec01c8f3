// The glibc floor: every Linux x64 binary we ship — the prebuilds in the npm package (prebuildify over binding.gyp),
// and the CMake build's libsvcpp.so, addon and the SDK archive's libsvcpp.so.1.0 — loads on glibc 2.28: `objdump -T`
// shows no GLIBC_ version newer than that, and no GLIBCXX_/CXXABI_ one (libstdc++ is linked in statically).
// How: native/glibc-floor/glibc-2.28.c and cmake/glibc-floor.cmake.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root, withPackageLock, withPrebuilds } from './pack/package.js';
import { aboveFloor, symbolVersions } from './support/glibc-floor.js';

describe('the glibc 2.28 floor', () => {
  it('holds for the prebuilds the npm package ships (svcpp.glibc.node and libsvcpp.so)', () => {
    const found = withPrebuilds((dir) =>
      readdirSync(dir)
        .sort()
        .map((name) => {
          const file = join(dir, name);
          return { name, above: aboveFloor(file), glibc: symbolVersions(file).some((v) => v.startsWith('GLIBC_2.')) };
        }),
    );
    expect(found).toEqual([
      { name: 'libsvcpp.so', above: [], glibc: true },
      { name: 'svcpp.glibc.node', above: [], glibc: true },
    ]);
  });

  it.each(['build/Release/libsvcpp.so', 'build/Release/svcpp_node.node', 'build/sdk/libsvcpp.so.1.0'])(
    "holds for the CMake build's %s",
    (path) => {
      const file = join(root, path);
      // Under the package lock: test/sdk-archive.test.ts removes and rebuilds build/sdk/.
      const above = withPackageLock(() => {
        expect(existsSync(file), `${path}: run the native build first`).toBe(true);
        return aboveFloor(file);
      });
      expect(above).toEqual([]);
    },
  );

  it("the check sees what the floor forbids (the build machine's own libssl and libstdc++ are above it)", () => {
    expect(aboveFloor('/usr/lib/x86_64-linux-gnu/libssl.so.3')).toContain('stat@GLIBC_2.33');
    expect(aboveFloor('/usr/lib/x86_64-linux-gnu/libstdc++.so.6').some((s) => /@GLIBC_2\.(29|3\d)$/.test(s))).toBe(
      true,
    );
    expect(symbolVersions('/usr/lib/x86_64-linux-gnu/libstdc++.so.6')).toContain('GLIBCXX_3.4.30');
  });
});
